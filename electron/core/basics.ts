// What the core is and how it is configured (CoreOptions, Core), and what it opens first (the
// event bus, the store and the vault). Both ways of starting the core use it: createCore
// (index.ts) and startCore (start.ts), which opens these before the rest of the core loads.
import path from 'node:path'
import { createKeychainVault } from './accounts/keychain-vault'
import type { DemoService } from './accounts/demo-account'
import { ResilientVault } from './accounts/resilient-vault'
import type { Vault } from './accounts/vault'
import { CoreEvents } from './events'
import type { BackoffOptions } from './exports/backoff'
import type { CallContext } from './handlers/dispatch'
import type { HostServices } from './host'
import type { ClientLimits } from './http/options'
import { openDatabase, type Db } from './store/database'
import { TombstonesRepo } from './store/tombstones-repo'

/** How main (or browser mode) configures the core. */
export interface CoreOptions {
  /** The SQLite file lives at <dataDir>/scandesk.db. */
  dataDir: string
  mode: 'electron' | 'browser'
  version: string
  /** Default: the keychain (keytar) with an in-memory fallback. */
  vault?: Vault
  /** Starts the embedded sandbox (given by main / browser mode). */
  demo?: () => Promise<DemoService>
  log?: (level: 'info' | 'warn' | 'error', message: string) => void
  /** HTTP limits for every account client (tests shorten them). */
  httpLimits?: Partial<ClientLimits>
  /** OS dialogs, open/reveal and notifications. Default: headlessHost (no dialogs). */
  host?: HostServices
  /** Poll timing of export jobs (tests shorten it). */
  exportBackoff?: BackoffOptions
  /**
   * Between two rounds of the notification watcher (default 60 s); 0 turns the watcher off
   * (tests that count the service's requests).
   */
  notificationIntervalMs?: number
  /** How long calls wait for a new sign-in after a session ended (default: a call's deadline). */
  reauthWaitMs?: number
  /** Connectivity probe backoff (tests shorten it; default 2 s doubling to 1 min). */
  probeBackoff?: { baseMs: number; maxMs: number }
}

/** The main-process core: one dispatch for every channel, the event bus, and shutdown. */
export interface Core {
  /** Validates and runs one channel request; always resolves to the JSON text of a Result. */
  dispatch(channel: string, payload: unknown, ctx: CallContext): Promise<string>
  events: CoreEvents
  /** Takes a link the OS handed over (scandesk://…): keeps it and emits 'links.opened'. */
  openLink(link: string): Promise<void>
  /** Aborts the running calls of one account (its window closed): they answer CANCELLED. */
  abortCalls(accountId: string): void
  /** The OS reports the network up or down (Electron main watches it). */
  setNetwork(online: boolean | null): void
  /** The computer woke from sleep: every account is checked again. */
  resumed(): void
  close(): Promise<void>
}

/** What the core opens before anything else: its event bus, the store and the vault. */
export interface CoreBasics {
  events: CoreEvents
  db: Db
  vault: Vault
}

/** Opens the store and sets up the vault (the keychain with an in-memory fallback by default). */
export function openBasics(options: CoreOptions): CoreBasics {
  const log = options.log ?? (() => undefined)
  const events = new CoreEvents()
  const db = openDatabase(path.resolve(options.dataDir))
  const vault =
    options.vault ??
    new ResilientVault({
      keychain: () => createKeychainVault(),
      // Deletes the keychain could not take are finished here at the next start (vault.status()).
      tombstones: new TombstonesRepo(db),
      onStatus: (status) => {
        log(status.available ? 'info' : 'warn', status.message ?? 'the system keychain works again')
        events.emit('keychain.status', status)
      },
    })
  return { events, db, vault }
}
