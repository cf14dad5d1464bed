// A list the service answers as JSON (vulnerabilities), saved as CSV by ScanDesk itself: every
// page of the list's filters, search and sort, up to a cap, one row per record with the columns
// below, written by formatCsv (every field quoted, formula-looking cells escaped).
import { fail } from '@contract/errors'
import type { AccountClient } from '../http/client'
import { formatCsv } from '@contract/csv'

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
} as const

/** One list ScanDesk writes as CSV itself. */
export type ListCsvOp = keyof typeof LIST_CSV_COLUMNS

/** The most rows one such export holds (as many as a bulk run takes). */
export const LIST_CSV_MAX_ROWS = 5000
const PAGE = 500

export function isListCsv(op: string): op is ListCsvOp {
  return op in LIST_CSV_COLUMNS
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (Array.isArray(value)) return value.map(cell).join('; ')
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

/** Reads every page of the list (refusing one longer than the cap) and formats it as CSV. */
export async function listCsv(
  client: AccountClient,
  op: ListCsvOp,
  query: Record<string, string | number | boolean> = {},
): Promise<{ text: string; rows: number; escapedCells: number }> {
  const columns = LIST_CSV_COLUMNS[op]
  const rows: string[][] = [['id', ...columns]]
  for (let page = 1; ; page++) {
    const answer = (await client.call(op, { query: { ...query, page, per_page: PAGE } })) as {
      data: { id: string; attributes: Record<string, unknown> }[]
      meta?: { pagination?: { total_count?: number } }
    }
    const total = answer.meta?.pagination?.total_count
    if (
      (total ?? 0) > LIST_CSV_MAX_ROWS ||
      rows.length - 1 + answer.data.length > LIST_CSV_MAX_ROWS
    )
      fail(
        'TOO_LARGE',
        `The list holds ${total ?? 'more than ' + LIST_CSV_MAX_ROWS} rows, more than the ${LIST_CSV_MAX_ROWS} ScanDesk writes to one file; nothing was saved. Narrow it with its filters and export again.`,
      )
    for (const r of answer.data) rows.push([r.id, ...columns.map((c) => cell(r.attributes[c]))])
    if (answer.data.length < PAGE) break
  }
  const { text, escapedCells } = formatCsv(rows)
  return { text, rows: rows.length - 1, escapedCells }
}
