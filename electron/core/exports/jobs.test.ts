import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AppFailure } from '@contract/errors'
import type { ExportJob, ExportState } from '@contract/files'
import type { AccountClient } from '../http/client'
import { headlessHost } from '../host'
import { AccountsRepo } from '../store/accounts-repo'
import { openDatabase, type Db } from '../store/database'
import { ExportJobsRepo } from '../store/export-jobs-repo'
import { LedgerRepo } from '../store/ledger-repo'
import { SettingsRepo } from '../store/settings-repo'
import { accountRow } from '../store/test-account'
import type { FileOps } from './file-ops'
import { DownloadFolders } from './folders'
import { ExportJobs } from './jobs'
import { readDownloadPreferences } from './preferences'

const GOOD = 'a'.repeat(64)
const BAD = 'b'.repeat(64)
let dir: string
let folder: string
let db: Db
let jobs: ExportJobs
let repo: ExportJobsRepo
let ledger: LedgerRepo
let seen: ExportState[]
let calls: string[]
let statuses: string[]
let verifyAnswer: () => unknown
let downloadAnswer: () => Promise<{ path: string; size: number; sha256: string }>
let clock: number
let notes: string[]

const client = {
  baseUrl: 'https://scan.example',
  release: 'latest',
  close: () => undefined,
  call: async (op: string) => {
    calls.push(op)
    if (op === 'reports.show') return { data: { attributes: { name: 'Quarterly' } } }
    if (op === 'reports.generate') return { data: { status: 'generating' } }
    if (op === 'reports.file_exists') {
      const status = statuses.shift() ?? 'ready'
      if (status === '401') throw new AppFailure({ code: 'UNAUTHORIZED', message: 'Sign in.' })
      return { data: { status } }
    }
    if (op === 'reports.verify_hash') return verifyAnswer()
    if (op === 'saq.show')
      return {
        data: {
          id: 'saq-001',
          attributes: {
            name: 'Web shop SAQ',
            saq_type: 'A',
            organization_name: 'Acme Retail',
            status: 'approved',
          },
        },
      }
    throw new Error(`unexpected ${op}`)
  },
} as unknown as AccountClient

function writeDownload(sha256: string) {
  return async () => {
    const file = path.join(folder, `Quarterly ${calls.length}.pdf`)
    fs.writeFileSync(file, '%PDF-1.4 test')
    return { path: file, size: 13, sha256 }
  }
}

let downloads: Parameters<FileOps['downloadToFolder']>[0][]

const files: FileOps = {
  downloadToFolder: async (req) => {
    calls.push('download')
    downloads.push(req)
    return downloadAnswer()
  },
  documentFileName: (d) => `${d.name} - ${d.id}.${d.format}`,
  saqFileName: (d) => `SAQ ${d.saqType} - ${d.name} - ${d.organization}.pdf`,
  hashFile: async () => ({ sha256: GOOD, size: 13 }),
  quarantineFile: async (file, into) => {
    const target = path.join(into, 'Quarantine', path.basename(file))
    fs.mkdirSync(path.dirname(target), { recursive: true })
    fs.renameSync(file, target)
    return target
  },
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-jobs-'))
  folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-jobs-dl-')))
  db = openDatabase(dir)
  new AccountsRepo(db).insert(
    accountRow({
      id: 'acc-1',
      baseUrl: 'https://scan.example',
      username: 'a@example.test',
      color: '#000000',
    }),
  )
  const settings = new SettingsRepo(db)
  const folders = new DownloadFolders(settings)
  folders.set('acc-1', folder)
  repo = new ExportJobsRepo(db)
  ledger = new LedgerRepo(db)
  seen = []
  calls = []
  downloads = []
  statuses = []
  notes = []
  clock = Date.parse('2025-01-02T00:00:00.000Z')
  verifyAnswer = () => ({ data: { match: true } })
  downloadAnswer = writeDownload(GOOD)
  jobs = new ExportJobs({
    jobs: repo,
    ledger,
    folders,
    files,
    host: { ...headlessHost, notify: (title) => void notes.push(title) },
    clientFor: async () => client,
    emit: (job: ExportJob) => seen.push(job.state),
    libraryChanged: () => undefined,
    preferences: () => readDownloadPreferences(settings),
    accountLabel: () => 'Acme',
    now: () => new Date(clock),
    backoff: { baseMs: 1, maxMs: 4, jitter: 0 },
  })
})
afterEach(async () => {
  await jobs.close()
  db.close()
  fs.rmSync(dir, { recursive: true, force: true })
  fs.rmSync(folder, { recursive: true, force: true })
})

const start = () =>
  jobs.generate({ accountId: 'acc-1', kind: 'report', resourceId: 'rpt-001', format: 'pdf' })

async function settled(id: string) {
  await jobs.idle()
  return repo.get(id)!
}

describe('generating', () => {
  it('goes queued → generating → ready, polling until the file exists', async () => {
    statuses = ['generating', 'generating', 'ready']
    const job = await start()
    expect(job.state).toBe('queued')
    expect((await settled(job.id)).state).toBe('ready')
    expect(calls.filter((c) => c === 'reports.file_exists')).toHaveLength(3)
    expect(seen).toEqual(['queued', 'generating', 'ready'])
  })

  it('fails with a plain message when the service could not build the file', async () => {
    statuses = ['failed']
    const job = await start()
    const done = await settled(job.id)
    expect(done.state).toBe('failed')
    expect(done.error).toMatchObject({ code: 'SERVER' })
    expect(done.error?.message).toContain('the PDF of “Quarterly”')
  })

  it('returns the running job instead of starting the same generation twice', async () => {
    statuses = ['generating']
    const first = await start()
    const second = await start()
    expect(second.id).toBe(first.id)
    await jobs.idle()
  })

  it('notifies when a generation took longer than five seconds', async () => {
    statuses = ['generating', 'ready']
    const orig = client.call
    client.call = async (op, ...rest) => {
      if (op === 'reports.file_exists') clock += 3_000
      return orig(op, ...rest)
    }
    try {
      const job = await start()
      await settled(job.id)
      expect(notes).toEqual(['Report ready'])
    } finally {
      client.call = orig
    }
  })

  it('fails on 401 and resumes after the account signs in', async () => {
    statuses = ['401']
    const job = await start()
    const failed = await settled(job.id)
    expect(failed).toMatchObject({ state: 'failed', error: { code: 'UNAUTHORIZED' } })
    statuses = ['ready']
    jobs.accountSignedIn('acc-1')
    expect((await settled(job.id)).state).toBe('ready')
  })
})

describe('downloading and verifying', () => {
  async function readyJob() {
    const job = await start()
    await settled(job.id)
    return job
  }

  it('records a verified download in the ledger', async () => {
    const job = await readyJob()
    await jobs.download(job.id)
    const done = await settled(job.id)
    expect(done.state).toBe('verified')
    expect(ledger.get(done.ledgerId!)).toMatchObject({ verdict: 'verified', sha256: GOOD })
  })

  it('quarantines a file the service does not confirm', async () => {
    const job = await readyJob()
    downloadAnswer = writeDownload(BAD)
    verifyAnswer = () => ({ data: { match: false, expected_sha256: GOOD } })
    await jobs.download(job.id)
    const done = await settled(job.id)
    expect(done.state).toBe('mismatch')
    expect(done.path).toContain(`${path.sep}Quarantine${path.sep}`)
    expect(fs.existsSync(done.path!)).toBe(true)
    expect(done.error?.message).toMatch(
      /\(bbbbbbbbbbbb…\) differs from the service’s \(aaaaaaaaaaaa…\)/,
    )
    expect(ledger.get(done.ledgerId!)).toMatchObject({ verdict: 'mismatch', path: done.path })
  })

  it('keeps an unconfirmed file when the service cannot be asked, and retry only verifies', async () => {
    const job = await readyJob()
    verifyAnswer = () => {
      throw new AppFailure({ code: 'OFFLINE', message: 'The service cannot be reached.' })
    }
    await jobs.download(job.id)
    const failed = await settled(job.id)
    expect(failed).toMatchObject({ state: 'failed', phase: 'verify', error: { code: 'OFFLINE' } })
    expect(ledger.get(failed.ledgerId!)?.verdict).toBe('unverified')
    verifyAnswer = () => ({ data: { match: true } })
    await jobs.retry(job.id)
    const done = await settled(job.id)
    expect(done.state).toBe('verified')
    expect(calls.filter((c) => c === 'download')).toHaveLength(1)
    expect(done.ledgerId).toBe(failed.ledgerId)
    expect(ledger.list()).toHaveLength(1)
  })

  it('refuses to download before the file is generated, and to retry what did not fail', async () => {
    statuses = ['generating', 'generating', 'generating']
    const job = await start()
    await expect(jobs.download(job.id)).rejects.toMatchObject({ error: { code: 'CONFLICT' } })
    await expect(jobs.retry(job.id)).rejects.toMatchObject({ error: { code: 'CONFLICT' } })
    await jobs.idle()
  })

  it('cancels a running download: no file, no ledger entry', async () => {
    const job = await readyJob()
    const gate = vi.fn()
    files.downloadToFolder = async (req) => {
      gate()
      return new Promise((_, reject) =>
        req.signal?.addEventListener('abort', () =>
          reject(new AppFailure({ code: 'CANCELLED', message: 'cancelled' })),
        ),
      )
    }
    try {
      await jobs.download(job.id)
      const cancelled = await jobs.cancel(job.id)
      expect(cancelled.state).toBe('cancelled')
      expect(gate).toHaveBeenCalled()
      expect(ledger.list()).toEqual([])
      expect(fs.readdirSync(folder)).toEqual([])
    } finally {
      files.downloadToFolder = async (req) => {
        calls.push('download')
        downloads.push(req)
        return downloadAnswer()
      }
    }
  })
})

describe('starting again after ScanDesk closed', () => {
  it('fails interrupted downloads and verifications and polls generations again', async () => {
    const base = {
      accountId: 'acc-1',
      kind: 'report' as const,
      resourceId: 'rpt-001',
      resourceName: 'Quarterly',
      format: 'pdf' as const,
      error: null,
      ledgerId: null,
      generationStartedAt: '2025-01-01T00:00:00.000Z',
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
      saq: null,
    }
    const kept = path.join(folder, 'kept.pdf')
    fs.writeFileSync(kept, '%PDF-')
    repo.insert({
      ...base,
      id: 'j-gen',
      state: 'generating',
      phase: 'generate',
      targetPath: null,
      path: null,
      sha256: null,
    })
    repo.insert({
      ...base,
      id: 'j-dl',
      state: 'downloading',
      phase: 'download',
      targetPath: path.join(folder, 'x.pdf'),
      path: null,
      sha256: null,
    })
    repo.insert({
      ...base,
      id: 'j-ver',
      state: 'verifying',
      phase: 'verify',
      targetPath: kept,
      path: kept,
      sha256: GOOD,
    })
    jobs.resume()
    expect(repo.get('j-dl')?.error?.message).toMatch(
      /^Interrupted: ScanDesk was closed during the download/,
    )
    expect(repo.get('j-ver')?.error?.message).toMatch(
      /^Interrupted: .*before the file was verified/,
    )
    expect(ledger.get(repo.get('j-dl')!.ledgerId!)).toMatchObject({
      verdict: 'unverified',
      size: 0,
    })
    expect(ledger.get(repo.get('j-ver')!.ledgerId!)).toMatchObject({
      verdict: 'unverified',
      path: kept,
    })
    expect((await settled('j-gen')).state).toBe('ready')
    expect(calls).not.toContain('reports.generate')
    await jobs.retry('j-ver')
    expect((await settled('j-ver')).state).toBe('verified')
  })
})

describe('an SAQ’s PDF', () => {
  const saqJob = () =>
    jobs.generate({ accountId: 'acc-1', kind: 'saq', resourceId: 'saq-001', format: 'pdf' })

  it('has no generation step: ready at once, named from saq.show', async () => {
    const job = await saqJob()
    expect(job).toMatchObject({ state: 'ready', resourceName: 'Web shop SAQ', kind: 'saq' })
    expect(repo.get(job.id)).toMatchObject({
      phase: 'download',
      saq: { saqType: 'A', organization: 'Acme Retail', status: 'approved' },
    })
    await jobs.idle()
    expect(calls).toEqual(['saq.show'])
    expect(seen).toEqual(['ready'])
  })

  it('refuses a CSV', async () => {
    await expect(
      jobs.generate({ accountId: 'acc-1', kind: 'saq', resourceId: 'saq-001', format: 'csv' }),
    ).rejects.toMatchObject({ error: { code: 'VALIDATION' } })
    expect(repo.listByAccount('acc-1')).toEqual([])
  })

  it('downloads through saq.show (format=pdf) into <folder>/SAQ and records the hash without a service check', async () => {
    const job = await saqJob()
    downloadAnswer = async () => {
      const file = path.join(folder, 'SAQ', 'SAQ A - Web shop SAQ - Acme Retail.pdf')
      fs.writeFileSync(file, '%PDF-1.4 saq')
      return { path: file, size: 12, sha256: GOOD }
    }
    await jobs.download(job.id)
    const done = await settled(job.id)
    expect(downloads[0]).toMatchObject({
      opId: 'saq.show',
      input: { path: { id: 'saq-001' }, query: { format: 'pdf' } },
      folder: path.join(folder, 'SAQ'),
      // Named with the questionnaire's own name (from saq.show), not only its type.
      fileName: 'SAQ A - Web shop SAQ - Acme Retail.pdf',
      format: 'pdf',
    })
    expect(fs.lstatSync(path.join(folder, 'SAQ')).isDirectory()).toBe(true)
    // The job's steps all succeeded ('verified'); the ledger says what that means: recorded.
    expect(done.state).toBe('verified')
    expect(calls).not.toContain('reports.verify_hash')
    expect(ledger.get(done.ledgerId!)).toMatchObject({
      kind: 'saq',
      format: 'pdf',
      verdict: 'recorded',
      detail: 'SHA-256 recorded at download; the service offers no check for SAQ files.',
      saq: { saqType: 'A', status: 'approved', requirement: null },
    })
    expect(notes).toEqual(['SAQ saved'])
  })

  it('refuses a link planted where the SAQ folder goes, on the first try and on a retry', async () => {
    const job = await saqJob()
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-else-'))
    fs.symlinkSync(elsewhere, path.join(folder, 'SAQ'))
    await expect(jobs.download(job.id)).rejects.toMatchObject({ error: { code: 'FORBIDDEN' } })
    fs.unlinkSync(path.join(folder, 'SAQ'))
    downloadAnswer = async () => {
      throw new AppFailure({ code: 'OFFLINE', message: 'Offline.' })
    }
    await jobs.download(job.id)
    expect((await settled(job.id)).state).toBe('failed')
    fs.rmdirSync(path.join(folder, 'SAQ'))
    fs.symlinkSync(elsewhere, path.join(folder, 'SAQ'))
    await expect(jobs.retry(job.id)).rejects.toMatchObject({ error: { code: 'FORBIDDEN' } })
    expect(downloads).toHaveLength(1)
    expect(fs.readdirSync(elsewhere)).toEqual([])
  })
})
