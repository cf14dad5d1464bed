import { useQuery, useQueryCache, type DefineQueryOptions } from '@pinia/colada'
import {
  computed,
  getCurrentInstance,
  ref,
  toValue,
  watch,
  type ComputedRef,
  type MaybeRefOrGetter,
  type Ref,
} from 'vue'
import type { InputOf, OperationId, OutputOf } from '@contract/catalog'
import type { AppError } from '@contract/errors'
import { useDelayedFlag } from '@/utils/delayedFlag'
import { operationInRelease } from '@/stores/scope'
import { useAppStore } from '@/stores/app'
import { backgroundReads } from './backgroundReads'
import { toAppError, type OperationError } from './errors'
import { fetchDynamic, fetchOperation, type Answer } from './fetchOperation'
import { operationKey, parseKey } from './keys'
import type { DynamicInput } from './useOperationCall'

/** Options of a read. */
export interface OperationOptions {
  /** False (or a getter returning false) holds the read back. */
  enabled?: MaybeRefOrGetter<boolean>
  /** Keep showing the previous answer of the same account while the next one loads (paging). */
  keepPrevious?: boolean
  /** How long an answer counts as fresh, in ms (default: the app's). */
  staleTime?: number
  /**
   * A read of a panel below the first screen: it waits its turn in the window's background
   * reads (data/backgroundReads.ts, 2 at once), so the first screen's reads and the next
   * screen's find free connections.
   */
  background?: boolean
}

/** What a view gets from a read. */
export interface OperationState<T> {
  /** The parsed answer, or undefined before the first one. */
  data: ComputedRef<T | undefined>
  /** True while a request runs. */
  loading: ComputedRef<boolean>
  /** Like `loading`, but only once a request has run for 100 ms (no flicker on fast answers). */
  showLoading: Ref<boolean>
  /** The user-readable error of the last attempt, or null. */
  error: ComputedRef<AppError | null>
  /** The answer came from the local cache (offline), not the service. */
  fromCache: ComputedRef<boolean>
  /** When the answer was fetched (ISO time), or null. */
  fetchedAt: ComputedRef<string | null>
  /** What main said about parts of the answer it read tolerantly (usually none). */
  warnings: ComputedRef<string[]>
  /** False when the account's release lacks the operation: nothing is asked. */
  available: ComputedRef<boolean>
  /** Asks again whatever the freshness (the error's "Retry"). */
  retry: () => Promise<void>
  /** Asks again only when the answer is stale. */
  refresh: () => Promise<void>
}

type Fetcher<I, T> = (accountId: string, input: I, signal: AbortSignal) => Promise<Answer<T>>

/**
 * One account-scoped read of a catalog operation. The query key carries this window's account,
 * the operation and its input, so equal reads share one request, a late answer for another
 * account lands in that account's entry (never on screen), and a read whose input changed while
 * in flight is cancelled in main. `input` null holds the read back (e.g. no id yet).
 */
export function useOperation<Id extends OperationId>(
  op: Id,
  input: MaybeRefOrGetter<InputOf<Id> | null> = {},
  options: OperationOptions = {},
): OperationState<OutputOf<Id>> {
  return useRead(
    op,
    input,
    (accountId, i, signal) => fetchOperation(accountId, op, i, signal),
    options,
  )
}

/**
 * The same read for an operation chosen at run time (the registry's detail pages and panels);
 * main checks the input and the answer against the catalog, the view checks the answer's shape.
 */
export function useDynamicOperation(
  op: OperationId,
  input: MaybeRefOrGetter<DynamicInput | null>,
  options: OperationOptions = {},
): OperationState<unknown> {
  return useRead(
    op,
    input,
    (accountId, i, signal) => fetchDynamic(accountId, op, i, signal),
    options,
  )
}

/**
 * The cache's options of one read. Made here, outside the component's read: the cache keeps the
 * last options of an entry (its `query` and `placeholderData`) until the entry is collected, 5
 * minutes after its last user left, and a closure made in `useRead` would keep that user's whole
 * component (and its DOM) alive with them. These close over the read's input and nothing else.
 */
function readOptions<I, T>(
  accountId: string | null,
  op: OperationId,
  value: I | null,
  fetcher: Fetcher<I, T>,
  settings: {
    enabled: boolean
    keepPrevious: boolean
    staleTime: number | undefined
    background: boolean
  },
): DefineQueryOptions<Answer<T>, OperationError> {
  const { keepPrevious, staleTime, background } = settings
  return {
    key: operationKey(accountId ?? '-', op, value ?? {}),
    enabled: settings.enabled,
    ...(staleTime !== undefined ? { staleTime } : {}),
    query: ({ signal }) => {
      if (accountId === null || value === null) throw new Error('read held back')
      if (background) return backgroundReads.run(() => fetcher(accountId, value, signal), signal)
      return fetcher(accountId, value, signal)
    },
    // Only ever the same account's previous answer: another account's data never shows here.
    placeholderData: (previous, entry) =>
      keepPrevious && entry && parseKey(entry.key)?.accountId === accountId ? previous : undefined,
  }
}

/**
 * Starts the read `useOperation(op, input)` makes for `accountId` before anything uses it (the
 * router, while a screen's code loads): the same entry of the cache with the same request, so the
 * screen's own ask finds it on its way (or fresh) and sends nothing more. Nothing is sent when
 * the entry is fresh or already on its way. Resolves once the entry is answered (or failed).
 */
export function startOperationRead<Id extends OperationId>(
  cache: ReturnType<typeof useQueryCache>,
  accountId: string,
  op: Id,
  input: InputOf<Id>,
): Promise<void> {
  const entry = cache.ensure(
    readOptions(accountId, op, input, (a, i, signal) => fetchOperation(a, op, i, signal), {
      enabled: true,
      keepPrevious: false,
      staleTime: undefined,
      background: false,
    }),
  )
  // Its failure is the screen's to show (its ask finds the entry's error and asks again).
  return cache.refresh(entry).then(
    () => undefined,
    () => undefined,
  )
}

function useRead<I, T>(
  op: OperationId,
  input: MaybeRefOrGetter<I | null>,
  fetcher: Fetcher<I, T>,
  options: OperationOptions,
): OperationState<T> {
  const app = useAppStore()
  const cache = useQueryCache()
  const available = computed(() => operationInRelease(op, app.account?.release))

  /** Whether the read may be asked now (an account, an input, the operation in its release). */
  const canRead = (accountId: string | null, value: I | null) =>
    accountId !== null && value !== null && available.value && toValue(options.enabled ?? true)

  const query = useQuery<Answer<T>, OperationError>(() => {
    const value = toValue(input)
    return readOptions(app.accountId, op, value, fetcher, {
      enabled: canRead(app.accountId, value),
      keepPrevious: options.keepPrevious ?? false,
      staleTime: options.staleTime,
      background: options.background ?? false,
    })
  })

  // Inside a component the cache asks only once the component has mounted: the whole screen
  // (toolbar, filters, an empty table) would be built before its rows were even asked for. Ask
  // as it is set up instead, so the request overlaps the mounting; the mount's own ask then finds
  // it pending (refresh asks only for what is neither fresh nor on its way).
  if (getCurrentInstance() && canRead(app.accountId, toValue(input))) void query.refresh()

  // A read nobody waits for any more is cancelled (the cache aborts only first loads itself).
  watch(
    () => JSON.stringify(operationKey(app.accountId ?? '-', op, toValue(input) ?? {})),
    (_next, previous) => {
      const entry = cache.get(JSON.parse(previous))
      if (entry?.pending && entry.deps.size === 0) cache.cancel(entry)
    },
  )

  // Loading ends with the answer: the cache sets an answer and, a microtask later, its "idle", and
  // Vue drew between the two, so a list was drawn twice (its new rows under the loading mask,
  // then again without it; 5-60 ms on the large seed). This watcher runs as the change is made:
  // a read of one entry that has loading on is answered once that entry's state is replaced by
  // one that is not pending (another entry's, or the state the read started from, is not it).
  const answered = ref(false)
  let loadingFrom: { key: string; state: unknown } | null = null
  watch(
    () =>
      [
        query.asyncStatus.value,
        query.state.value,
        JSON.stringify(operationKey(app.accountId ?? '-', op, toValue(input) ?? {})),
      ] as const,
    ([status, state, key]) => {
      if (status !== 'loading') loadingFrom = null
      else if (!loadingFrom || loadingFrom.key !== key) {
        loadingFrom = { key, state }
        answered.value = false
      } else if (state !== loadingFrom.state && state.status !== 'pending') answered.value = true
    },
    { flush: 'sync', immediate: true },
  )
  const loading = computed(() => query.asyncStatus.value === 'loading' && !answered.value)
  const answer = computed(() => query.data.value)
  return {
    data: computed(() => answer.value?.data),
    loading,
    showLoading: useDelayedFlag(() => loading.value),
    error: computed(() => (query.error.value ? toAppError(query.error.value) : null)),
    fromCache: computed(() => answer.value?.fromCache ?? false),
    fetchedAt: computed(() => answer.value?.fetchedAt ?? null),
    warnings: computed(() => answer.value?.warnings ?? []),
    available,
    retry: async () => {
      await query.refetch()
    },
    refresh: async () => {
      await query.refresh()
    },
  }
}
