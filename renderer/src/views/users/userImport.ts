import Papa from 'papaparse'
import { z } from 'zod'
import { userEmail, userImportRow, userRole } from '@contract/catalog/users'
import { looksLikeFormula } from '@contract/csv'

/** One user of an import, as users.import takes it. */
export type ImportUser = z.output<typeof userImportRow>

/** The columns an import reads: the fields of the catalog's import row. */
export const IMPORT_COLUMNS = Object.keys(userImportRow.shape) as (keyof ImportUser)[]

/** The columns every file must have (the row's required fields). */
export const REQUIRED_COLUMNS = IMPORT_COLUMNS.filter(
  (c) => !userImportRow.shape[c].safeParse(undefined).success,
)

/** The most rows one import sends (the catalog's limit of users.import; a test ties the two). */
export const MAX_IMPORT_ROWS = 500

/** The largest file the dialog reads. */
export const MAX_IMPORT_BYTES = 1024 * 1024

const nameCheck = z.string().max(100, 'must be at most 100 characters')

/**
 * One row checked before anything is sent: the catalog's import row, with the content the service
 * checks per row (an e-mail address, a known role, names of at most 100 characters).
 */
const rowCheck = userImportRow.extend({
  email: userEmail,
  role: z.enum(userRole.options, { error: `must be one of ${userRole.options.join(', ')}` }),
  first_name: nameCheck.optional(),
  last_name: nameCheck.optional(),
})

/** One problem of one row. */
export interface RowProblem {
  field: string
  message: string
}

/** One data row of the file (row 1 is the first row after the header). */
export interface ImportRow {
  row: number
  /** The cells as typed (trimmed); shown as text, never interpreted. */
  cells: Record<keyof ImportUser, string>
  /** What is sent when the row has no problem. */
  user: ImportUser | null
  problems: RowProblem[]
  /** Columns whose cell starts like a spreadsheet formula (imported as plain text). */
  formulaLike: string[]
}

/** What the file holds: its rows, or one reason the whole file cannot be imported. */
export interface ImportPreview {
  rows: ImportRow[]
  ready: ImportRow[]
  failed: ImportRow[]
  /** Set when nothing in the file can be imported (no header, a required column missing, …). */
  fileProblem: string | null
  /** Header cells that are not import columns (ignored). */
  ignoredColumns: string[]
}

/** "First name" → "first_name": headers as people write them, matched to the columns. */
function columnKey(header: string): string {
  return header
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_')
}

function fileProblem(message: string): ImportPreview {
  return { rows: [], ready: [], failed: [], fileProblem: message, ignoredColumns: [] }
}

/** The user of a row, or its problems (one per field). */
function checkRow(cells: Record<keyof ImportUser, string>): {
  user: ImportUser | null
  problems: RowProblem[]
} {
  const candidate: Record<string, string> = {
    email: cells.email,
    role: cells.role.toLowerCase(),
  }
  if (cells.first_name) candidate.first_name = cells.first_name
  if (cells.last_name) candidate.last_name = cells.last_name
  const checked = rowCheck.safeParse(candidate)
  if (checked.success) return { user: checked.data, problems: [] }
  const problems: RowProblem[] = []
  for (const issue of checked.error.issues) {
    const field = String(issue.path[0] ?? 'row')
    if (!problems.some((p) => p.field === field)) problems.push({ field, message: issue.message })
  }
  return { user: null, problems }
}

/**
 * Reads a users CSV (a header row naming the columns email, first_name, last_name, role; others
 * ignored) with papaparse and checks every row with the catalog's import row and the service's
 * per-row rules, so the preview shows each row's problems before anything is sent. An e-mail that
 * appears twice is refused on its later rows. More than MAX_IMPORT_ROWS rows refuses the file.
 */
export function previewUserCsv(text: string): ImportPreview {
  const parsed = Papa.parse<Record<string, string>>(text, {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: columnKey,
  })
  const broken = parsed.errors.find((e) => e.type === 'Quotes')
  if (broken)
    return fileProblem(
      `The file is not valid CSV (row ${(broken.row ?? 0) + 1}: ${broken.message}). Save it again as CSV and retry.`,
    )
  const headers = (parsed.meta.fields ?? []).filter((h) => h !== '')
  const missing = REQUIRED_COLUMNS.filter((c) => !headers.includes(c))
  if (missing.length)
    return fileProblem(
      `The first row must name the columns; ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} missing. Expected: ${IMPORT_COLUMNS.join(', ')}.`,
    )
  if (parsed.data.length === 0) return fileProblem('The file has a header row but no users.')
  if (parsed.data.length > MAX_IMPORT_ROWS)
    return fileProblem(
      `The file has ${parsed.data.length} rows; one import takes at most ${MAX_IMPORT_ROWS}. Split it into smaller files.`,
    )
  const uneven = new Map<number, string>()
  for (const e of parsed.errors)
    if (e.type === 'FieldMismatch' && e.row !== undefined) uneven.set(e.row, e.message)
  const seen = new Set<string>()
  const rows = parsed.data.map((record, i): ImportRow => {
    const cells = Object.fromEntries(
      IMPORT_COLUMNS.map((c) => [c, typeof record[c] === 'string' ? record[c].trim() : '']),
    ) as Record<keyof ImportUser, string>
    const { user, problems } = checkRow(cells)
    const mismatch = uneven.get(i)
    if (mismatch) problems.push({ field: 'row', message: mismatch })
    if (user && seen.has(user.email))
      problems.push({ field: 'email', message: 'appears more than once in this file' })
    if (user) seen.add(user.email)
    const formulaLike = IMPORT_COLUMNS.filter((c) => looksLikeFormula(cells[c]))
    return { row: i + 1, cells, user: problems.length ? null : user, problems, formulaLike }
  })
  return {
    rows,
    ready: rows.filter((r) => r.user !== null),
    failed: rows.filter((r) => r.user === null),
    fileProblem: null,
    ignoredColumns: headers.filter((h) => !(IMPORT_COLUMNS as string[]).includes(h)),
  }
}
