/**
 * CSV as RFC 4180 describes it (CRLF line ends, fields quoted when they hold a comma, a quote or a
 * line break, quotes doubled), made safe against formula injection: a text cell that a
 * spreadsheet would read as a formula (starting with =, +, -, @, tab or carriage return) is
 * prefixed with an apostrophe.
 */

/** One cell: text, a number, or empty. */
export type CsvCell = string | number | null | undefined

const FORMULA_START = /^[=+\-@\t\r]/

/** Encodes one cell. Numbers are written as they are; text is neutralised and quoted if needed. */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : ''
  let text = value
  if (FORMULA_START.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** Builds the file: a header row, then the rows, each line ended by CRLF; UTF-8 bytes. */
export function buildCsv(header: string[], rows: CsvCell[][]): Buffer {
  const lines = [header, ...rows].map((row) => row.map(csvCell).join(','))
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8')
}
