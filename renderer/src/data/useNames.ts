import { useQueryCache, type EntryKey, type UseQueryEntry } from '@pinia/colada'
import {
  computed,
  effectScope,
  onScopeDispose,
  toValue,
  watch,
  type ComputedRef,
  type MaybeRefOrGetter,
} from 'vue'
import type { OperationId } from '@contract/catalog'
import { useAppStore } from '@/stores/app'
import { operationInRelease } from '@/stores/scope'
import { toAppError } from './errors'
import { fetchDynamic, type Answer } from './fetchOperation'
import { operationKey, operationPrefix, parseKey } from './keys'
import { STALE_MS } from './options'
import { askedIds, batchInput, batches, reasonOf, recordsIn, type RecordName } from './recordNames'

export type { RecordName, UnnamedReason } from './recordNames'
export { nameText, UNNAMED_WORDS } from './recordNames'

/** Where the names of one kind of record come from. */
export interface NameSource {
  /** Its list operation, which takes `ids` (docs/decisions.md, "Names instead of ids"). */
  list: OperationId
  /** Other reads whose answers hold such records (its detail read): used when already read. */
  reads?: readonly OperationId[]
  /** The attribute that names a record. */
  field: string
  /**
   * Its read of one record (`{path: {id}}`), asked for an id its batch did not return: a 404
   * there says the record is deleted (docs/decisions.md, "A reference to a deleted record").
   */
  confirm?: OperationId
}

/** A record another one refers to: its kind (the caller's key for a NameSource) and its id. */
export interface NameRef {
  kind: string
  id: string
}

const LOADING: RecordName = { state: 'loading' }
const DELETED: RecordName = { state: 'unnamed', reason: 'deleted' }
const RANK: Record<RecordName['state'], number> = { loading: 0, unnamed: 1, named: 2 }

/**
 * The names of the records a view refers to, for this window's account. Names already in the
 * query cache (a list or a detail read of that kind, or an earlier batch) cost nothing; the rest
 * are read in batches — one request per kind, ids deduplicated and sorted, at most 100 each — as
 * account-keyed reads of the kind's list with `ids`, so they are shared, cached, invalidated by
 * the writes of that group and kept offline like every other read. Nothing waits for them: a
 * name shows as loading until its batch answers.
 */
export function useNames(
  refs: MaybeRefOrGetter<readonly NameRef[]>,
  sourceOf: (kind: string) => NameSource | null,
) {
  const app = useAppStore()
  const cache = useQueryCache()
  // This view's hold on the batches it shows: held batches are active, so a write to their group
  // asks them again, and they are let go (garbage-collected later) when the view goes.
  const owner = effectScope(true)
  let held = new Set<UseQueryEntry>()

  /** The ids wanted per kind, deduplicated and sorted. */
  const wanted = computed(() => {
    const byKind = new Map<string, Set<string>>()
    for (const { kind, id } of toValue(refs)) {
      if (!id) continue
      let ids = byKind.get(kind)
      if (!ids) byKind.set(kind, (ids = new Set()))
      ids.add(id)
    }
    return new Map([...byKind].map(([kind, ids]) => [kind, [...ids].sort()]))
  })
  const wantedKey = computed(() => JSON.stringify([...wanted.value]))

  const entriesOf = (accountId: string, op: OperationId) =>
    cache.getEntries({ key: operationPrefix(accountId, op) })
  const opsOf = (source: NameSource) => [
    ...new Set([source.list, ...(source.reads ?? []), ...(source.confirm ? [source.confirm] : [])]),
  ]
  const available = (source: NameSource) => operationInRelease(source.list, app.account?.release)

  /** Everything the cache says about names of one kind, for this window's account. */
  function readNames(kind: string): Map<string, RecordName> {
    const out = new Map<string, RecordName>()
    const source = sourceOf(kind)
    const accountId = app.accountId
    if (!source || !accountId) return out
    const note = (id: string, name: RecordName) => {
      const known = out.get(id)
      if (!known || RANK[name.state] >= RANK[known.state]) out.set(id, name)
    }
    // What each batch says of the ids it asked for, until an answer names them.
    for (const entry of entriesOf(accountId, source.list)) {
      const asked = askedIds(entry.key)
      if (!asked) continue
      const { status, error } = entry.state.value
      const said: RecordName =
        status === 'success'
          ? { state: 'unnamed', reason: 'missing' }
          : status === 'error'
            ? { state: 'unnamed', reason: reasonOf(toAppError(error).code) }
            : LOADING
      for (const id of asked) note(id, said)
    }
    // Every answer holding such a record names it (a list page, a detail read, a batch).
    for (const op of opsOf(source))
      for (const entry of entriesOf(accountId, op)) {
        const answer = entry.state.value.data as Answer<unknown> | undefined
        for (const r of recordsIn(answer?.data, source.field, askedIds(entry.key)))
          note(
            r.id,
            r.name ? { state: 'named', name: r.name } : { state: 'unnamed', reason: 'blank' },
          )
      }
    return out
  }

  /** `base` with what the reads of the ids its batches answered without say: deleted on a 404. */
  function confirmedNames(kind: string, base: Map<string, RecordName>): Map<string, RecordName> {
    const source = sourceOf(kind)
    const accountId = app.accountId
    if (!source?.confirm || !accountId) return base
    const out = new Map(base)
    for (const entry of entriesOf(accountId, source.confirm)) {
      const id = confirmedId(entry.key)
      const known = id ? base.get(id) : undefined
      if (!id || known?.state !== 'unnamed' || known.reason !== 'missing') continue
      const { status, error } = entry.state.value
      if (status === 'error' && toAppError(error).code === 'NOT_FOUND') out.set(id, DELETED)
      else if (status === 'pending' && entry.asyncStatus.value === 'loading') out.set(id, LOADING)
    }
    return out
  }

  // Per kind: what the batches and answers say, and that with the confirmations' word on top.
  const perKind = new Map<
    string,
    { base: ComputedRef<Map<string, RecordName>>; names: ComputedRef<Map<string, RecordName>> }
  >()
  function kindNames(kind: string) {
    let known = perKind.get(kind)
    if (!known)
      perKind.set(
        kind,
        (known = owner.run(() => {
          const base = computed(() => readNames(kind))
          return { base, names: computed(() => confirmedNames(kind, base.value)) }
        })!),
      )
    return known
  }
  const namesOf = (kind: string) => kindNames(kind).names.value

  /** The ids of each kind a batch answered without: each is read by itself (`confirm`). */
  const missing = computed(() => {
    const byKind: [string, string[]][] = []
    for (const [kind, ids] of wanted.value) {
      const source = sourceOf(kind)
      if (!source?.confirm || !available(source)) continue
      const base = kindNames(kind).base.value
      const gone = ids.filter((id) => {
        const name = base.get(id)
        return name?.state === 'unnamed' && name.reason === 'missing'
      })
      if (gone.length) byKind.push([kind, gone])
    }
    return byKind
  })
  const missingKey = computed(() => JSON.stringify(missing.value))

  /** The name of one record (loading until its batch answers). */
  function nameOf(kind: string, id: string): RecordName {
    const source = sourceOf(kind)
    if (!source) return { state: 'unnamed', reason: 'failed' }
    const known = namesOf(kind).get(id)
    if (known) return known
    return available(source) ? LOADING : { state: 'unnamed', reason: 'release' }
  }

  /**
   * The reads of each id a batch answered without, by itself: asked once, and again only when
   * stale or refused offline while the service is back (a 404 is kept like any answer).
   */
  function confirmations(accountId: string, online: boolean): UseQueryEntry[] {
    const out: UseQueryEntry[] = []
    for (const [kind, ids] of missing.value) {
      const op = sourceOf(kind)?.confirm
      if (!op) continue
      for (const id of ids) {
        const input = { path: { id } }
        const entry = cache.ensure<Answer<unknown>>({
          key: operationKey(accountId, op, input),
          query: ({ signal }) => fetchDynamic(accountId, op, input, signal),
          staleTime: STALE_MS,
        })
        out.push(entry)
        const { status, error } = entry.state.value
        if (entry.asyncStatus.value === 'loading') continue
        const offline = status === 'error' && toAppError(error).code === 'OFFLINE'
        if (status === 'pending' || entry.stale || (offline && online))
          void cache.fetch(entry).catch(() => undefined)
      }
    }
    return out
  }

  /** Asks for the names not known yet and holds the batches this view shows. */
  function plan(): void {
    const accountId = app.accountId
    const next = new Set<UseQueryEntry>()
    const online = accountId !== null && app.connectivityOf(accountId).state === 'online'
    if (accountId)
      for (const [kind, ids] of wanted.value) {
        const source = sourceOf(kind)
        if (!source || !available(source)) continue
        const want = new Set(ids)
        const covered = new Set<string>()
        for (const op of opsOf(source))
          for (const entry of entriesOf(accountId, op)) {
            const asked = askedIds(entry.key)
            const { status, error, data } = entry.state.value
            const live = entry.asyncStatus.value === 'loading' || !entry.stale
            // An answer refused offline is asked again once the service is back.
            const retry = status === 'error' && online && toAppError(error).code === 'OFFLINE'
            if (asked && [...asked].some((id) => want.has(id))) next.add(entry)
            if (!live || retry) continue
            if (asked) for (const id of asked) covered.add(id)
            else
              for (const r of recordsIn(
                (data as Answer<unknown> | undefined)?.data,
                source.field,
                null,
              ))
                covered.add(r.id)
          }
        for (const chunk of batches(ids.filter((id) => !covered.has(id)))) {
          const input = batchInput(chunk)
          const entry = cache.ensure<Answer<unknown>>({
            key: operationKey(accountId, source.list, input),
            query: ({ signal }) => fetchNamed(accountId, source.list, input, signal),
            staleTime: STALE_MS,
          })
          next.add(entry)
          void cache.refresh(entry).catch(() => undefined)
        }
      }
    if (accountId) for (const entry of confirmations(accountId, online)) next.add(entry)
    for (const entry of held) if (!next.has(entry)) cache.untrack(entry, owner)
    for (const entry of next) if (!held.has(entry)) cache.track(entry, owner)
    held = next
  }

  watch(
    () =>
      [
        app.accountId,
        wantedKey.value,
        missingKey.value,
        app.accountId ? app.connectivityOf(app.accountId).state : null,
      ] as const,
    plan,
    { immediate: true },
  )
  onScopeDispose(() => {
    for (const entry of held) cache.untrack(entry, owner)
    held = new Set()
    owner.stop()
  })

  return { nameOf }
}

/** The id a `confirm` read asked for (its path's `id`), or null for any other read. */
function confirmedId(key: EntryKey): string | null {
  const id = (parseKey(key)?.input as { path?: { id?: unknown } } | undefined)?.path?.id
  return typeof id === 'string' && id ? id : null
}

/**
 * One batch read: the kind's list narrowed to `ids`. Only the rows whose ids were asked for are
 * kept (a service that ignores `ids` answers its first page instead).
 */
async function fetchNamed(
  accountId: string,
  op: OperationId,
  input: ReturnType<typeof batchInput>,
  signal: AbortSignal,
): Promise<Answer<unknown>> {
  const answer = await fetchDynamic(accountId, op, input, signal)
  const asked = new Set(input.query.ids.split(','))
  const body = answer.data as { data?: unknown } | null
  const rows = Array.isArray(body?.data)
    ? body.data.filter((r) => asked.has((r as { id?: unknown } | null)?.id as string))
    : []
  return { ...answer, data: { ...body, data: rows } }
}
