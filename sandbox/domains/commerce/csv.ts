import type { Row, SandboxFile } from '../../types'

/** Characters that make a spreadsheet read a cell as a formula (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/

/**
 * One CSV cell (RFC 4180): text that a spreadsheet would run as a formula gets a leading `'`;
 * cells with a comma, quote, CR or LF are quoted with inner quotes doubled. Numbers and booleans
 * are written as they are; null and undefined as an empty cell.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  let text = typeof value === 'string' ? value : JSON.stringify(value)
  if (FORMULA_START.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** CSV text: a header row and one row per record, CRLF line ends (RFC 4180). */
export function toCsv(
  columns: readonly string[],
  records: readonly Record<string, unknown>[],
): string {
  const lines = [columns.map(csvCell).join(',')]
  for (const r of records) lines.push(columns.map((c) => csvCell(r[c])).join(','))
  return lines.join('\r\n') + '\r\n'
}

/** A CSV download of rows: column `id` from the row, the others from its attributes. */
export function csvFile(
  filename: string,
  columns: readonly string[],
  rows: readonly Row[],
): SandboxFile {
  const text = toCsv(
    columns,
    rows.map((r) => ({ ...r.attributes, id: r.id })),
  )
  const body = Buffer.from(text, 'utf8')
  return { contentType: 'text/csv; charset=utf-8', filename, size: body.length, body }
}
