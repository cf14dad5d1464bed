import { computed, watch, type ComputedRef } from 'vue'
import { findOperation } from '@contract/catalog'
import type { Release } from '@contract/releases'
import { useAppStore } from './app'

/** Work started for one account: valid while that account stays this window's account. */
export interface ScopeTicket {
  readonly accountId: string
  readonly generation: number
}

/** How an account-bound store knows its account and drops what belongs to another one. */
export interface AccountScope {
  /** This window's account (null: none). */
  readonly accountId: ComputedRef<string | null>
  /** A ticket for work starting now, or null when no account is active. */
  begin(): ScopeTicket | null
  /** True while the ticket's account is still this window's account and no switch happened since. */
  isCurrent(ticket: ScopeTicket): boolean
  /**
   * Runs `work` for this window's account. Resolves to `{ value }`, or to null when the account
   * changed (or there is none) before the work settled: the caller drops the answer.
   */
  run<T>(work: (accountId: string) => Promise<T>): Promise<{ value: T } | null>
}

/**
 * Binds a store to this window's account. `reset(next, previous)` runs synchronously on every
 * change of account, before anything renders, so nothing of the previous account stays in the
 * store; every ticket taken before the change stops being current, so an answer to a request
 * started for the previous account is dropped even if it arrives after a switch back.
 * Call inside a store's setup (its watcher lives as long as the store).
 */
export function useAccountScope(
  reset: (next: string | null, previous: string | null) => void,
): AccountScope {
  const app = useAppStore()
  const accountId = computed(() => app.accountId)
  let generation = 0

  watch(
    accountId,
    (next, previous) => {
      generation++
      reset(next, previous ?? null)
    },
    { flush: 'sync' },
  )

  function begin(): ScopeTicket | null {
    const id = accountId.value
    return id ? { accountId: id, generation } : null
  }

  function isCurrent(ticket: ScopeTicket): boolean {
    return ticket.generation === generation && ticket.accountId === accountId.value
  }

  async function run<T>(work: (accountId: string) => Promise<T>): Promise<{ value: T } | null> {
    const ticket = begin()
    if (!ticket) return null
    const value = await work(ticket.accountId)
    return isCurrent(ticket) ? { value } : null
  }

  return { accountId, begin, isCurrent, run }
}

/** True when `opId` exists in `release`; unknown ids never do, and with no release all known do. */
export function operationInRelease(opId: string, release: Release | null | undefined): boolean {
  const op = findOperation(opId)
  if (!op) return false
  return !release || op.releases.includes(release)
}

/**
 * What the active account's release offers, for views to hide what it lacks:
 * `useReleaseGuard().has('scans.start')`. Reactive: used in a template or computed, it follows
 * switches and release changes.
 */
export function useReleaseGuard(): {
  release: ComputedRef<Release | null>
  has: (opId: string) => boolean
} {
  const app = useAppStore()
  const release = computed(() => app.account?.release ?? null)
  return { release, has: (opId) => operationInRelease(opId, release.value) }
}
