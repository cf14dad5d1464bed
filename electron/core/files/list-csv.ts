// Lists the service answers as JSON (vulnerabilities, the audit log), saved by ScanDesk itself:
// every page of the list's filters, search and sort, up to a cap, as CSV (one row per record with
// the columns below, written by formatCsv: every field quoted, formula-looking cells escaped) or
// as JSON Lines (the records as the service sent them).
import { fail } from '@contract/errors'
import type { AccountClient } from '../http/client'
import { formatCsv } from '@contract/csv'
import { formatJsonLines, type ListRecord } from './jsonl-text'

/** The lists ScanDesk writes as CSV itself, with their columns (attribute names). */
export const LIST_CSV_COLUMNS = {
  'vulnerabilities.list': [
    'title',
    'severity',
    'cvss_score',
    'host_ip',
    'host_id',
    'cve_ids',
    'pci_compliant',
    'scan_id',
    'first_seen_at',
    'last_seen_at',
  ],
  'audit.list': [
    'occurred_at',
    'action',
    'actor_id',
    'actor_email',
    'resource_type',
    'resource_id',
    'ip_address',
    'user_agent',
    'details',
  ],
} as const

/** One list ScanDesk writes as CSV itself. */
export type ListCsvOp = keyof typeof LIST_CSV_COLUMNS

/** The most rows one such export holds (as many as a bulk run takes). */
export const LIST_CSV_MAX_ROWS = 5000

/**
 * Per list: the page size asked for and the most records one file holds. The audit log is read
 * in pages of 100 (progress after each, a cancel felt within one page) and may hold 50,000 events
 * (held in memory until written; about 25 MB).
 */
export const LIST_LIMITS: Record<ListCsvOp, { page: number; maxRows: number }> = {
  'vulnerabilities.list': { page: 500, maxRows: LIST_CSV_MAX_ROWS },
  'audit.list': { page: 100, maxRows: 50_000 },
}

export function isListCsv(op: string): op is ListCsvOp {
  return op in LIST_CSV_COLUMNS
}

/** How a list is read: cancelled with `signal`, `onPage` told the records read after each page. */
export interface ListReadOptions {
  signal?: AbortSignal
  onPage?(rows: number, total: number | null): void
}

type Query = Record<string, string | number | boolean>

/**
 * Reads every page of the list (refusing one longer than the cap), in the service's order. A
 * record already read (a new one pushed it onto the next page meanwhile) is kept once. A cancel
 * stops it between pages or aborts the page being read (CANCELLED).
 */
export async function readList(
  client: AccountClient,
  op: ListCsvOp,
  query: Query = {},
  options: ListReadOptions = {},
): Promise<ListRecord[]> {
  const { page: size, maxRows } = LIST_LIMITS[op]
  const records: ListRecord[] = []
  const seen = new Set<string>()
  const callOptions = options.signal ? { signal: options.signal } : {}
  for (let page = 1; ; page++) {
    if (options.signal?.aborted) fail('CANCELLED', 'The export was cancelled; nothing was saved.')
    const answer = (await client.call(
      op,
      { query: { ...query, page, per_page: size } },
      callOptions,
    )) as {
      data: ListRecord[]
      meta?: { pagination?: { total_count?: number } }
    }
    const total = answer.meta?.pagination?.total_count
    if ((total ?? 0) > maxRows || records.length + answer.data.length > maxRows)
      fail(
        'TOO_LARGE',
        `The list holds ${total ?? 'more than ' + maxRows} rows, more than the ${maxRows} ScanDesk writes to one file; nothing was saved. Narrow it with its filters and export again.`,
      )
    for (const r of answer.data) {
      if (seen.has(r.id)) continue
      seen.add(r.id)
      records.push(r)
    }
    options.onPage?.(records.length, total ?? null)
    if (answer.data.length < size) break
  }
  if (options.signal?.aborted) fail('CANCELLED', 'The export was cancelled; nothing was saved.')
  return records
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (Array.isArray(value)) return value.map(cell).join('; ')
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/** The records as CSV: an id column, then the list's columns. */
export function recordsCsv(
  op: ListCsvOp,
  records: readonly ListRecord[],
): { text: string; rows: number; escapedCells: number } {
  const columns = LIST_CSV_COLUMNS[op]
  const rows: string[][] = [['id', ...columns]]
  for (const r of records) rows.push([r.id, ...columns.map((c) => cell(r.attributes[c]))])
  const { text, escapedCells } = formatCsv(rows)
  return { text, rows: records.length, escapedCells }
}

/** Reads every page of the list and formats it as CSV. */
export async function listCsv(
  client: AccountClient,
  op: ListCsvOp,
  query: Query = {},
  options: ListReadOptions = {},
): Promise<{ text: string; rows: number; escapedCells: number }> {
  return recordsCsv(op, await readList(client, op, query, options))
}

/** Reads every page of the list and formats it as JSON Lines (nothing escaped: no cells). */
export async function listJsonLines(
  client: AccountClient,
  op: ListCsvOp,
  query: Query = {},
  options: ListReadOptions = {},
): Promise<{ text: string; rows: number; escapedCells: number }> {
  return { ...formatJsonLines(await readList(client, op, query, options)), escapedCells: 0 }
}
