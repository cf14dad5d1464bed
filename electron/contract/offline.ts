import { z } from 'zod'
import { accountId } from './accounts'
import type { AppError } from './errors'
import type { Kept } from './kept'

/**
 * What ScanDesk knows about reaching one account's service:
 * - `checking`: nothing answered yet since start (never shown as "Online");
 * - `online`: the service answered the last request or probe;
 * - `offline`: the computer has no network (the OS says so);
 * - `unreachable`: the network is up but the service did not answer (refused, timed out, 502–504);
 * - `signed-out`: the account has no session (no read, not even from the offline copy);
 * - `work-offline`: the user switched "Work offline" on: no request is made at all.
 */
export const CONNECTIVITY_STATES = [
  'checking',
  'online',
  'offline',
  'unreachable',
  'signed-out',
  'work-offline',
] as const

/** One connectivity state. */
export type ConnectivityState = (typeof CONNECTIVITY_STATES)[number]

/** Connectivity of one account's service (the `connectivity` event and connectivity.get). */
export interface Connectivity {
  accountId: string
  state: ConnectivityState
  /** True only in state `online`. */
  online: boolean
  /** When the state was last decided. */
  checkedAt: string
  /** Why, in a sentence (the failure of the last request or probe), or null when online. */
  message: string | null
  /** When the next probe runs (unreachable / offline / checking), or null. */
  nextCheckAt: string | null
}

/** The app-wide switches and every account's state. */
export interface ConnectivityOverview {
  /** "Work offline" is on: no request leaves ScanDesk. Kept across restarts. */
  workOffline: boolean
  /** What the OS (Electron) or the browser (browser mode) says about the network; null: unknown. */
  network: boolean | null
  accounts: Connectivity[]
}

/** The local copy of one account's answers. */
export interface CacheStatus {
  accountId: string
  entries: number
  /** Bytes stored (compressed and encrypted). */
  bytes: number
  /** The cap per account (Settings.cacheMaxBytes); the least recently used answers go first. */
  maxBytes: number
  /** False when nothing is written to disk (the keychain that holds the account's key is unavailable). */
  persisted: boolean
  /** A sentence for the user when the copy is not kept or was set aside, else null. */
  message: string | null
  /** Fetch time of the oldest and newest stored answer. */
  oldest: string | null
  newest: string | null
}

// Free of zod in a module of its own, so the renderer's settings store can read it on the first
// screen without the schemas.
export { CACHE_MAX_BYTES } from './offline-limits'

/** The state of one queued write. */
export type OutboxState = 'queued' | 'sending' | 'failed'

/** One write kept for later (an operation whose catalog offline policy is "queue"). */
export interface OutboxItem {
  id: string
  accountId: string
  /** The account's label when the item was queued. */
  accountLabel: string
  /** Catalog operation id and its one-line summary. */
  op: string
  summary: string
  /** The record it concerns (the path id), or null for "all". */
  target: string | null
  state: OutboxState
  /** Why the last replay was refused (conflict, refusal, gone): the item stays until the user acts. */
  error: AppError | null
  attempts: number
  createdAt: string
  lastTriedAt: string | null
  /** On disk (sealed), or in memory until ScanDesk closes (the account has no key: no keychain). */
  kept: Kept
}

/** The outbox.changed event: counts for one account. */
export interface OutboxCounts {
  accountId: string
  queued: number
  failed: number
}

const outboxId = z.string().regex(/^[a-z0-9-]{8,64}$/, 'is not an outbox item id')

/** Inputs of the offline channels (checked in main before any work). */
export const offlineInputs = {
  'connectivity.get': z.strictObject({}),
  'connectivity.setWorkOffline': z.strictObject({ on: z.boolean() }),
  /** Browser mode: the page's online/offline events (Electron main watches the OS itself). */
  'connectivity.network': z.strictObject({ online: z.boolean() }),
  /** Checks the account's service now (a light probe, unless "Work offline" is on). */
  'connectivity.check': z.strictObject({ accountId }),
  'cache.status': z.strictObject({ accountId }),
  'cache.clear': z.strictObject({ accountId }),
  'outbox.list': z.strictObject({ accountId: accountId.optional() }),
  /** Sends the account's queued writes now (a failed item is tried again). */
  'outbox.retry': z.strictObject({ id: outboxId }),
  /** Drops one item the user decided not to send. */
  'outbox.discard': z.strictObject({ id: outboxId }),
}

/** Outputs of the offline channels. */
export interface OfflineOutputs {
  'connectivity.get': ConnectivityOverview
  'connectivity.setWorkOffline': ConnectivityOverview
  'connectivity.network': ConnectivityOverview
  'connectivity.check': Connectivity
  'cache.status': CacheStatus
  'cache.clear': CacheStatus
  'outbox.list': OutboxItem[]
  'outbox.retry': OutboxItem[]
  'outbox.discard': { discarded: boolean }
}

/** Payloads of the offline events. */
export interface OfflineEvents {
  connectivity: Connectivity
  'connectivity.mode': { workOffline: boolean; network: boolean | null }
  'outbox.changed': OutboxCounts
}

/** Error message of a read made offline that was never made online on this computer. */
export function noCopyMessage(reason: string): string {
  return `${reason} This has not been opened on this computer while online, so there is no offline copy of it yet.`
}
