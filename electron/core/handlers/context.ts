import type { AccountService } from '../accounts/account-service'
import type { ChangesService } from '../changes/service'
import type { SinceService } from '../since/service'
import type { ClientPool } from '../accounts/client-pool'
import type { DemoAccounts } from '../accounts/demo-account'
import type { Vault } from '../accounts/vault'
import type { RoutedBulkRuns } from '../bulk/routed'
import type { CoreEvents } from '../events'
import type { ExportServices } from '../exports/index'
import type { HostServices } from '../host'
import type { CacheStore } from '../offline/cache-store'
import type { ConnectivityMonitor } from '../offline/connectivity'
import type { RoutedOutbox } from '../offline/outbox-routed'
import type { CancelRegistry } from '../http/cancel'
import type { AccountsRepo } from '../store/accounts-repo'
import type { DraftsRepo } from '../store/drafts-repo'
import type { SessionStore } from '../store/session-store'
import type { SnapshotsRepo } from '../store/snapshots-repo'
import type { RemediationRepo } from '../store/remediation-repo'
import type { SettingsRepo } from '../store/settings-repo'
import type { DailyTotals } from '../trends/daily'
import type { PacksRepo } from '../intel/packs-repo'
import type { AssetContextRepo } from '../intel/asset-context-repo'

/** Everything the handler modules share (built once by createCore). */
export interface HandlerContext {
  mode: 'electron' | 'browser'
  version: string
  log: (level: 'info' | 'warn' | 'error', message: string) => void
  events: CoreEvents
  vault: Vault
  settings: SettingsRepo
  accounts: AccountService
  /** The accounts table (rows only; the account service owns secrets and sessions). */
  accountsRepo: AccountsRepo
  clients: ClientPool
  demo: DemoAccounts
  cancels: CancelRegistry
  /** Online / offline / unreachable per account, "Work offline", probes. */
  connectivity: ConnectivityMonitor
  /** The encrypted offline copy of cacheable reads. */
  cache: CacheStore
  /** Safe writes kept while the service cannot be reached (on disk, or in memory: no key). */
  outbox: RoutedOutbox
  /** OS dialogs, open/reveal and notifications (headless in tests). */
  host: HostServices
  /** Export jobs, the file library and the download folders. */
  exports: ExportServices
  /** Bulk runs: one write per record through the outbox, never sent twice. */
  bulk: RoutedBulkRuns
  /** Work in progress per account (scan wizard, SAQ answers, saved views). */
  drafts: DraftsRepo
  /** What accounts without a key (no keychain) keep in memory until ScanDesk closes. */
  session: SessionStore
  /** Snapshots of runs and their comparison. */
  changes: ChangesService
  /** The run snapshots themselves (counted for removal, cleared with the offline copy). */
  snapshots: SnapshotsRepo
  /** "Since your last visit" counts and the record of dashboard visits. */
  since: SinceService
  /** Remediation policies per account (issue 20). */
  remediation: RemediationRepo
  /** The account's open findings recorded once a day. */
  dailyTotals: DailyTotals
  /** The exploit-intelligence packs (KEV, EPSS): public data, one set for the app. */
  packs: PacksRepo
  /** Each account's asset context (criticality, exposure, owner), sealed with its key. */
  assets: AssetContextRepo
}
