import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import type { AppError } from '@contract/errors'
import { callApi, cancelRequest, newRequestId } from '@/bridge/bridge'
import { useDelayedFlag } from '@/composables/delayedFlag'
import { useAccountsStore } from './accounts'

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
 * Upcoming scans of the active account. State is kept per account id, so switching accounts never
 * shows one account's scans under another; an answer that arrives after its account stopped being
 * active, or after a newer request, is dropped.
 */
export const useUpcomingScansStore = defineStore('upcomingScans', () => {
  const accounts = useAccountsStore()
  const byAccount = ref<Record<string, UpcomingScansState>>({})
  const limit = ref<number>(10)
  const inflight = new Map<string, { key: string; requestId: string; promise: Promise<void> }>()

  const current = computed<UpcomingScansState>(() => {
    const id = accounts.activeId
    return (id && byAccount.value[id]) || EMPTY
  })
  const showLoading = useDelayedFlag(() => current.value.loading)

  function slot(accountId: string): UpcomingScansState {
    byAccount.value[accountId] ??= { ...EMPTY }
    return byAccount.value[accountId]
  }

  /** Loads the active account's upcoming scans; callers asking for the same thing share one request. */
  function load(): Promise<void> {
    const accountId = accounts.activeId
    if (!accountId) return Promise.resolve()
    const wanted = limit.value
    const key = `${accountId}|${wanted}`
    const running = inflight.get(accountId)
    if (running?.key === key) return running.promise
    if (running) cancelRequest(running.requestId)

    const requestId = newRequestId()
    slot(accountId).loading = true
    const promise = (async () => {
      const result = await callApi(
        accountId,
        'scans.upcoming',
        { query: { limit: wanted } },
        requestId,
      )
      const latest = inflight.get(accountId)?.requestId === requestId
      if (latest) inflight.delete(accountId)
      if (!latest) return // a newer request for this account owns the state
      const state = slot(accountId)
      state.loading = false
      if (accounts.activeId !== accountId) return // the user moved on: drop the answer
      if (result.ok) {
        state.rows = toRows(result.data.data)
        state.error = null
        state.fetchedAt = result.data.fetchedAt
        state.fromCache = result.data.fromCache
      } else if (result.error.code !== 'CANCELLED') {
        state.error = result.error
      }
    })()
    inflight.set(accountId, { key, requestId, promise })
    return promise
  }

  /** Changes how many scans to show and reloads. */
  function setLimit(next: number): Promise<void> {
    limit.value = next
    return load()
  }

  // Leaving an account cancels its pending request: its answer would be dropped anyway.
  watch(
    () => accounts.activeId,
    (_next, previous) => {
      if (!previous) return
      const running = inflight.get(previous)
      if (!running) return
      inflight.delete(previous)
      cancelRequest(running.requestId)
      if (byAccount.value[previous]) byAccount.value[previous].loading = false
    },
    { flush: 'sync' },
  )

  // Forget accounts that were removed.
  watch(
    () => accounts.accounts.map((a) => a.id),
    (ids) => {
      for (const id of Object.keys(byAccount.value))
        if (!ids.includes(id)) delete byAccount.value[id]
    },
  )

  return { byAccount, limit, current, showLoading, load, setLimit }
})
