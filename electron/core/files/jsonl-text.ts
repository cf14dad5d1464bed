// JSON Lines as ScanDesk writes it: one JSON object per line, each a record of the service's list
// as it sent it (id, type, attributes), its attributes kept as data: nothing escaped for a
// spreadsheet, nothing read into them.

/** One record of a list answer. */
export interface ListRecord {
  id: string
  type?: string
  attributes: Record<string, unknown>
}

/**
 * U+0085, U+2028 and U+2029 are valid raw inside a JSON string but some readers split lines on
 * them (Python's `splitlines`, some editors); written as `\u0085`, `\u2028`, `\u2029` every object
 * stays on its one line for every reader.
 */
const LINE_SEPARATORS = /[\u0085\u2028\u2029]/g

/** One record as one line of JSON (no line break inside; `\n` after it). */
export function jsonLine(record: ListRecord): string {
  const object = {
    id: record.id,
    ...(record.type !== undefined ? { type: record.type } : {}),
    attributes: record.attributes,
  }
  const text = JSON.stringify(object).replace(
    LINE_SEPARATORS,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
  return `${text}\n`
}

/**
 * The records as JSON Lines (https://jsonlines.org): UTF-8, one object per line, each line ended
 * by `\n`, the file ending with one. JSON.stringify escapes the control characters (a line break
 * inside a value is `\n` in the text) and a lone surrogate, so each line parses on its own.
 */
export function formatJsonLines(records: readonly ListRecord[]): { text: string; rows: number } {
  return { text: records.map(jsonLine).join(''), rows: records.length }
}
