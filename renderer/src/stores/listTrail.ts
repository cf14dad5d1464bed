import { defineStore } from 'pinia'
import { shallowRef } from 'vue'
import type { OperationId } from '@contract/catalog'
import { rowsOf } from '@/data/envelope'
import { fetchDynamic } from '@/data/fetchOperation'

/** The list a record was opened from: enough to find its neighbours, across pages too. */
export interface ListTrail {
  accountId: string
  resourceKey: string
  op: OperationId
  /** The list's request besides its page (filters, search, sort, page size, a nested path). */
  query: Record<string, unknown>
  path?: Record<string, string>
  page: number
  perPage: number
  total: number
  /** The ids of the page's rows, in order. */
  ids: readonly string[]
}

/** Where `n`/`p` go from a record: another record, or nowhere with the reason. */
export type Neighbour = { id: string } | { none: string }

const idsOf = (answer: unknown): string[] =>
  rowsOf(answer as { data: unknown[] }).flatMap((r) =>
    r && typeof r === 'object' && typeof (r as { id?: unknown }).id === 'string'
      ? [(r as { id: string }).id]
      : [],
  )

/**
 * The list each record page was opened from (the last opened from a list, per account), so a
 * record's page can open the next or previous record of that list (`n`/`p`), reading the list's
 * next or previous page when the record is at an edge of its own.
 */
export const useListTrailStore = defineStore('listTrail', () => {
  const trail = shallowRef<ListTrail | null>(null)

  function remember(next: ListTrail): void {
    trail.value = { ...next, ids: [...next.ids] }
  }

  /** The trail a record of this resource and account was opened from, if it was. */
  function trailOf(accountId: string | null, resourceKey: string, id: string): ListTrail | null {
    const t = trail.value
    if (!t || t.accountId !== accountId || t.resourceKey !== resourceKey) return null
    return t.ids.includes(id) ? t : null
  }

  /** The record `step` (1 or -1) from `id` in the list it was opened from. */
  async function neighbour(
    accountId: string | null,
    resourceKey: string,
    id: string,
    step: 1 | -1,
  ): Promise<Neighbour> {
    const t = trailOf(accountId, resourceKey, id)
    if (!t) return { none: 'This record was not opened from a list.' }
    const at = t.ids.indexOf(id) + step
    if (at >= 0 && at < t.ids.length) return { id: t.ids[at] }
    const page = t.page + step
    const last = Math.max(1, Math.ceil(t.total / t.perPage))
    if (page < 1) return { none: 'This is the first record of the list.' }
    if (page > last) return { none: 'This is the last record of the list.' }
    const answer = await fetchDynamic(t.accountId, t.op, {
      ...(t.path ? { path: t.path } : {}),
      query: { ...t.query, page, per_page: t.perPage },
    })
    const ids = idsOf(answer.data)
    if (!ids.length) return { none: 'The list has no more records.' }
    trail.value = { ...t, page, ids }
    return { id: step === 1 ? ids[0] : ids[ids.length - 1] }
  }

  return { trail, remember, trailOf, neighbour }
})
