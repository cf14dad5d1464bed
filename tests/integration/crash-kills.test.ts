// Issue 41, hard kills, beyond the bulk run (crash-bulk.test.ts): a core in a child process
// (crash-child.ts) killed with SIGKILL in the middle of an outbox replay, a report's generation
// and download, an audit bundle, a saved-views import and an audit log export, each at a moment
// the test holds (a request the fault proxy keeps unanswered, a file stopped half written), then
// a new core on the same data folder and keychain. Every write reaches the service once (counted
// in the sandbox's own request log), nothing half written is shown as complete, nothing saved
// before is lost, and the leftovers are swept at the start.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { BulkRunDetails } from '@contract/bulk'
import type { ApiCallOutput } from '@contract/channels'
import type { DraftView } from '@contract/drafts'
import type { ExportJob, LedgerEntry } from '@contract/files'
import { savedViewsDocument } from '@contract/views'
import { GENERATION_MS } from '../../sandbox/domains/reporting/files'
import {
  startRecordedSandbox,
  startTestCore,
  type RecordedSandbox,
  type TestCore,
} from './core-helpers'
import {
  crashRoot,
  heldFor,
  keychainAfterCrash,
  spawnCrashChild,
  until,
  type ChildSecrets,
  type CrashChild,
} from './crash-helpers'
import { startFaultProxy, type FaultProxy } from './faults-helpers'

let sandbox: RecordedSandbox
let proxy: FaultProxy

beforeAll(async () => {
  sandbox = await startRecordedSandbox()
  proxy = await startFaultProxy(sandbox)
})
// A test that failed before its kill leaves nothing held or armed for the next one.
afterEach(() => proxy.dropHeld())
afterAll(async () => {
  await proxy?.close()
  await sandbox?.close()
})

const CHILD = 'tests/integration/crash-child.ts'

/** The child core of `scenario` on `dataDir`, talking to the sandbox through the proxy. */
function child(scenario: string, dataDir: string, env: Record<string, string> = {}): CrashChild {
  return spawnCrashChild(CHILD, {
    CHILD_SCENARIO: scenario,
    CHILD_DATA_DIR: dataDir,
    CHILD_BASE_URL: proxy.baseUrl,
    CHILD_API_KEY: sandbox.apiKey,
    ...env,
  })
}

/** Kills the child and breaks the connection of what the proxy held for it. */
async function kill(c: CrashChild): Promise<void> {
  await c.kill()
  proxy.dropHeld()
}

/** The core started again on the child's data folder and keychain. */
async function restart(dataDir: string, held: ChildSecrets): Promise<TestCore> {
  return startTestCore({
    dataDir,
    vault: await keychainAfterCrash(held),
    exportBackoff: { baseMs: 20, maxMs: 100, jitter: 0 },
    httpLimits: { backoffBaseMs: 5, backoffMaxMs: 20 },
  })
}

/** The sandbox's request lines since `from` that start with `prefix` ("PUT /v2/…"). */
const logged = (from: number, prefix: string) =>
  sandbox.requests.slice(from).filter((l) => l.startsWith(prefix))

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex')

/** Names in `folder` (none when it does not exist). */
const namesIn = (folder: string) => (fs.existsSync(folder) ? fs.readdirSync(folder).sort() : [])

describe('killed in the middle of an outbox replay', () => {
  it('sends each queued change once: the mark in flight is found made, not sent again', async () => {
    const { dataDir, remove } = crashRoot()
    try {
      const from = sandbox.requests.length
      const isMark = (m: string, p: string) => m === 'PUT' && p.endsWith('/mark_read')
      // The third mark: the sandbox makes it, its answer never reaches the process.
      const held = proxy.hold({ matching: isMark, skip: 2, at: 'answer' })
      const c = child('outbox', dataDir, { CHILD_MARKS: '6', CHILD_REASON: 'Crash replay' })
      await heldFor(c, held)
      await kill(c)
      const marks = c.said('marks')[0].split(',')
      expect(marks).toHaveLength(6)
      expect(logged(from, 'PUT ')).toHaveLength(3)

      const t = await restart(dataDir, c.secrets())
      try {
        const accountId = c.said('account')[0]
        // The app's first read finds the service: the account turns online and the replay runs.
        await t.ok('connectivity.check', { accountId })
        const runId = c.said('run')[0]
        await until(async () => {
          const run = await t.ok<BulkRunDetails>('bulk.get', { runId, page: 1, perPage: 1 })
          const left = await t.ok<unknown[]>('outbox.list', { accountId })
          return run.state === 'finished' && left.length === 0
        }, 'the replay to end')
        for (const id of marks)
          expect(logged(from, `PUT /v2/notifications/${id}/mark_read `), id).toHaveLength(1)
        expect(logged(from, 'POST /v2/exceptions ')).toHaveLength(5)
        const run = await t.ok<BulkRunDetails>('bulk.get', { runId })
        expect(run.counts).toMatchObject({ done: 5, failed: 0 })
        const out = await t.ok<ApiCallOutput>('api.call', {
          accountId,
          op: 'notifications.list',
          input: { query: { ids: marks.join(','), per_page: 25 } },
        })
        const rows = (out.data as { data: { id: string; attributes: { read: boolean } }[] }).data
        expect(
          rows
            .filter((n) => n.attributes.read)
            .map((n) => n.id)
            .sort(),
        ).toEqual([...marks].sort())
      } finally {
        await t.close()
      }
    } finally {
      remove()
    }
  })
})

describe('killed while a report is made and downloaded', () => {
  it('asks for the report once, sweeps the half download and shows it interrupted, not saved', async () => {
    const { root, dataDir, remove } = crashRoot()
    const folder = path.join(root, 'downloads')
    fs.mkdirSync(folder)
    try {
      const from = sandbox.requests.length
      const report = 'rpt-011' // never generated in the seed
      const isGenerate = (m: string, p: string) =>
        m === 'PUT' && p === `/v2/reports/${report}/generate`
      // First kill: the generation asked for (the sandbox started it), the answer held.
      const asked = proxy.hold({ matching: isGenerate, at: 'answer' })
      const first = child('report', dataDir, { CHILD_FOLDER: folder, CHILD_REPORT: report })
      const jobId = await first.waitFor((w) => w === 'job', 'the job')
      await heldFor(first, asked)
      await kill(first)
      expect(logged(from, `PUT /v2/reports/${report}/generate `)).toHaveLength(1)
      sandbox.advanceClock(GENERATION_MS)

      // Second kill, on the same folder and keychain: the job resumed by itself, is downloaded,
      // and half its body has arrived.
      const isDownload = (m: string, p: string) =>
        m === 'GET' && p === `/v2/reports/${report}/download`
      const body = proxy.hold({ matching: isDownload, at: 'body' })
      const second = child('report', dataDir, {
        CHILD_FOLDER: folder,
        CHILD_REPORT: report,
        CHILD_ACCOUNT: first.said('account')[0],
        CHILD_JOB: jobId,
        CHILD_SECRETS: JSON.stringify(first.secrets()),
      })
      await heldFor(second, body)
      // The download's temp file is there (the half that arrived is in its 1 MiB buffer).
      const partial = () => namesIn(folder).filter((n) => n.endsWith('.partial'))
      await until(() => partial().length === 1, 'the download to start writing')
      await kill(second)
      expect(namesIn(folder)).toEqual(partial())

      const t = await restart(dataDir, first.secrets())
      try {
        const accountId = first.said('account')[0]
        // The half download is gone; nothing is at the report's name; the job and the library
        // say it was interrupted, not that it was saved.
        expect(namesIn(folder)).toEqual([])
        const [job] = await t.ok<ExportJob[]>('exports.list', { accountId })
        expect(job).toMatchObject({ id: jobId, state: 'failed', path: null })
        expect(job.error?.message).toMatch(/Interrupted/)
        const ledger = await t.ok<LedgerEntry[]>('library.list', { accountId })
        expect(ledger.map((e) => e.verdict)).not.toContain('verified')
        // Retry downloads it again (the report is not asked for again) and it verifies.
        await t.ok('exports.retry', { jobId })
        let done: ExportJob | undefined
        await until(async () => {
          done = (await t.ok<ExportJob[]>('exports.list', { accountId }))[0]
          return done.state === 'verified' || done.state === 'failed'
        }, 'the retried download')
        expect(done!.state).toBe('verified')
        expect(sha256(done!.path!)).toBe(done!.sha256)
        expect(logged(from, 'PUT /v2/reports/')).toHaveLength(1)
      } finally {
        await t.close()
      }
    } finally {
      remove()
    }
  })
})

describe('killed while an audit bundle is built', () => {
  it('sweeps the unfinished bundle and keeps the finished one and its records', async () => {
    const { root, dataDir, home, remove } = crashRoot()
    const folder = path.join(root, 'downloads')
    fs.mkdirSync(folder)
    try {
      // The third PDF asked for: the second bundle's second SAQ (the first bundle has one).
      const isPdf = (m: string, p: string, url: string) =>
        m === 'GET' && p.startsWith('/v2/saq/') && url.includes('format=pdf')
      const held = proxy.hold({ matching: isPdf, skip: 2, at: 'body' })
      const c = child('bundle', dataDir, { CHILD_FOLDER: folder, CHILD_HOME: home })
      const bundle = await c.waitFor((w) => w === 'bundle', 'the first bundle')
      await heldFor(c, held)
      const saqFolder = path.join(folder, 'SAQ')
      const building = () => namesIn(saqFolder).filter((n) => n.endsWith('.building'))
      expect(building()).toHaveLength(1)
      await kill(c)
      const sums = fs.readFileSync(path.join(bundle, 'SHA256SUMS'), 'utf8')

      const t = await restart(dataDir, c.secrets())
      try {
        const accountId = c.said('account')[0]
        expect(building()).toEqual([])
        expect(namesIn(saqFolder)).toEqual([path.basename(bundle), 'Evidence'].sort())
        // The finished bundle is whole: its sums check, as they were.
        expect(fs.readFileSync(path.join(bundle, 'SHA256SUMS'), 'utf8')).toBe(sums)
        const checked = execFileSync('sha256sum', ['-c', 'SHA256SUMS'], {
          cwd: bundle,
          encoding: 'utf8',
        })
        expect(checked).not.toMatch(/FAILED/)
        // The records: the evidence and the first bundle's PDF, nothing of the second.
        const ledger = await t.ok<LedgerEntry[]>('library.list', { accountId })
        const pdfs = ledger.filter((e) => e.kind === 'saq' && e.format === 'pdf')
        expect(pdfs).toHaveLength(1)
        expect(pdfs[0].path.startsWith(bundle + path.sep)).toBe(true)
        expect(ledger.every((e) => fs.existsSync(e.path))).toBe(true)
      } finally {
        await t.close()
      }
    } finally {
      remove()
    }
  })
})

describe('killed while saved views are imported', () => {
  it('keeps the views saved before and every import whole, never a torn document', async () => {
    const { dataDir, home, remove } = crashRoot()
    const OWN = 10
    const IMPORT = 4
    try {
      const c = child('views', dataDir, {
        CHILD_HOME: home,
        CHILD_VIEWS: String(OWN),
        CHILD_IMPORT: String(IMPORT),
      })
      await c.waitFor((w, v) => w === 'ack' && Number(v) >= 30, 'thirty imports')
      await kill(c)
      const acked = Number(c.said('ack').at(-1))

      const t = await restart(dataDir, c.secrets())
      try {
        const accountId = c.said('account')[0]
        const draft = await t.ok<DraftView | null>('drafts.get', {
          accountId,
          kind: 'saved-views',
          key: '',
        })
        // A document the views schema takes, as the renderer reads it.
        const { views } = savedViewsDocument.parse(draft?.data)
        expect(views.slice(0, OWN).map((v) => v.name)).toEqual(
          Array.from({ length: OWN }, (_, i) => `Own ${i + 1}`),
        )
        const imports = (views.length - OWN) / IMPORT
        // Whole imports only, at least every one acknowledged.
        expect(Number.isInteger(imports)).toBe(true)
        expect(imports).toBeGreaterThanOrEqual(acked)
        for (let n = 1; n <= imports; n++)
          expect(views.slice(OWN + (n - 1) * IMPORT, OWN + n * IMPORT).map((v) => v.id)).toEqual(
            Array.from({ length: IMPORT }, (_, i) => `import-${n}-${i + 1}`),
          )
      } finally {
        await t.close()
      }
    } finally {
      remove()
    }
  })
})

describe('killed while the audit log is exported over an earlier export', () => {
  it('keeps the earlier file whole at its name and sweeps the half-written temp file', async () => {
    const { dataDir, home, remove } = crashRoot()
    try {
      const c = child('csv', dataDir, { CHILD_HOME: home, CHILD_USER: 'demo@sandbox.test' })
      const before = await c.waitFor((w) => w === 'saved', 'the first export')
      const temp = await c.waitFor((w) => w === 'temp', 'the second export half written')
      expect(fs.statSync(temp).size).toBeGreaterThan(0)
      await kill(c)
      expect(namesIn(home)).toEqual([path.basename(temp), 'audit.csv'].sort())

      const t = await restart(dataDir, c.secrets())
      try {
        // The name holds the first export, whole; the second's temp file is gone.
        expect(sha256(path.join(home, 'audit.csv'))).toBe(before)
        expect(namesIn(home)).toEqual(['audit.csv'])
      } finally {
        await t.close()
      }
    } finally {
      remove()
    }
  })
})
