import { useQuery, useQueryCache } from '@pinia/colada'
import {
  computed,
  getCurrentInstance,
  onUnmounted,
  toValue,
  type ComputedRef,
  type MaybeRefOrGetter,
  type Ref,
} from 'vue'
import type { AppError } from '@contract/errors'
import { useDelayedFlag } from '@/utils/delayedFlag'
import { operationInRelease } from '@/stores/scope'
import { useAppStore } from '@/stores/app'
import { rowsOf, type RowOf } from './envelope'
import { backgroundReads } from './backgroundReads'
import { toAppError, type OperationError } from './errors'
import { fetchOperation } from './fetchOperation'
import { operationPrefix } from './keys'

/** Runs asked per scan: the newest this many (the catalog's page of a plain list). */
export const RUNS_PER_SCAN = 100

/** The newest runs of one scan. */
const historyOf = (accountId: string, id: string, signal: AbortSignal) =>
  fetchOperation(
    accountId,
    'scans.history',
    { path: { id }, query: { per_page: RUNS_PER_SCAN } },
    signal,
  )

/**
 * The query of the runs of scans `ids`, as the window's background reads allow (at most two
 * at once with the other background reads, data/backgroundReads.ts: a target or an account may
 * have a hundred scans, and the connections are the screen's first). The first failure stops
 * the rest: those waiting are never asked, those on their way are cancelled. Made out here, not
 * in the composable: the cache keeps the query it was last asked with for 5 minutes after its
 * last reader left, and a closure made in the composable would keep that reader's component
 * (and its DOM) alive with it.
 */
function historiesOf(accountId: string | null, ids: string[]) {
  return async ({ signal }: { signal: AbortSignal }) => {
    if (accountId === null) throw new Error('read held back')
    const rest = new AbortController()
    const stop = () => rest.abort(signal.reason)
    signal.addEventListener('abort', stop, { once: true })
    try {
      const answers = await Promise.all(
        ids.map((id) =>
          backgroundReads
            .run(() => historyOf(accountId, id, rest.signal), rest.signal)
            .catch((err: unknown) => {
              rest.abort(err)
              throw err
            }),
        ),
      )
      return {
        runs: answers.flatMap((a) => rowsOf(a.data)),
        fromCache: answers.some((a) => a.fromCache),
      }
    } finally {
      signal.removeEventListener('abort', stop)
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
  const cache = useQueryCache()
  const idsAsked = () => [...new Set(toValue(scanIds) ?? [])].sort()
  const keyOf = (accountId: string | null, ids: string[]) => [
    ...operationPrefix(accountId ?? '-', 'scans.history'),
    { scans: ids },
  ]
  const query = useQuery<{ runs: RowOf<'scans.history'>[]; fromCache: boolean }, OperationError>(
    () => {
      const accountId = app.accountId
      const ids = idsAsked()
      return {
        key: keyOf(accountId, ids),
        enabled: accountId !== null && toValue(scanIds) !== null && available.value,
        query: historiesOf(accountId, ids),
      }
    },
  )
  // Left while its histories are read (the user went on from the dashboard): the read stops,
  // a refresh of an answer on screen as well (the cache stops only a first load itself), so
  // no history of it is asked any more; the next visit asks again. After the cache's own
  // unmount hook, which lets go of the entry.
  if (getCurrentInstance())
    onUnmounted(() => {
      const entry = cache.get(keyOf(app.accountId, idsAsked()))
      if (entry?.pending && entry.deps.size === 0) cache.cancel(entry)
    })

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
