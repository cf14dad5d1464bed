import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { AppError } from '@contract/errors'
import { callApi, cancelRequest, newRequestId } from '@/bridge/bridge'
import { useDelayedFlag } from '@/composables/delayedFlag'
import { useAccountScope } from './scope'

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

const EMPTY: UpcomingScansState = Object.freeze({
  rows: null,
  error: null,
  loading: false,
  fetchedAt: null,
  fromCache: false,
}) as UpcomingScansState

function toRows(answer: { data: readonly unknown[] }): UpcomingScanRow[] {
  return answer.data.map((item) => {
    const { id, attributes: a } = item as {
      id: string
      attributes: {
        name: string
        description: string
        next_scheduled_at: string
        in_timezone: string
      }
    }
    return {
      id,
      name: a.name,
      description: a.description,
      nextScheduledAt: a.next_scheduled_at,
      timezone: a.in_timezone,
    }
  })
}

/**
 * Upcoming scans of this window's account. Switching accounts resets the state at once (nothing
 * of the previous account stays) and cancels its request; an answer started for an account that
 * is no longer this window's, or superseded by a newer request, is dropped.
 */
export const useUpcomingScansStore = defineStore('upcomingScans', () => {
  const state = ref<UpcomingScansState>({ ...EMPTY })
  const limit = ref<number>(10)
  let inflight: { key: string; requestId: string; promise: Promise<void> } | null = null

  const scope = useAccountScope(() => {
    if (inflight) cancelRequest(inflight.requestId)
    inflight = null
    state.value = { ...EMPTY }
  })

  const current = computed<UpcomingScansState>(() => state.value)
  const showLoading = useDelayedFlag(() => state.value.loading)

  /** Loads the account's upcoming scans; callers asking for the same thing share one request. */
  function load(): Promise<void> {
    const ticket = scope.begin()
    if (!ticket) return Promise.resolve()
    const wanted = limit.value
    const key = `${ticket.accountId}|${wanted}`
    if (inflight?.key === key) return inflight.promise
    if (inflight) cancelRequest(inflight.requestId)

    const requestId = newRequestId()
    state.value.loading = true
    const promise = (async () => {
      const result = await callApi(
        ticket.accountId,
        'scans.upcoming',
        { query: { limit: wanted } },
        requestId,
      )
      if (!scope.isCurrent(ticket)) return // the window moved to another account: drop it
      if (inflight?.requestId !== requestId) return // a newer request owns the state
      inflight = null
      const s = state.value
      s.loading = false
      if (result.ok) {
        s.rows = toRows(result.data.data)
        s.error = null
        s.fetchedAt = result.data.fetchedAt
        s.fromCache = result.data.fromCache
      } else if (result.error.code !== 'CANCELLED') {
        s.error = result.error
      }
    })()
    inflight = { key, requestId, promise }
    return promise
  }

  /** Changes how many scans to show and reloads. */
  function setLimit(next: number): Promise<void> {
    limit.value = next
    return load()
  }

  return { limit, current, showLoading, load, setLimit }
})
