import { z } from 'zod'
import { accountId } from './accounts'
import { absolutePath } from './files'

/**
 * The catalog's CSV exports ScanDesk saves to disk: GETs answered as a file, and lists answered as
 * JSON that ScanDesk writes as CSV itself (vulnerabilities.list, audit.list: every page of the
 * filter).
 */
export const CSV_EXPORT_OPS = [
  'organizations.export',
  'users.export',
  'vulnerabilities.list',
  'audit.list',
] as const
/** One CSV export operation. */
export type CsvExportOp = (typeof CSV_EXPORT_OPS)[number]

/** The file formats of an export: CSV, or JSON Lines (one JSON object per line). */
export const EXPORT_FORMATS = ['csv', 'jsonl'] as const
/** One export file format. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

/** The lists that can also be saved as JSON Lines (the service's records as data). */
export const JSONL_EXPORT_OPS: readonly CsvExportOp[] = ['audit.list']

/** An id the renderer gives an export so it can follow its progress and cancel it (api.cancel). */
const exportId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'is not a request id')

/** The list filters an export takes: the list's search, sort and filters (no paging). */
const exportQuery = z.record(
  z.string().regex(/^[a-z_]{1,40}$/, 'is not a query parameter'),
  z.union([z.string().max(500), z.number(), z.boolean()]),
)

/** Inputs of the CSV channels. */
export const csvInputs = {
  'csv.export': z.strictObject({
    accountId,
    op: z.enum(CSV_EXPORT_OPS),
    /** Checked again against the operation's own query schema in main. */
    query: exportQuery.optional(),
    /**
     * Browser mode only (no save dialog there): the typed file to save to, inside the user's
     * folders. Electron opens the save dialog in main and refuses a path.
     */
    path: absolutePath.optional(),
    /** Browser mode: replace a file already at `path` (the user confirmed). */
    replace: z.boolean().optional(),
    /** CSV (default), or JSON Lines for the lists in JSONL_EXPORT_OPS. */
    format: z.enum(EXPORT_FORMATS).optional(),
    /** Lists read page by page: progress events carry it, `api.cancel` with it stops the export. */
    requestId: exportId.optional(),
  }),
  'csv.reveal': z.strictObject({ path: absolutePath }),
}

/**
 * What an export did. Saved: where, how many data rows, how many cells ScanDesk escaped because
 * they looked like formulas. Not saved: the dialog was cancelled, or (browser mode, no path sent)
 * the path ScanDesk suggests for the user to confirm or change.
 */
export type CsvExportOutcome =
  | { saved: true; path: string; rows: number; escapedCells: number }
  | { saved: false; suggestedPath?: string }

/** Outputs of the CSV channels. */
export interface CsvOutputs {
  'csv.export': CsvExportOutcome
  'csv.reveal': { revealed: boolean }
}

/** Events of the CSV exports. */
export interface CsvEvents {
  /** A list export read one more page: the records read so far, of `total` when the service said. */
  'csv.progress': { requestId: string; rows: number; total: number | null }
}

/** Characters that make a spreadsheet read a cell as a formula (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r\n]/
/**
 * What some spreadsheet drops or reads past before deciding a cell is a formula: white space of
 * every kind (JavaScript's `\s`: space, tab, line breaks, no-break spaces, the Unicode spaces and
 * the byte order mark), zero-width characters and the invisible format controls.
 */
const IGNORED_BEFORE = /^[\s\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u061C]+/u
/** = + - @ and their full-width and small forms, which an IME or a spreadsheet may fold to them. */
const FORMULA_SIGN = /^[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\uFE66\uFE62\uFE63\uFE6B]/u
/** A plain number (`-5`, `+1.5e3`): starts like a formula but cannot run anything. */
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/
/**
 * Bidirectional controls (LRM, RLM, ALM, the embeddings, overrides and isolates): invisible, they
 * make a cell read other than it is (`\u202Egnp.exe` shows as `exe.png`). Removed from every cell.
 */
const BIDI_CONTROLS = /[\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069]/gu

/**
 * True when a spreadsheet would read `cell` as a formula: it starts with = + - @ tab, CR or LF,
 * or with one of = + - @ (or their full-width or small forms) once leading white space,
 * zero-width and format characters are passed over — Excel, LibreOffice and Google Sheets each
 * trim some of them — and it is not a plain number. A cell escaped with a leading `'` does not.
 */
export function looksLikeFormula(cell: string): boolean {
  if (FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell)) return true
  const rest = cell.replace(IGNORED_BEFORE, '')
  return FORMULA_SIGN.test(rest) && !PLAIN_NUMBER.test(rest)
}

/**
 * A cell as ScanDesk writes it into a CSV file: bidirectional controls removed, then a leading
 * `'` when a spreadsheet would run it as a formula; other cells unchanged.
 */
export function escapeFormula(cell: string): string {
  return safeCell(cell).text
}

function safeCell(cell: string): { text: string; escaped: boolean } {
  const plain = cell.replace(BIDI_CONTROLS, '')
  const escaped = looksLikeFormula(plain)
  return { text: escaped ? `'${plain}` : plain, escaped }
}

/** One field in double quotes, its own double quotes doubled (RFC 4180). */
function quoted(cell: string): string {
  return `"${cell.replace(/"/g, '""')}"`
}

/**
 * CSV text as ScanDesk writes every CSV file: each cell that looks like a formula escaped with a
 * leading `'`, and **every** field in double quotes, CRLF after each row. Quoting only where a
 * comma needs it is not enough: a spreadsheet in a locale whose list separator is `;` (German,
 * French…) splits an unquoted `Acme;=cmd|' /C calc'!A0` at the `;` and runs the second part;
 * inside quotes the `;` is text, whatever the separator. Returns the text and how many cells were
 * escaped.
 */
export function formatCsv(rows: readonly (readonly string[])[]): {
  text: string
  escapedCells: number
} {
  let escapedCells = 0
  const lines = rows.map((row) =>
    row
      .map((cell) => {
        const safe = safeCell(cell)
        if (safe.escaped) escapedCells++
        return quoted(safe.text)
      })
      .join(','),
  )
  return { text: lines.map((line) => `${line}\r\n`).join(''), escapedCells }
}
