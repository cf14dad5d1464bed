import path from 'node:path'
import { EVENT_NAMES } from '@contract/channel-names'
import { AccountService } from './accounts/account-service'
import { ClientPool } from './accounts/client-pool'
import { DemoAccounts, type DemoService } from './accounts/demo-account'
import { createKeychainVault } from './accounts/keychain-vault'
import { ResilientVault } from './accounts/resilient-vault'
import type { Vault } from './accounts/vault'
import { openLinkFromOs } from './accounts/link-intake'
import { CoreEvents } from './events'
import type { BackoffOptions } from './exports/backoff'
import { createExportServices } from './exports/index'
import { dispatch, type CallContext } from './handlers/dispatch'
import { Connectivity } from './handlers/connectivity'
import { createHandlerTable } from './handlers/table'
import { headlessHost, type HostServices } from './host'
import { CancelRegistry } from './http/cancel'
import type { ClientLimits } from './http/client'
import { AccountsRepo } from './store/accounts-repo'
import { openDatabase } from './store/database'
import { DraftsRepo } from './store/drafts-repo'
import { SettingsRepo } from './store/settings-repo'
import { TombstonesRepo } from './store/tombstones-repo'

export type { DemoService } from './accounts/demo-account'
export type { Vault } from './accounts/vault'
export type { CallContext } from './handlers/dispatch'
export { CoreEvents } from './events'

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
  /** How long calls wait for a new sign-in after a session ended (default 10 min). */
  reauthWaitMs?: number
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
  close(): Promise<void>
}

/** Opens the local store, sets up the vault, clients and handlers, and returns the core. */
export async function createCore(options: CoreOptions): Promise<Core> {
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
  const settings = new SettingsRepo(db)
  const clients = new ClientPool({
    vault,
    limits: options.httpLimits,
    userAgent: `ScanDesk/${options.version}`,
    reauthWaitMs: options.reauthWaitMs,
  })
  const accountsRepo = new AccountsRepo(db)
  const accounts = new AccountService({
    accounts: accountsRepo,
    settings,
    vault,
    clients,
    changed: (list) => events.emit('accounts.changed', list),
    reauthRequired: (request) => events.emit('accounts.reauthRequired', request),
    log,
  })
  const demo = new DemoAccounts(accounts, options.demo, log)
  const cancels = new CancelRegistry()
  const host = options.host ?? headlessHost
  const exportServices = createExportServices({
    db,
    settings,
    events,
    accounts,
    clients,
    demo,
    host,
    backoff: options.exportBackoff,
    log,
  })
  const handlerContext = {
    mode: options.mode,
    version: options.version,
    events,
    vault,
    settings,
    accounts,
    accountsRepo,
    clients,
    demo,
    cancels,
    connectivity: new Connectivity(events),
    host,
    exports: exportServices,
    drafts: new DraftsRepo(db),
  }
  const table = createHandlerTable(handlerContext)
  await vault.status()
  await exportServices.start()

  let closed: Promise<void> | null = null
  return {
    events,
    openLink: (link) => openLinkFromOs(handlerContext, link, log),
    abortCalls: (accountId) => clients.abortCalls(accountId),
    dispatch: (channel, payload, ctx) =>
      dispatch(table, channel, payload, ctx, (err) => {
        const name = err instanceof Error ? err.name : typeof err
        const message = err instanceof Error ? err.message.split('\n')[0].slice(0, 200) : ''
        log('error', `internal error on ${String(channel).slice(0, 60)}: ${name} ${message}`)
      }),
    close() {
      closed ??= (async () => {
        cancels.cancelAll()
        accounts.close()
        await exportServices.close()
        await demo.close()
        clients.closeAll()
        db.close()
      })()
      return closed
    },
  }
}

/** Every event name core emits (re-exported for the IPC wiring and browser mode). */
export const CORE_EVENT_NAMES = EVENT_NAMES
