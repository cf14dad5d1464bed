import path from 'node:path'
import { EVENT_NAMES } from '@contract/channel-names'
import { AppFailure } from '@contract/errors'
import { AccountKeys } from './accounts/account-keys'
import { AccountService } from './accounts/account-service'
import type { Read } from './changes/findings'
import { ChangesService } from './changes/service'
import type { HandlerContext } from './handlers/context'
import { RoutedBulkRuns } from './bulk/routed'
import { ClientPool, loadClientModule } from './accounts/client-pool'
import { DemoAccounts } from './accounts/demo-account'
import { openLinkFromOs } from './accounts/link-intake'
import { loadCatalog } from './catalog'
import { openBasics, type Core, type CoreBasics, type CoreOptions } from './basics'
import { createExportServices } from './exports/index'
import { dispatch } from './handlers/dispatch'
import { loadCsvModule } from './handlers/csv'
import { clientOf } from './handlers/account-calls'
import { offlineRead, onlineRead } from './handlers/changes'
import { createHandlerTable } from './handlers/table'
import { headlessHost } from './host'
import { CancelRegistry } from './http/cancel'
import { openCacheDatabase } from './offline/cache-db'
import { CacheStore } from './offline/cache-store'
import { DueCheck } from './notifications/due-check'
import { NotificationWatcher } from './notifications/watcher'
import { RemediationRepo } from './store/remediation-repo'
import { PacksRepo } from './intel/packs-repo'
import { AssetContextRepo } from './intel/asset-context-repo'
import { ConnectivityMonitor } from './offline/connectivity'
import { RoutedOutbox } from './offline/outbox-routed'
import { readCacheMaxBytes } from './offline/settings'
import { AccountsRepo } from './store/accounts-repo'
import type { CallInput } from './http/request'
import { DraftsRepo } from './store/drafts-repo'
import { sealPlainRows } from './store/sealing'
import { SettingsRepo } from './store/settings-repo'
import { SessionStore } from './store/session-store'
import { SnapshotsRepo } from './store/snapshots-repo'
import { VisitsRepo } from './store/visits-repo'
import { SinceService } from './since/service'
import { DailyTotalsRepo } from './store/daily-totals-repo'
import { DailyTotals } from './trends/daily'
import { warmUpLater } from './warm-up'

export type { DemoService } from './accounts/demo-account'
export type { Vault } from './accounts/vault'
export type { CallContext } from './handlers/dispatch'
export { CoreEvents } from './events'
export type { Core, CoreBasics, CoreOptions } from './basics'

/**
 * Opens the local store, sets up the vault, clients and handlers, and returns the core. A process
 * starting with the core calls startCore (start.ts), which opens the store and the vault (`basics`)
 * before this module loads.
 */
export async function createCore(options: CoreOptions, basics?: CoreBasics): Promise<Core> {
  const log = options.log ?? (() => undefined)
  const { events, db, vault } = basics ?? openBasics(options)
  const settings = new SettingsRepo(db)
  const remediation = new RemediationRepo(db)
  let connectivity: ConnectivityMonitor | null = null
  const clients = new ClientPool({
    vault,
    limits: options.httpLimits,
    userAgent: `ScanDesk/${options.version}`,
    reauthWaitMs: options.reauthWaitMs,
    networkBlocked: () => connectivity?.blockedReason() ?? null,
    observe: (id, failure) => connectivity?.observe(id, failure),
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
  const signedIn = new Map<string, boolean>()
  const monitor = new ConnectivityMonitor({
    events,
    settings,
    backoff: options.probeBackoff,
    log,
    signedIn: (id) => signedIn.get(id) ?? null,
    probe: async (id) => {
      try {
        let row = accounts.row(id)
        if (demo.needsStart(row)) {
          await demo.ensureFor(row)
          row = accounts.row(id)
        }
        return await (await clients.client(row)).probe()
      } catch (err) {
        return err instanceof AppFailure
          ? err
          : new AppFailure({ code: 'INTERNAL', message: 'The check could not run.' })
      }
    },
  })
  connectivity = monitor
  events.on('accounts.changed', (list) => {
    for (const account of list.accounts) {
      signedIn.set(account.id, account.signedIn)
      monitor.sessionChanged(account.id)
    }
  })
  const openedCache = openCacheDatabase(path.resolve(options.dataDir))
  if (openedCache.setAside)
    log('warn', `the offline copy was damaged (${openedCache.setAside}) and was set aside`)
  // The account's own key seals everything kept about it: offline copy, drafts, outbox.
  const keys = new AccountKeys(vault)
  // Drafts and queued writes from before they were sealed are sealed once the key is at hand.
  keys.onKey((accountId, key) => {
    try {
      const sealed = sealPlainRows(db, accountId, key)
      if (sealed) log('info', `sealed ${sealed} older drafts and queued changes of ${accountId}`)
    } catch (err) {
      // Left as they are (still readable); the next start tries again.
      log('warn', `older drafts of ${accountId} not sealed: ${(err as Error).message}`)
    }
  })
  const cache = new CacheStore(openedCache.db, {
    keys,
    maxBytes: () => readCacheMaxBytes(settings),
    setAside: openedCache.setAside,
    log,
  })
  /** Sends one operation through the account's gated client (starting the demo when needed). */
  const send = async (id: string, op: string, input: CallInput) => {
    let row = accounts.row(id)
    if (demo.needsStart(row)) {
      await demo.ensureFor(row)
      row = accounts.row(id)
    }
    return (await clients.client(row)).call(op, input)
  }
  // What an account without a key (no keychain) keeps: in memory until ScanDesk closes.
  const session = new SessionStore(db, keys)
  let bulk: RoutedBulkRuns | null = null
  const outbox = new RoutedOutbox({
    db,
    events,
    keys,
    session,
    log,
    blocked: () => monitor.blockedReason(),
    report: (id, answered, message) =>
      monitor.report(id, answered ? { answered: true } : { answered: false, message }),
    send,
    deliver: (kept, writeId) => (bulk ? bulk.deliver(kept, writeId) : Promise.resolve('wait')),
  })
  bulk = new RoutedBulkRuns({
    db,
    events,
    keys,
    outbox,
    session,
    log,
    account: (id) => accounts.row(id),
    call: send,
    unreachable: (id) => monitor.knownUnreachable(id),
  })
  const host = options.host ?? headlessHost
  const exportServices = createExportServices({
    db,
    settings,
    events,
    accounts,
    clients,
    demo,
    host,
    dataDir: path.resolve(options.dataDir),
    backoff: options.exportBackoff,
    log,
  })
  // Snapshots of runs, sealed like drafts; reads through the handler context's clients.
  const snapshots = new SnapshotsRepo(db, keys)
  const changes: ChangesService = new ChangesService({
    snapshots,
    online: (id): Read => onlineRead(handlerContext, id),
    offline: (id): Read => offlineRead(handlerContext, id),
    taken: (accountId, scanId, snapshot) =>
      events.emit('changes.snapshotTaken', { accountId, scanId, snapshot }),
    log,
  })
  // The account's open findings once a day, sealed like the snapshots; reads from the service.
  const dailyTotals = new DailyTotals({
    repo: new DailyTotalsRepo(db, keys),
    online: (id) => async (op, input) =>
      (await clientOf(handlerContext)(accounts.row(id))).call(op, input),
    log,
  })
  const handlerContext: HandlerContext = {
    mode: options.mode,
    version: options.version,
    log,
    events,
    vault,
    settings,
    accounts,
    accountsRepo,
    clients,
    demo,
    cancels,
    connectivity: monitor,
    cache,
    outbox,
    bulk,
    host,
    exports: exportServices,
    drafts: new DraftsRepo(db, keys, undefined, session),
    session,
    changes,
    snapshots,
    since: new SinceService({
      visits: new VisitsRepo(db),
      snapshots,
      read: (id) => offlineRead(handlerContext, id),
    }),
    remediation,
    dailyTotals,
    packs: new PacksRepo(db),
    assets: new AssetContextRepo(db, keys),
  }
  const table = createHandlerTable(handlerContext)
  // New notifications of every signed-in account that is not known to be down (the gated
  // client: Work offline and sign-in state hold it back like any call).
  const notifications = new NotificationWatcher({
    events,
    settings,
    host,
    log,
    intervalMs: options.notificationIntervalMs,
    accounts: () =>
      accountsRepo
        .list()
        .filter((a) => signedIn.get(a.id) === true && !monitor.knownUnreachable(a.id))
        .map((a) => ({ id: a.id, label: a.label })),
    unseen: async (id) => {
      let row = accounts.row(id)
      if (demo.needsStart(row)) {
        await demo.ensureFor(row)
        row = accounts.row(id)
      }
      const answer = (await (
        await clients.client(row)
      ).call('notifications.list', { query: { seen: 'false', per_page: 25 } })) as {
        data: { id: string; attributes: Record<string, unknown> }[]
      }
      const data = answer.data
      return data.map((n) => ({
        id: n.id,
        title: String(n.attributes.title),
        body: typeof n.attributes.body === 'string' ? n.attributes.body : null,
        kind: String(n.attributes.kind),
        resourceType:
          typeof n.attributes.resource_type === 'string' ? n.attributes.resource_type : null,
        resourceId: typeof n.attributes.resource_id === 'string' ? n.attributes.resource_id : null,
      }))
    },
    // Findings that became overdue or due soon, for accounts that asked (remediation policy).
    due: new DueCheck({
      policy: (id) => remediation.get(id),
      count: async (id, query) => {
        const answer = (await (
          await clients.client(accounts.row(id))
        ).call('vulnerabilities.list', { query })) as {
          meta?: { pagination?: { total_count?: unknown } }
        }
        const total = answer.meta?.pagination?.total_count
        if (typeof total !== 'number') throw new Error('the list did not say its total')
        return total
      },
    }),
    // A run ScanDesk sees complete: its findings are kept as that run's snapshot.
    scanCompleted: (accountId, scanId) => {
      changes.ensureLatest(accountId, scanId).catch((err: unknown) => {
        log('info', `no snapshot of ${scanId} taken: ${(err as Error).message}`)
      })
    },
  })
  events.on('accounts.changed', (list) => {
    for (const account of list.accounts)
      if (!account.signedIn) notifications.forget(account.id)
      else if (!monitor.knownUnreachable(account.id)) {
        notifications.learn(account.id)
        // Signed in again after a pause: the writes kept in the outbox meanwhile go out now.
        if (!account.awaitingReauth && outbox.hasQueued(account.id)) void outbox.replay(account.id)
      }
  })
  await vault.status()
  // Accounts with drafts or queued writes still in plain text: ask for their keys (each is sealed
  // by the listener above) without holding the start up for a keychain that is slow to answer;
  // one that does not answer leaves them as they are.
  const unsealed = db
    .prepare(
      `SELECT account_id FROM drafts WHERE sealed IS NULL
       UNION SELECT account_id FROM outbox WHERE sealed IS NULL`,
    )
    .all() as { account_id: string }[]
  const sealing = Promise.all(unsealed.map((row) => keys.keyFor(row.account_id)))
  await exportServices.start()
  if (options.notificationIntervalMs !== 0) notifications.start()
  // Back online: queued writes go out in order, and export jobs waiting for the service resume.
  // Bulk writes left waiting by the last run (a restart in the middle) are delivered again.
  for (const id of bulk.waitingAccounts()) if (!monitor.knownUnreachable(id)) void outbox.replay(id)
  monitor.onOnline((id) => {
    if (!accountsRepo.get(id)) return
    void outbox.replay(id)
    exportServices.jobs.accountOnline(id)
    void notifications.poll(id)
  })

  // What the first window does not need loads after it (each also loads on its first use).
  const cancelWarmUp = warmUpLater([loadCatalog, loadClientModule, loadCsvModule])

  let closed: Promise<void> | null = null
  return {
    events,
    openLink: (link) => openLinkFromOs(handlerContext, link, log),
    abortCalls: (accountId) => clients.abortCalls(accountId),
    setNetwork: (online) => {
      monitor.setNetwork(online)
    },
    resumed: () => monitor.recheck(),
    dispatch: (channel, payload, ctx) =>
      dispatch(table, channel, payload, ctx, (err) => {
        const name = err instanceof Error ? err.name : typeof err
        const message = err instanceof Error ? err.message.split('\n')[0].slice(0, 200) : ''
        log('error', `internal error on ${String(channel).slice(0, 60)}: ${name} ${message}`)
      }),
    close() {
      closed ??= (async () => {
        cancelWarmUp()
        cancels.cancelAll()
        await sealing
        notifications.close()
        monitor.close()
        accounts.close()
        await exportServices.close()
        await demo.close()
        clients.closeAll()
        await outbox.idle()
        bulk?.close()
        session.close()
        cache.close()
        db.close()
      })()
      return closed
    },
  }
}

/** Every event name core emits (re-exported for the IPC wiring and browser mode). */
export const CORE_EVENT_NAMES = EVENT_NAMES
