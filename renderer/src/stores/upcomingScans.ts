import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { AppError } from '@contract/errors'
import { rowsOf, type RowOf } from '@/data/envelope'
import { useStoreOperation } from './storeOperation'

/** One row of the Upcoming scans panel (view model; the wire item is catalog/scans.ts). */
export interface UpcomingScanRow {
  id: string
  name: string
  description: string
  nextScheduledAt: string
  timezone: string
}

/** What the panel shows for one account. */
export interface UpcomingScansState {
  rows: UpcomingScanRow[] | null
  error: AppError | null
  loading: boolean
  fetchedAt: string | null
  fromCache: boolean
}

/** Choices of the panel's limit select. */
export const UPCOMING_LIMITS = [5, 10, 25, 50] as const

function toRows(rows: RowOf<'scans.upcoming'>[]): UpcomingScanRow[] {
  return rows.map(({ id, attributes: a }) => ({
    id,
    name: a.name,
    description: a.description,
    nextScheduledAt: a.next_scheduled_at,
    timezone: a.in_timezone,
  }))
}

/**
 * Upcoming scans of this window's account, read through the data layer (scans.upcoming with the
 * chosen limit). After a switch nothing of the previous account shows and its request is
 * cancelled; a late answer lands in its own account's entry. While another limit loads, the
 * account's previous rows stay.
 */
export const useUpcomingScansStore = defineStore('upcomingScans', () => {
  const limit = ref<number>(10)
  const read = useStoreOperation('scans.upcoming', () => ({ query: { limit: limit.value } }), {
    keepPrevious: true,
  })

  const current = computed<UpcomingScansState>(() => ({
    rows: read.data.value ? toRows(rowsOf(read.data.value)) : null,
    error: read.error.value,
    loading: read.loading.value,
    fetchedAt: read.fetchedAt.value,
    fromCache: read.fromCache.value,
  }))

  /** Asks for the account's upcoming scans again; concurrent callers share one request. */
  function load(): Promise<void> {
    return read.load()
  }

  /** Changes how many scans to show and loads them (unless fresh). */
  function setLimit(next: number): Promise<void> {
    limit.value = next
    return read.load(false)
  }

  return { limit, current, showLoading: read.showLoading, load, setLimit, follow: read.follow }
})
