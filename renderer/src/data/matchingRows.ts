import type { ListOperationId } from './useOperationList'
import { rowsOf, totalOf, type Collection } from './envelope'
import { fetchOperation } from './fetchOperation'
import type { BulkHost } from '@contract/bulk'
import type { InputOf } from '@contract/catalog'

/** One row picked for a bulk run: its id and what the result shows for it (title, host). */
export interface PickedRow {
  id: string
  label?: string
  host?: BulkHost
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined)

/**
 * A finding or an exception as a bulk run's result names it: its title (`titleField`) and its
 * host as the list shows it — the address (the host's id when the row has none), with a finding's
 * port and protocol ("10.0.0.5 port 23/tcp").
 */
export function pickRow(
  row: { id: string; attributes: Record<string, unknown> },
  titleField: string,
): PickedRow {
  const a = row.attributes
  const label = text(a[titleField])?.slice(0, 300)
  const hostId = text(a.host_id)
  const address = text(a.host_ip) ?? hostId
  const port =
    typeof a.port === 'number' ? `${a.port}${text(a.protocol) ? `/${text(a.protocol)}` : ''}` : null
  const host =
    hostId && address && /^[A-Za-z0-9_-]{1,64}$/.test(hostId)
      ? { id: hostId, name: (port ? `${address} port ${port}` : address).slice(0, 300) }
      : undefined
  return { id: row.id, ...(label ? { label } : {}), ...(host ? { host } : {}) }
}

/** Rows asked per page while collecting "all matching" (the catalog's most). */
const PAGE = 500

/**
 * Every row of a list matching `query` (filters, search, sort), up to `cap`, page by page: the
 * caller sees the progress after each page, and `signal` stops it between pages (and cancels the
 * page on its way). Each page's rows are taken in small chunks, yielding to the page between
 * them, so thousands of rows never hold the window up.
 */
export async function collectMatching(
  accountId: string,
  op: ListOperationId,
  query: Record<string, unknown>,
  options: {
    cap: number
    /** What the run's result shows of a row (pickRow). */
    pick: (row: { id: string; attributes: Record<string, unknown> }) => PickedRow
    onProgress: (collected: number, total: number) => void
    signal: AbortSignal
  },
): Promise<{ rows: PickedRow[]; total: number }> {
  const rows: PickedRow[] = []
  let total = 0
  for (let page = 1; rows.length < options.cap; page++) {
    if (options.signal.aborted) throw options.signal.reason
    const input = { query: { ...query, page, per_page: PAGE } } as InputOf<typeof op>
    const answer = await fetchOperation(accountId, op, input, options.signal)
    const envelope = answer.data as Collection<{ id: string; attributes: Record<string, unknown> }>
    const got = rowsOf(envelope)
    total = totalOf(envelope)
    const batch = got.slice(0, options.cap - rows.length)
    for (let i = 0; i < batch.length; i += 100) {
      for (const r of batch.slice(i, i + 100)) rows.push(options.pick(r))
      await new Promise((resolve) => setTimeout(resolve, 0))
      if (options.signal.aborted) throw options.signal.reason
    }
    options.onProgress(rows.length, Math.max(total, rows.length))
    if (got.length < PAGE) break
  }
  return { rows, total: Math.max(total, rows.length) }
}
