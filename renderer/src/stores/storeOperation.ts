import { useQueryCache, type QueryCache, type UseQueryEntry } from '@pinia/colada'
import { getActivePinia, piniaSymbol } from 'pinia'
import {
  computed,
  createApp,
  getCurrentScope,
  hasInjectionContext,
  onScopeDispose,
  ref,
  toValue,
  watch,
  type MaybeRefOrGetter,
} from 'vue'
import type { InputOf, OperationId, OutputOf } from '@contract/catalog'
import { useDelayedFlag } from '@/utils/delayedFlag'
import { toAppError, type OperationError } from '@/data/errors'
import { fetchOperation, type Answer } from '@/data/fetchOperation'
import { operationKey, parseKey } from '@/data/keys'
import { DATA_OPTIONS } from '@/data/options'
import type { OperationState } from '@/data/useOperation'
import { useAppStore } from './app'
import { operationInRelease } from './scope'

/** Options of a store's read. */
export interface StoreOperationOptions {
  /** False (or a getter returning false) asks nothing: no load, no refresh (data already read stays). */
  enabled?: MaybeRefOrGetter<boolean>
  /** While a new input loads, show the same account's previous answer (a changed limit). */
  keepPrevious?: boolean
}

/** A store's read: `useOperation`'s state plus what a store does with it. */
export interface StoreOperation<T> extends Pick<
  OperationState<T>,
  'data' | 'loading' | 'showLoading' | 'error' | 'fromCache' | 'fetchedAt'
> {
  /**
   * Asks for this window's account; callers share a request in flight. `force: false` asks only
   * when there is no fresh answer. Resolves once settled (a failure is `error`, never a throw).
   */
  load: (force?: boolean) => Promise<void>
  /** Puts `data` in the cache as this account's fresh answer (a write answered it) and drops a read in flight. */
  set: (data: T) => void
  /**
   * Called in a component's setup: while it lives the read is watched like a view's
   * `useOperation` — asked when stale, asked again for another account or input and when a write
   * invalidates its group, its superseded requests cancelled.
   */
  follow: () => void
}

interface Target<I> {
  accountId: string
  input: I
  key: ReturnType<typeof operationKey>
  hash: string
}

type Entry<T> = UseQueryEntry<Answer<T>, OperationError>

/**
 * The query cache. A store made from a bare Pinia (unit tests; the app always has one) has no
 * app to inject the cache's defaults from: the cache is then made in a detached app's context.
 * Entries this file makes carry the data layer's options in full either way.
 */
function queryCache(): QueryCache {
  if (hasInjectionContext()) return useQueryCache()
  const context = createApp({})
  const pinia = getActivePinia()
  if (pinia) context.provide(piniaSymbol, pinia)
  return context.runWithContext(() => useQueryCache())
}

/**
 * `useOperation` for a setup store: the same query keys (`['op', accountId, group, opId, input]`, the
 * account from `useAppStore().accountId`), the same fetcher (an aborted read is cancelled in
 * main) and the same state, so a store and the views share one cache entry. `useOperation` itself
 * cannot run in a store: Pinia Colada's `useQuery` binds to the component instance current when
 * the store is first made and needs the app's injection context.
 *
 * The store's state reads the current account's entry, so another account's data never shows and
 * a late answer lands in its own account's entry. The read is watched (refreshed, invalidated,
 * cancelled when superseded) only while a component `follow`s it; `load` asks at any time, and a
 * request nobody waits for any more is cancelled when the account or input changes.
 */
export function useStoreOperation<Id extends OperationId>(
  op: Id,
  input: MaybeRefOrGetter<InputOf<Id>>,
  options: StoreOperationOptions = {},
): StoreOperation<OutputOf<Id>> {
  type T = OutputOf<Id>
  const scope = getCurrentScope()
  if (!scope) throw new Error('useStoreOperation runs in a setup store')
  const app = useAppStore()
  const cache = queryCache()
  const followers = ref(0)
  const enabled = computed(() => toValue(options.enabled ?? true))

  const target = computed<Target<InputOf<Id>> | null>(() => {
    const accountId = app.accountId
    if (accountId === null || !operationInRelease(op, app.account?.release)) return null
    const value = toValue(input)
    const key = operationKey(accountId, op, value)
    return { accountId, input: value, key, hash: JSON.stringify(key) }
  })

  let last: Entry<T> | undefined
  function ensure(t: Target<InputOf<Id>>): Entry<T> {
    last = cache.ensure<Answer<T>, OperationError>(
      {
        ...DATA_OPTIONS.queryOptions,
        key: t.key,
        enabled: true,
        query: ({ signal }) => fetchOperation(t.accountId, op, t.input, signal),
        // Only ever the same account's previous answer: another account's data never shows.
        placeholderData: (previous, entry) =>
          options.keepPrevious && entry && parseKey(entry.key)?.accountId === t.accountId
            ? previous
            : undefined,
      },
      last,
    )
    return last
  }

  /** Cancels `entry`'s request in main when nothing watches it any more. */
  function dropIfUnwatched(entry: Entry<T> | undefined): void {
    if (entry?.pending && entry.deps.size === 0) cache.cancel(entry)
  }

  let watched: Entry<T> | null = null
  let previous: Target<InputOf<Id>> | null = null
  watch(
    [() => target.value?.hash ?? null, () => followers.value > 0 && enabled.value],
    ([, on]) => {
      const t = target.value
      const next = t && on ? ensure(t) : null
      if (next && next !== watched) cache.track(next, scope)
      if (watched && watched !== next) {
        cache.untrack(watched, scope)
        dropIfUnwatched(watched)
      }
      watched = next
      if (next) cache.refresh(next).catch(() => undefined)
      // Not followed: a load for the previous account or input is not waited for any more, and a
      // disabled read asks nothing.
      if (previous && previous.hash !== t?.hash) dropIfUnwatched(cache.get(previous.key))
      if (t && !enabled.value) dropIfUnwatched(cache.get(t.key))
      previous = t
    },
    { flush: 'sync', immediate: true },
  )

  const entry = computed(() => {
    const t = target.value
    return t ? cache.get<Answer<T>, OperationError>(t.key) : undefined
  })
  const answer = computed(() => {
    const e = entry.value
    if (!e) return undefined
    const state = e.state.value
    return state.status === 'pending' && e.placeholderData != null ? e.placeholderData : state.data
  })
  const loading = computed(() => entry.value?.asyncStatus.value === 'loading')

  async function load(force = true): Promise<void> {
    const t = target.value
    if (!t || !enabled.value) return
    const e = ensure(t)
    const call = force ? (e.pending?.refreshCall ?? cache.fetch(e)) : cache.refresh(e)
    await call.catch(() => undefined)
  }

  function set(data: T): void {
    const t = target.value
    if (!t) return
    const e = cache.get<Answer<T>, OperationError>(t.key)
    if (e?.pending) cache.cancel(e)
    cache.setQueryData<Answer<T>>(t.key, {
      data,
      fetchedAt: new Date().toISOString(),
      fromCache: false,
    })
  }

  function follow(): void {
    if (!getCurrentScope()) return
    followers.value++
    onScopeDispose(() => followers.value--)
  }

  return {
    data: computed(() => answer.value?.data),
    loading,
    showLoading: useDelayedFlag(() => loading.value),
    error: computed(() => {
      const error = entry.value?.state.value.error
      return error ? toAppError(error) : null
    }),
    fromCache: computed(() => answer.value?.fromCache ?? false),
    fetchedAt: computed(() => answer.value?.fetchedAt ?? null),
    load,
    set,
    follow,
  }
}
