import Papa from 'papaparse'
import { formatCsv } from '@contract/csv'
import { AppFailure } from '@contract/errors'

/** A CSV answer made safe to open in a spreadsheet. */
export interface SafeCsv {
  /** The CSV text to write (UTF-8; a byte order mark kept when the service sent one). */
  text: string
  /** Data rows (the header row not counted). */
  rows: number
  /** Cells that looked like formulas and got a leading `'`. */
  escapedCells: number
}

/** Content types a CSV answer may carry (a missing one is judged by the text alone). */
const CSV_TYPES = new Set([
  'text/csv',
  'application/csv',
  'text/comma-separated-values',
  'text/plain',
  'application/vnd.ms-excel',
])

const BOM = '\uFEFF'

function notCsv(reason: string): AppFailure {
  return new AppFailure({
    code: 'BAD_RESPONSE',
    message: `The service did not send a CSV file (${reason}); nothing was saved.`,
  })
}

/** The media type of a Content-Type header, lower case, without parameters; null when absent. */
function mediaType(contentType: string | null): string | null {
  if (contentType === null) return null
  return contentType.split(';')[0].trim().toLowerCase() || null
}

/** The answer's bytes as text, or a refusal when they are not UTF-8 text. */
function decodeText(bytes: Uint8Array): string {
  if (bytes.length === 0) throw notCsv('the file is empty')
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    throw notCsv('the file is not UTF-8 text')
  }
  if (text.includes('\u0000')) throw notCsv('the file holds binary data')
  return text
}

/**
 * Checks a CSV export as the service sent it and escapes every cell that looks like a formula
 * (= + - @ tab or CR at the start, not a plain number, not already escaped with `'`), header
 * included, because a real service may not do it. Parsed with papaparse (RFC 4180: quoted commas,
 * quotes and line breaks); written back by `formatCsv`: every field quoted, CRLF line ends.
 * Throws BAD_RESPONSE for an answer that is not CSV text: another content type, empty, not UTF-8,
 * HTML or JSON, broken quotes, or rows whose number of cells differs from the header's.
 */
export function escapeCsvAnswer(bytes: Uint8Array, contentType: string | null): SafeCsv {
  const type = mediaType(contentType)
  if (type !== null && !CSV_TYPES.has(type)) throw notCsv(`it sent ${type}`)
  const decoded = decodeText(bytes)
  const bom = decoded.startsWith(BOM)
  const body = bom ? decoded.slice(1) : decoded
  const first = body.trimStart()[0]
  if (first === '<') throw notCsv('it sent an HTML or XML page')
  if (first === '{' || first === '[') throw notCsv('it sent JSON')
  if (first === undefined) throw notCsv('the file is empty')
  const parsed = Papa.parse<string[]>(body, { delimiter: ',', skipEmptyLines: true })
  const problem = parsed.errors[0]
  if (problem)
    throw notCsv(
      `it could not be read as CSV${problem.row !== undefined ? ` at row ${problem.row + 1}` : ''}: ${problem.message}`,
    )
  const table = parsed.data
  const width = table[0]?.length ?? 0
  const uneven = table.findIndex((row) => row.length !== width)
  if (uneven >= 0)
    throw notCsv(
      `row ${uneven + 1} has ${table[uneven].length} cells where the header has ${width}`,
    )
  const { text, escapedCells } = formatCsv(table)
  return { text: `${bom ? BOM : ''}${text}`, rows: table.length - 1, escapedCells }
}
