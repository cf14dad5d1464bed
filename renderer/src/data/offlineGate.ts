import { computed } from 'vue'
import { findOperation } from '@contract/catalog'
import type { ConnectivityState } from '@contract/offline'
import { useAppStore } from '@/stores/app'

/**
 * Why the service cannot take a request in a connectivity state; states not listed may reach it
 * (online, checking) or have their own way back (signed out: the sign-in prompt).
 */
const OUT_OF_REACH: Partial<Record<ConnectivityState, string>> = {
  'work-offline': 'This needs the service, and “Work offline” is on (top bar).',
  offline: 'This needs the service, and this computer has no network.',
  unreachable:
    'This needs the service, which cannot be reached now; ScanDesk checks again by itself (or use “Check now” in the top bar).',
}

/**
 * Why operation `op` cannot be asked for in connectivity state `state`, or null when it can:
 * only the catalog's online-only operations wait for the service. Queued writes (marking
 * notifications read) go to the outbox and cached reads come from the copy, so they never wait.
 */
export function offlineReason(op: string | null | undefined, state: ConnectivityState | null) {
  if (!op || !state) return null
  const def = findOperation(op)
  if (!def || def.offline !== 'online-only') return null
  return OUT_OF_REACH[state] ?? null
}

/**
 * The window's account seen from its connection: which actions must wait for the service
 * (`blocked(op)` gives the reason to show beside a disabled control), and whether a failed read
 * may be tried again (not while "Work offline" is on: no request would leave).
 */
export function useOfflineGate() {
  const app = useAppStore()
  const state = computed(() => (app.accountId ? app.connectivityOf(app.accountId).state : null))
  /** Why `op` cannot be sent now, or null. Reactive inside a template or computed. */
  const blocked = (op: string | null | undefined): string | null => offlineReason(op, state.value)
  /** The first reason among several operations that one action runs (a quick scan's three). */
  const blockedAny = (ops: readonly string[]): string | null =>
    ops.map(blocked).find((r) => r !== null) ?? null
  /** False while "Work offline" is on: a Retry would only ask the offline copy again. */
  const retryOffered = computed(() => !app.workOffline)
  return { state, blocked, blockedAny, retryOffered }
}

/** What the user is told instead of a Retry while "Work offline" is on. */
export const NO_RETRY_WHILE_OFFLINE = '“Work offline” is on: switch it off to try again.'
