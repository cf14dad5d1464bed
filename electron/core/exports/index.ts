import fs from 'node:fs/promises'
import path from 'node:path'
import type { AccountService } from '../accounts/account-service'
import type { ClientPool } from '../accounts/client-pool'
import type { DemoAccounts } from '../accounts/demo-account'
import type { CoreEvents } from '../events'
import { downloadToFolder } from '../files/download'
import { hashFile } from '../files/hash'
import { removeSaqLeftovers, removeStalePartials } from '../files/leftovers'
import { SAQ_FOLDER, documentFileName, saqFileName } from '../files/names'
import { PendingTemps } from '../files/pending-temps'
import { quarantineFile } from '../files/quarantine'
import type { HostServices } from '../host'
import type { AccountClient } from '../http/client'
import type { Db } from '../store/database'
import { ExportJobsRepo } from '../store/export-jobs-repo'
import { LedgerRepo } from '../store/ledger-repo'
import type { SettingsRepo } from '../store/settings-repo'
import type { BackoffOptions } from './backoff'
import type { FileOps } from './file-ops'
import { DownloadFolders, defaultUserFolders } from './folders'
import { ExportJobs } from './jobs'
import { Library } from './library'
import { readDownloadPreferences } from './preferences'
import { SaqFiles } from './saq-files'

/** The real files module (electron/core/files). */
export const realFileOps: FileOps = {
  downloadToFolder,
  documentFileName,
  saqFileName,
  hashFile,
  quarantineFile,
}

/** What createExportServices needs from the core. */
export interface ExportServicesDeps {
  db: Db
  settings: SettingsRepo
  events: CoreEvents
  accounts: AccountService
  clients: ClientPool
  demo: DemoAccounts
  host: HostServices
  /** ScanDesk's data folder: never a place to import from or export to. */
  dataDir?: string
  files?: FileOps
  backoff?: BackoffOptions
  log?: (level: 'info' | 'warn' | 'error', message: string) => void
}

/** Export jobs, the library and the download folders, wired to the core. */
export interface ExportServices {
  jobs: ExportJobs
  library: Library
  folders: DownloadFolders
  /** SAQ evidence files and audit bundles. */
  saq: SaqFiles
  /** Temp files of CSV and views files being saved (swept at start). */
  pending: PendingTemps
  /**
   * Removes the temp files interrupted downloads and saves left (in the download folders, and
   * those `pending` noted), resumes stored jobs and starts following sign-ins (call once the core
   * is ready).
   */
  start(): Promise<void>
  close(): Promise<void>
}

/** Builds the export services on the core's store, accounts and event bus. */
export function createExportServices(deps: ExportServicesDeps): ExportServices {
  const files = deps.files ?? realFileOps
  const folders = new DownloadFolders(
    deps.settings,
    () => deps.host.userFolders?.() ?? defaultUserFolders(),
    () => (deps.dataDir ? [deps.dataDir] : []),
  )
  const ledger = new LedgerRepo(deps.db)
  const now = () => new Date()
  const clientFor = async (accountId: string): Promise<AccountClient> => {
    let row = deps.accounts.row(accountId)
    if (deps.demo.needsStart(row)) {
      await deps.demo.ensureFor(row)
      row = deps.accounts.row(accountId)
    }
    return deps.clients.client(row)
  }
  const libraryChanged = (accountId: string) => deps.events.emit('library.changed', { accountId })
  const accountLabel = (accountId: string) => {
    try {
      return deps.accounts.row(accountId).label
    } catch {
      return accountId
    }
  }
  const jobs = new ExportJobs({
    jobs: new ExportJobsRepo(deps.db),
    ledger,
    folders,
    files,
    host: deps.host,
    clientFor,
    emit: (job) => deps.events.emit('exports.changed', job),
    libraryChanged,
    preferences: () => readDownloadPreferences(deps.settings),
    accountLabel,
    now,
    backoff: deps.backoff,
    log: deps.log,
  })
  const library = new Library({
    ledger,
    folders,
    files,
    host: deps.host,
    clientFor,
    libraryChanged,
    now,
  })

  const saq = new SaqFiles({
    ledger,
    folders,
    files,
    host: deps.host,
    clientFor,
    libraryChanged,
    accountLabel,
    maxDownloadBytes: () => readDownloadPreferences(deps.settings).maxDownloadBytes,
    now,
  })

  const pending = new PendingTemps(deps.settings)
  const signedIn = new Map<string, boolean>()
  let unsubscribe: (() => void) | null = null
  return {
    jobs,
    library,
    folders,
    saq,
    pending,
    async start() {
      const accounts = (await deps.accounts.list()).accounts
      for (const a of accounts) signedIn.set(a.id, a.signedIn)
      // Nothing downloads yet: every `.partial` in a download folder is a leftover of a crash.
      // The SAQ folder inside each download folder holds SAQ PDFs downloaded the same way (only
      // a real folder: a link planted in its place is not followed).
      const known = accounts.flatMap((a) => folders.known(a.id))
      const saqFolders = await Promise.all(
        known.map(async (f) => {
          const inner = path.join(f, SAQ_FOLDER)
          const stat = await fs.lstat(inner).catch(() => null)
          return stat?.isDirectory() ? [inner] : []
        }),
      )
      const removed = await removeStalePartials([...known, ...saqFolders.flat()])
      if (removed.length)
        deps.log?.('info', `removed ${removed.length} leftover partial download file(s)`)
      // Inside them: audit bundles a crash stopped before their final rename, and partial copies
      // of evidence files.
      const saqLeft = await removeSaqLeftovers(saqFolders.flat())
      if (saqLeft.length)
        deps.log?.(
          'info',
          `removed ${saqLeft.length} unfinished audit bundle(s) or evidence copies`,
        )
      // And the temp files of CSV and views files being saved elsewhere (typed or picked paths).
      const saving = await pending.sweep()
      if (saving.length) deps.log?.('info', `removed ${saving.length} unfinished saved file(s)`)
      unsubscribe = deps.events.on('accounts.changed', ({ accounts }) => {
        const present = new Set(accounts.map((a) => a.id))
        for (const id of signedIn.keys())
          if (!present.has(id)) {
            signedIn.delete(id)
            jobs.accountRemoved(id)
          }
        for (const a of accounts) {
          const before = signedIn.get(a.id)
          signedIn.set(a.id, a.signedIn)
          if (a.signedIn && before === false) jobs.accountSignedIn(a.id)
        }
      })
      jobs.resume()
    },
    async close() {
      unsubscribe?.()
      await jobs.close()
    },
  }
}
