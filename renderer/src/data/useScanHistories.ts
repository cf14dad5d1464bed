import { useQuery } from '@pinia/colada'
import { computed, toValue, type ComputedRef, type MaybeRefOrGetter, type Ref } from 'vue'
import type { AppError } from '@contract/errors'
import { useDelayedFlag } from '@/composables/delayedFlag'
import { operationInRelease } from '@/stores/scope'
import { useAppStore } from '@/stores/app'
import { rowsOf, type RowOf } from './envelope'
import { toAppError, type OperationError } from './errors'
import { fetchOperation } from './fetchOperation'
import { operationPrefix } from './keys'

/** Runs asked per scan: the newest this many (the catalog's page of a plain list). */
export const RUNS_PER_SCAN = 100

/** Histories asked at the same time. */
const AT_ONCE = 4

/** The newest runs of one scan. */
const historyOf = (accountId: string, id: string, signal: AbortSignal) =>
  fetchOperation(
    accountId,
    'scans.history',
    { path: { id }, query: { per_page: RUNS_PER_SCAN } },
    signal,
  )

/**
 * The query of the runs of scans `ids`, a few at a time (a target or an account may have a
 * hundred scans). Made out here, not in the composable: the cache keeps the query it was last
 * asked with for 5 minutes after its last reader left, and a closure made in the composable
 * would keep that reader's component (and its DOM) alive with it.
 */
function historiesOf(accountId: string | null, ids: string[]) {
  return async ({ signal }: { signal: AbortSignal }) => {
    if (accountId === null) throw new Error('read held back')
    const answers: Awaited<ReturnType<typeof historyOf>>[] = []
    for (let i = 0; i < ids.length; i += AT_ONCE)
      answers.push(
        ...(await Promise.all(
          ids.slice(i, i + AT_ONCE).map((id) => historyOf(accountId, id, signal)),
        )),
      )
    return {
      runs: answers.flatMap((a) => rowsOf(a.data)),
      fromCache: answers.some((a) => a.fromCache),
    }
  }
}

/** What a view gets: the runs of every scan asked, with the read's state. */
export interface ScanHistories {
  runs: ComputedRef<RowOf<'scans.history'>[]>
  /** True once every asked history answered (no scans: at once). */
  ready: ComputedRef<boolean>
  /** False where the account's release lacks scans.history: nothing is asked. */
  available: ComputedRef<boolean>
  loading: ComputedRef<boolean>
  showLoading: Ref<boolean>
  error: ComputedRef<AppError | null>
  fromCache: ComputedRef<boolean>
  retry: () => Promise<void>
}

/**
 * The newest runs (`scans.history`, newest first) of each of several scans, as one read (a
 * target's scans): its key is under `scans.history`'s prefix, so a write to the scans group
 * refreshes it as it refreshes each history. One scan's failure fails the read (a trend with a
 * scan missing would mislead). No scans: no runs, nothing asked.
 */
export function useScanHistories(
  scanIds: MaybeRefOrGetter<readonly string[] | null>,
): ScanHistories {
  const app = useAppStore()
  const available = computed(() => operationInRelease('scans.history', app.account?.release))
  const query = useQuery<{ runs: RowOf<'scans.history'>[]; fromCache: boolean }, OperationError>(
    () => {
      const accountId = app.accountId
      const ids = [...new Set(toValue(scanIds) ?? [])].sort()
      return {
        key: [...operationPrefix(accountId ?? '-', 'scans.history'), { scans: ids }],
        enabled: accountId !== null && toValue(scanIds) !== null && available.value,
        query: historiesOf(accountId, ids),
      }
    },
  )
  const loading = computed(() => query.asyncStatus.value === 'loading')
  return {
    runs: computed(() => query.data.value?.runs ?? []),
    ready: computed(() => query.data.value !== undefined),
    available,
    loading,
    showLoading: useDelayedFlag(() => loading.value),
    error: computed(() => (query.error.value ? toAppError(query.error.value) : null)),
    fromCache: computed(() => query.data.value?.fromCache ?? false),
    retry: async () => {
      await query.refetch()
    },
  }
}
