import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AccountsRepo, type AccountRow } from './accounts-repo'
import { openDatabase, schemaVersion, type Db } from './database'
import { ExportJobsRepo, type ExportJobRow } from './export-jobs-repo'
import { LedgerRepo } from './ledger-repo'
import { MIGRATIONS } from './migrations'
import { accountRow } from './test-account'

/** The newest schema version (versions may skip numbers until a merge renumbers them). */
const LATEST = Math.max(...MIGRATIONS.map((m) => m.version))

let dir: string
let db: Db | undefined

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-store2-'))
})
afterEach(() => {
  db?.close()
  db = undefined
  fs.rmSync(dir, { recursive: true, force: true })
})

const NOW = '2025-01-02T03:04:05.000Z'
const account = (id: string, label = 'Acme'): AccountRow =>
  accountRow({
    id,
    label,
    baseUrl: 'https://scan.example',
    username: 'a@example.test',
    color: '#000000',
    createdAt: NOW,
    updatedAt: NOW,
  })
const job = (id: string, accountId: string, over: Partial<ExportJobRow> = {}): ExportJobRow => ({
  id,
  accountId,
  kind: 'report',
  resourceId: 'rpt-001',
  resourceName: 'Quarterly',
  format: 'pdf',
  state: 'queued',
  phase: 'generate',
  error: null,
  targetPath: null,
  path: null,
  sha256: null,
  ledgerId: null,
  generationStartedAt: null,
  createdAt: NOW,
  updatedAt: NOW,
  saq: null,
  ...over,
})
const entry = (id: string, accountId: string, over = {}) => ({
  id,
  accountId,
  accountLabel: 'Acme',
  kind: 'report' as const,
  resourceId: 'rpt-001',
  resourceName: 'Quarterly 100%_done',
  format: 'pdf' as const,
  path: '/downloads/Quarterly - rpt-001.pdf',
  size: 10,
  sha256: 'a'.repeat(64),
  verdict: 'verified' as const,
  detail: null,
  downloadedAt: NOW,
  verifiedAt: NOW,
  saq: null,
  ...over,
})

describe('migration 2 (export jobs and the file ledger)', () => {
  it('upgrades a version 1 database and keeps its accounts', () => {
    db = openDatabase(
      dir,
      MIGRATIONS.filter((m) => m.version === 1),
    )
    expect(schemaVersion(db)).toBe(1)
    // The columns of version 1 only (the repo writes the later ones too).
    db.prepare(
      `INSERT INTO accounts (id, label, base_url, username, release, color, auth_method, is_demo,
         allow_insecure_http, created_at, updated_at)
       VALUES ('acc-1', 'Acme', 'https://scan.example', 'a@example.test', 'latest', '#000000',
         'password', 0, 0, @now, @now)`,
    ).run({ now: NOW })
    db.close()
    db = openDatabase(dir)
    expect(schemaVersion(db)).toBe(LATEST)
    expect(new AccountsRepo(db).get('acc-1')).toMatchObject({
      caBundle: null,
      rememberPassword: false,
      impersonating: null,
    })
    expect(new AccountsRepo(db).get('acc-1')?.label).toBe('Acme')
    new ExportJobsRepo(db).insert(job('job-1', 'acc-1'))
    expect(new ExportJobsRepo(db).get('job-1')?.state).toBe('queued')
  })

  it('refuses states, kinds and formats outside the contract', () => {
    db = openDatabase(dir)
    new AccountsRepo(db).insert(account('acc-1'))
    const jobs = new ExportJobsRepo(db)
    expect(() => jobs.insert(job('j', 'acc-1', { state: 'done' as never }))).toThrow(/CHECK/)
    expect(() => jobs.insert(job('j', 'acc-1', { format: 'xls' as never }))).toThrow(/CHECK/)
    expect(() => jobs.insert(job('j', 'nobody'))).toThrow(/FOREIGN KEY/)
    const ledger = new LedgerRepo(db)
    expect(() => ledger.insert(entry('e', 'acc-1', { verdict: 'fine' }))).toThrow(/CHECK/)
  })

  it('removes an account’s jobs with it but keeps its ledger, marked as removed', () => {
    db = openDatabase(dir)
    const accounts = new AccountsRepo(db)
    accounts.insert(account('acc-1'))
    accounts.insert(account('acc-2', 'Other'))
    new ExportJobsRepo(db).insert(job('job-1', 'acc-1'))
    new ExportJobsRepo(db).insert(job('job-2', 'acc-2'))
    const ledger = new LedgerRepo(db)
    ledger.insert(entry('e-1', 'acc-1'))
    expect(ledger.get('e-1')?.accountLabel).toBe('Acme')
    accounts.update('acc-1', { label: 'Acme Payments' })
    expect(ledger.get('e-1')?.accountLabel).toBe('Acme Payments')
    accounts.delete('acc-1')
    expect(new ExportJobsRepo(db).get('job-1')).toBeUndefined()
    expect(new ExportJobsRepo(db).get('job-2')).toBeDefined()
    expect(ledger.get('e-1')?.accountLabel).toBe('Acme (removed)')
  })
})

describe('the export job repo', () => {
  it('stores errors as data and finds jobs by state', () => {
    db = openDatabase(dir)
    new AccountsRepo(db).insert(account('acc-1'))
    const jobs = new ExportJobsRepo(db)
    jobs.insert(job('job-1', 'acc-1'))
    jobs.insert(job('job-2', 'acc-1', { state: 'downloading', phase: 'download' }))
    const updated = jobs.update('job-1', {
      state: 'failed',
      error: { code: 'UNAUTHORIZED', message: 'Sign in again.', status: 401 },
    })
    expect(updated?.error).toEqual({ code: 'UNAUTHORIZED', message: 'Sign in again.', status: 401 })
    expect(jobs.listByStates(['downloading']).map((j) => j.id)).toEqual(['job-2'])
    expect(jobs.update('job-1', { error: null })?.error).toBeNull()
    expect(jobs.listByAccount('acc-1')).toHaveLength(2)
    expect(jobs.delete('job-1')).toBe(true)
    expect(jobs.delete('job-1')).toBe(false)
  })
})

describe('the ledger repo', () => {
  it('searches names, paths and formats literally (% and _ are not wildcards)', () => {
    db = openDatabase(dir)
    const ledger = new LedgerRepo(db)
    ledger.insert(entry('e-1', 'acc-1'))
    ledger.insert(
      entry('e-2', 'acc-2', { resourceName: 'Board', path: '/x/Board.csv', format: 'csv' }),
    )
    expect(ledger.list({ search: '100%' }).map((e) => e.id)).toEqual(['e-1'])
    expect(ledger.list({ search: '%' }).map((e) => e.id)).toEqual(['e-1'])
    expect(ledger.list({ search: 'y_d' })).toEqual([])
    expect(ledger.list({ search: 'CSV' }).map((e) => e.id)).toEqual(['e-2'])
    expect(ledger.list({ accountId: 'acc-2' }).map((e) => e.id)).toEqual(['e-2'])
    expect(ledger.update('e-1', { verdict: 'changed', detail: 'x' })?.verdict).toBe('changed')
  })
})

describe('migration 5 (SAQ files in export jobs and the ledger)', () => {
  it('rebuilds both tables of a version 4 database keeping every row, index and foreign key', () => {
    db = openDatabase(
      dir,
      MIGRATIONS.filter((m) => m.version <= 4),
    )
    expect(schemaVersion(db)).toBe(4)
    db.prepare(
      `INSERT INTO accounts (id, label, base_url, username, release, color, auth_method, is_demo,
         allow_insecure_http, created_at, updated_at)
       VALUES ('acc-1', 'Acme', 'https://scan.example', 'a@example.test', 'latest', '#000000',
         'password', 0, 0, @now, @now)`,
    ).run({ now: NOW })
    // Rows as version 4 wrote them (its columns only).
    const oldJob = db.prepare(
      `INSERT INTO export_jobs (id, account_id, kind, resource_id, resource_name, format, state,
         phase, error, target_path, path, sha256, ledger_id, generation_started_at, created_at,
         updated_at)
       VALUES (@id, 'acc-1', @kind, 'rpt-1', 'Quarterly', @format, @state, 'download', @error,
         '/d/q.pdf', '/d/q.pdf', @sha, 'led-1', @now, @now, @now)`,
    )
    oldJob.run({
      id: 'job-a',
      kind: 'report',
      format: 'pdf',
      state: 'verified',
      error: null,
      sha: 'a'.repeat(64),
      now: NOW,
    })
    oldJob.run({
      id: 'job-b',
      kind: 'advanced_report',
      format: 'csv',
      state: 'failed',
      error: JSON.stringify({ code: 'OFFLINE', message: 'Offline.' }),
      sha: null,
      now: NOW,
    })
    const oldEntry = db.prepare(
      `INSERT INTO file_ledger (id, account_id, account_label, kind, resource_id, resource_name,
         format, path, size, sha256, verdict, detail, downloaded_at, verified_at)
       VALUES (@id, @account, 'Acme', 'report', 'rpt-1', 'Quarterly', 'pdf', @path, 10, @sha,
         @verdict, @detail, @now, NULL)`,
    )
    oldEntry.run({
      id: 'led-1',
      account: 'acc-1',
      path: '/d/q.pdf',
      sha: 'a'.repeat(64),
      verdict: 'verified',
      detail: null,
      now: NOW,
    })
    // A ledger row of an account removed long ago stays (no foreign key on the ledger).
    oldEntry.run({
      id: 'led-2',
      account: 'gone',
      path: '/d/old.pdf',
      sha: 'b'.repeat(64),
      verdict: 'changed',
      detail: 'Edited.',
      now: NOW,
    })
    db.close()

    db = openDatabase(dir)
    expect(schemaVersion(db)).toBe(LATEST)
    const jobs = new ExportJobsRepo(db)
    expect(jobs.get('job-a')).toMatchObject({
      kind: 'report',
      state: 'verified',
      phase: 'download',
      path: '/d/q.pdf',
      ledgerId: 'led-1',
      saq: null,
    })
    expect(jobs.get('job-b')).toMatchObject({
      kind: 'advanced_report',
      format: 'csv',
      error: { code: 'OFFLINE', message: 'Offline.' },
    })
    const ledger = new LedgerRepo(db)
    expect(ledger.get('led-1')).toMatchObject({ verdict: 'verified', saq: null, size: 10 })
    expect(ledger.get('led-2')).toMatchObject({
      accountLabel: 'Acme (removed)',
      verdict: 'changed',
      detail: 'Edited.',
    })
    const indexes = (
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        .all() as {
        name: string
      }[]
    ).map((r) => r.name)
    expect(indexes).toEqual(
      expect.arrayContaining([
        'export_jobs_account',
        'export_jobs_state',
        'file_ledger_account',
        'file_ledger_saq',
      ]),
    )
    expect(db.pragma('foreign_key_check')).toEqual([])

    // The new kinds, format, verdict and SAQ facts insert and read back.
    jobs.insert(
      job('job-saq', 'acc-1', {
        kind: 'saq',
        resourceId: 'saq-001',
        state: 'ready',
        phase: 'download',
        saq: { saqType: 'A', organization: 'Acme Retail', status: 'approved' },
      }),
    )
    expect(jobs.get('job-saq')?.saq).toEqual({
      saqType: 'A',
      organization: 'Acme Retail',
      status: 'approved',
    })
    ledger.insert(
      entry('led-saq', 'acc-1', {
        kind: 'saq',
        verdict: 'recorded',
        saq: { saqType: 'A', status: 'approved', requirement: null },
      }),
    )
    ledger.insert(
      entry('led-ev', 'acc-1', {
        kind: 'saq_evidence',
        format: 'file',
        resourceId: 'draft-1',
        verdict: 'recorded',
        saq: { saqType: 'A', status: 'draft', requirement: '8.3.1' },
      }),
    )
    expect(ledger.get('led-ev')).toMatchObject({
      kind: 'saq_evidence',
      format: 'file',
      saq: { saqType: 'A', status: 'draft', requirement: '8.3.1' },
    })
    expect(ledger.list({ search: '8.3.1' }).map((e) => e.id)).toEqual(['led-ev'])
    expect(ledger.listFor('acc-1', 'saq_evidence', 'draft-1').map((e) => e.id)).toEqual(['led-ev'])
    expect(ledger.get('led-ev')?.linkedAt).toBeNull()
    const at = '2025-03-01T10:00:00.000Z'
    expect(ledger.relink('acc-1', 'saq_evidence', 'draft-1', 'saq-009', at)).toBe(1)
    expect(ledger.listFor('acc-1', 'saq_evidence', 'saq-009').map((e) => e.id)).toEqual(['led-ev'])
    // the time it was re-pointed is kept beside the time it was attached
    expect(ledger.get('led-ev')).toMatchObject({
      linkedAt: at,
      downloadedAt: entry('x', 'acc-1').downloadedAt,
    })
    expect(ledger.delete('led-ev')).toBe(true)
    expect(ledger.get('led-ev')).toBeUndefined()

    // The foreign key survived the rebuild: removing the account removes its jobs.
    db.prepare("DELETE FROM accounts WHERE id = 'acc-1'").run()
    expect(jobs.listByAccount('acc-1')).toEqual([])
    expect(ledger.get('led-1')).toBeDefined()
  })

  it('still refuses kinds, formats and verdicts outside the contract', () => {
    db = openDatabase(dir)
    new AccountsRepo(db).insert(account('acc-1'))
    const jobs = new ExportJobsRepo(db)
    expect(() => jobs.insert(job('j', 'acc-1', { kind: 'saq_evidence' as never }))).toThrow(/CHECK/)
    const ledger = new LedgerRepo(db)
    expect(() => ledger.insert(entry('e', 'acc-1', { kind: 'scan' }))).toThrow(/CHECK/)
    expect(() => ledger.insert(entry('e', 'acc-1', { format: 'exe' }))).toThrow(/CHECK/)
  })
})
