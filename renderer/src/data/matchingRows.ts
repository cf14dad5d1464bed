import type { ListOperationId } from './useOperationList'
import { rowsOf, totalOf, type Collection } from './envelope'
import { fetchOperation } from './fetchOperation'
import type { InputOf } from '@contract/catalog'

/** One row picked for a bulk run: its id and what the result shows for it. */
export interface PickedRow {
  id: string
  label?: string
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
    labelOf: (attributes: Record<string, unknown>) => string | undefined
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
      for (const r of batch.slice(i, i + 100))
        rows.push({ id: r.id, label: options.labelOf(r.attributes) })
      await new Promise((resolve) => setTimeout(resolve, 0))
      if (options.signal.aborted) throw options.signal.reason
    }
    options.onProgress(rows.length, Math.max(total, rows.length))
    if (got.length < PAGE) break
  }
  return { rows, total: Math.max(total, rows.length) }
}
