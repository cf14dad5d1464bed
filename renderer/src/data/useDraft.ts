import { ref, watch, type Ref } from 'vue'
import type { z } from 'zod'
import type { ChannelInput } from '@contract/channels'
import type { DraftKind } from '@contract/drafts'
import type { AppError } from '@contract/errors'
import { KEPT_IN_MEMORY, type Kept } from '@contract/kept'
import { request } from '@/bridge/bridge'
import { useAppStore } from '@/stores/app'

/** What useDraft returns. */
export interface Draft<T> {
  /** The stored draft of this window's account (null when there is none, or not loaded yet). */
  value: Ref<T | null>
  /** True once the account's draft was asked for. */
  loaded: Ref<boolean>
  /** When the last save landed. */
  savedAt: Ref<string | null>
  /**
   * Where main keeps the draft: on disk (sealed), or in memory until ScanDesk closes (no
   * keychain); null before the first save or load of a draft.
   */
  kept: Ref<Kept | null>
  /** True from a save's call until the newest value has landed (or failed). */
  saving: Ref<boolean>
  /** A save or load that failed (the work is still on screen; the next save tries again). */
  error: Ref<AppError | null>
  /** Stores `next` now (a save in flight is followed by the newest value only). */
  save(next: T): Promise<void>
  /** Forgets the draft (after the work was submitted, or discarded by the user). */
  clear(): Promise<void>
}

/**
 * Work in progress kept on this computer per account (SQLite in main, one transaction a save):
 * it survives a crash, a restart and going offline — or, where the account has no key (no
 * keychain), in main's memory until ScanDesk closes (`kept` says which; a reload keeps it). Every change is saved at once; while one
 * save is on its way only the newest next value waits, so fast typing costs one write at a time.
 * A stored draft that `schema` no longer accepts (an older version's) is not offered.
 */
export function useDraft<T>(kind: DraftKind, schema: z.ZodType<T>, key = ''): Draft<T> {
  const app = useAppStore()
  const value = ref<T | null>(null) as Ref<T | null>
  const loaded = ref(false)
  const savedAt = ref<string | null>(null)
  const kept = ref<Kept | null>(null)
  const error = ref<AppError | null>(null)
  const saving = ref(false)
  let owner: string | null = null
  let inFlight: Promise<void> | null = null
  let waiting: { accountId: string; data: T } | null = null

  async function load(accountId: string | null): Promise<void> {
    owner = accountId
    value.value = null
    savedAt.value = null
    kept.value = null
    loaded.value = false
    waiting = null
    if (!accountId) return
    const result = await request('drafts.get', { accountId, kind, key })
    if (owner !== accountId) return // the window moved on
    loaded.value = true
    if (!result.ok) {
      error.value = result.error
      return
    }
    error.value = null
    const parsed = result.data ? schema.safeParse(result.data.data) : null
    if (parsed?.success) {
      value.value = parsed.data
      savedAt.value = result.data?.savedAt ?? null
      kept.value = result.data?.kept ?? null
    }
  }

  watch(() => app.accountId, load, { immediate: true })

  async function drain(): Promise<void> {
    try {
      await saveWaiting()
    } finally {
      // In the same turn as the last check: a save after this starts a new round.
      inFlight = null
      saving.value = false
    }
  }

  async function saveWaiting(): Promise<void> {
    while (waiting) {
      const { accountId, data } = waiting
      waiting = null
      const result = await request('drafts.save', {
        accountId,
        kind,
        key,
        data: data as ChannelInput<'drafts.save'>['data'],
      })
      if (owner !== accountId) continue
      if (result.ok) {
        savedAt.value = result.data.savedAt
        kept.value = result.data.kept
        error.value = null
      } else error.value = result.error
    }
  }

  function save(next: T): Promise<void> {
    if (!owner) return Promise.resolve()
    value.value = next
    waiting = { accountId: owner, data: next }
    saving.value = true
    inFlight ??= drain()
    return inFlight
  }

  async function clear(): Promise<void> {
    waiting = null
    await inFlight
    value.value = null
    savedAt.value = null
    kept.value = null
    if (!owner) return
    const result = await request('drafts.delete', { accountId: owner, kind, key })
    if (!result.ok) error.value = result.error
  }

  return { value, loaded, savedAt, kept, saving, error, save, clear }
}

/**
 * The line a screen shows once its draft is saved: "<what> on this computer at <time>", or, for a
 * draft main holds in memory, "<what> at <time>, kept until ScanDesk closes: no keychain".
 */
export function savedLine(what: string, kept: Kept | null, time: string): string {
  return kept === 'memory'
    ? `${what} at ${time}, ${KEPT_IN_MEMORY}`
    : `${what} on this computer at ${time}`
}
