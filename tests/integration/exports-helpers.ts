// Shared pieces of the export integration tests: a core with short poll waits and a recording
// host, the analyst account with a temporary download folder, and waiting for a job's state.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { AccountView } from '@contract/accounts'
import type { ExportJob, ExportState, LedgerEntry } from '@contract/files'
import type { HostServices } from '../../electron/core/host'
import { addAnalyst, startTestCore, type TestCore } from './core-helpers'

/** A host that records what the core asked of it; pickers answer what the test sets. */
export interface RecordingHost extends HostServices {
  opened: string[]
  revealed: string[]
  notes: { title: string; body: string }[]
  answers: { folder: string | null; saveAs: string | null; file: string | null }
}

/** A recording host (pickers answer null until a test sets an answer). */
export function recordingHost(): RecordingHost {
  const host: RecordingHost = {
    opened: [],
    revealed: [],
    notes: [],
    answers: { folder: null, saveAs: null, file: null },
    pickFolder: async () => host.answers.folder,
    pickSaveAs: async () => host.answers.saveAs,
    pickFile: async () => host.answers.file,
    openPath: async (p) => (host.opened.push(p), true),
    revealPath: async (p) => (host.revealed.push(p), true),
    notify: (title, body) => void host.notes.push({ title, body }),
    openAccountWindow: async () => ({ opened: 'window' }),
  }
  return host
}

/** Poll timing for tests: 20 ms doubling to 100 ms. */
export const FAST_POLL = { baseMs: 20, maxMs: 100, jitter: 0 }

/** A test core with the analyst account signed in and a fresh download folder set. */
export interface ExportSetup {
  t: TestCore
  host: RecordingHost
  account: AccountView
  folder: string
}

/** Starts a core (same data folder and vault when given) and adds or reuses the analyst. */
export async function startExportCore(
  sandbox: { baseUrl: string; apiKey: string },
  reuse?: { t: TestCore; account: AccountView; folder: string },
  options: { noFolder?: boolean } = {},
): Promise<ExportSetup> {
  const host = recordingHost()
  const t = await startTestCore({
    host,
    exportBackoff: FAST_POLL,
    ...(reuse ? { dataDir: reuse.t.dataDir, vault: reuse.t.vault } : {}),
  })
  if (reuse) return { t, host, account: reuse.account, folder: reuse.folder }
  const account = await addAnalyst(t, sandbox)
  const folder = tempFolder()
  if (!options.noFolder) await t.ok('files.setFolder', { accountId: account.id, folder })
  return { t, host, account, folder }
}

/** Polls exports.list until the job reaches one of `states` (throws after `ms`). */
export async function waitForJob(
  t: TestCore,
  accountId: string,
  jobId: string,
  states: ExportState[],
  ms = 15_000,
): Promise<ExportJob> {
  const until = Date.now() + ms
  let last: ExportJob | undefined
  while (Date.now() < until) {
    const jobs = await t.ok<ExportJob[]>('exports.list', { accountId })
    last = jobs.find((j) => j.id === jobId)
    if (last && states.includes(last.state)) return last
    await new Promise((r) => setTimeout(r, 15))
  }
  throw new Error(`job ${jobId} did not reach ${states.join('/')}: ${JSON.stringify(last)}`)
}

/** The ledger entries of an account. */
export function ledgerOf(t: TestCore, accountId: string): Promise<LedgerEntry[]> {
  return t.ok<LedgerEntry[]>('library.list', { accountId })
}

/** A fresh temporary folder (real path). */
export function tempFolder(prefix = 'scandesk-dl-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))
}

/** Every file (relative path) under `dir`, sorted. */
export function filesIn(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort()
}
