// Generate → download → verify through core.dispatch against the real sandbox, real files on
// disk and the real SQLite ledger.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import type { ExportJob } from '@contract/files'
import { filesIn, ledgerOf, startExportCore, tempFolder, waitForJob } from './exports-helpers'
import { useSandboxAndCore } from './fixture'

const s = useSandboxAndCore({ each: 'exports' })

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex')

async function serviceDigest(id: string, format: 'pdf' | 'csv'): Promise<string> {
  const shown = await s.t.ok<{
    data: { data: { attributes: { files: Record<string, { sha256: string }> } } }
  }>('api.call', { accountId: s.account.id, op: 'reports.show', input: { path: { id } } })
  return shown.data.data.attributes.files[format].sha256
}

async function generateReady(resourceId: string, format: 'pdf' | 'csv'): Promise<ExportJob> {
  const job = await s.t.ok<ExportJob>('exports.generate', {
    accountId: s.account.id,
    kind: 'report',
    resourceId,
    format,
  })
  return waitForJob(s.t, s.account.id, job.id, ['ready'])
}

describe('exporting a report that was never generated', () => {
  it('polls until the service has built it, downloads it and verifies it against the service', async () => {
    const job = await s.t.ok<ExportJob>('exports.generate', {
      accountId: s.account.id,
      kind: 'report',
      resourceId: 'rpt-011',
      format: 'pdf',
    })
    expect(job.state).toBe('queued')
    expect(job.resourceName).toMatch(/report$/)
    const generating = await waitForJob(s.t, s.account.id, job.id, ['generating'])
    expect(generating.state).toBe('generating')
    s.sandbox.advanceClock(5_000)
    await waitForJob(s.t, s.account.id, job.id, ['ready'])

    const started = await s.t.ok<ExportJob>('exports.download', { jobId: job.id })
    expect(started.state).toBe('downloading')
    const done = await waitForJob(s.t, s.account.id, job.id, ['verified', 'failed', 'mismatch'])
    expect(done.state).toBe('verified')
    expect(done.error).toBeNull()

    const expected = await serviceDigest('rpt-011', 'pdf')
    expect(done.sha256).toBe(expected)
    expect(path.dirname(done.path!)).toBe(s.folder)
    expect(done.path).toMatch(/rpt-011.*\.pdf$/)
    expect(sha256(done.path!)).toBe(expected)
    expect(fs.readFileSync(done.path!).subarray(0, 5).toString()).toBe('%PDF-')
    expect(filesIn(s.folder)).toEqual([path.basename(done.path!)])

    const [entry] = await ledgerOf(s.t, s.account.id)
    expect(entry).toMatchObject({
      id: done.ledgerId,
      accountLabel: 'Sandbox analyst',
      resourceId: 'rpt-011',
      format: 'pdf',
      path: done.path,
      sha256: expected,
      size: fs.statSync(done.path!).size,
      verdict: 'verified',
    })
    expect(entry.verifiedAt).not.toBeNull()
    const changes = s.t.events.filter((e) => e.name === 'exports.changed')
    const states = changes.map((e) => (e.payload as ExportJob).state)
    expect(states).toEqual(
      expect.arrayContaining([
        'queued',
        'generating',
        'ready',
        'downloading',
        'verifying',
        'verified',
      ]),
    )
    expect(s.t.events.some((e) => e.name === 'library.changed')).toBe(true)
    expect(s.host.notes.map((n) => n.title)).toContain('Download verified')
  })

  it('never writes the same name twice: a second download gets its own file', async () => {
    const job = await generateReady('rpt-001', 'csv')
    await s.t.ok('exports.download', { jobId: job.id })
    const first = await waitForJob(s.t, s.account.id, job.id, ['verified'])
    await s.t.ok('exports.download', { jobId: job.id })
    const second = await waitForJob(s.t, s.account.id, job.id, ['verified'])
    expect(second.path).not.toBe(first.path)
    expect(filesIn(s.folder)).toHaveLength(2)
    expect(sha256(first.path!)).toBe(sha256(second.path!))
    expect(await ledgerOf(s.t, s.account.id)).toHaveLength(2)
  })

  it('exports an advanced report and checks it against the digest the service shows', async () => {
    const job = await s.t.ok<ExportJob>('exports.generate', {
      accountId: s.account.id,
      kind: 'advanced_report',
      resourceId: 'adr-001',
      format: 'csv',
    })
    await waitForJob(s.t, s.account.id, job.id, ['ready'])
    await s.t.ok('exports.download', { jobId: job.id })
    const done = await waitForJob(s.t, s.account.id, job.id, ['verified', 'failed', 'mismatch'])
    expect(done.state).toBe('verified')
    expect(sha256(done.path!)).toBe(done.sha256)
  })
})

describe('a download whose bytes do not match', () => {
  it('moves a corrupted file to Quarantine and says so in the job and the ledger', async () => {
    const job = await generateReady('rpt-001', 'csv')
    s.sandbox.setFaults({ corruptDownloads: true })
    await s.t.ok('exports.download', { jobId: job.id })
    const done = await waitForJob(s.t, s.account.id, job.id, ['verified', 'failed', 'mismatch'])
    expect(done.state).toBe('mismatch')
    expect(done.error?.code).toBe('INTEGRITY_FAILED')
    expect(done.path).toBe(path.join(s.folder, 'Quarantine', path.basename(done.path!)))
    expect(done.error?.message).toContain(done.path!)
    expect(filesIn(s.folder)).toEqual([path.join('Quarantine', path.basename(done.path!))])
    expect(sha256(done.path!)).not.toBe(await serviceDigest('rpt-001', 'csv'))
    const [entry] = await ledgerOf(s.t, s.account.id)
    expect(entry).toMatchObject({ verdict: 'mismatch', path: done.path, sha256: done.sha256 })
    expect(entry.detail).toMatch(/moved to/)

    s.sandbox.setFaults({ corruptDownloads: false })
    await s.t.ok('exports.retry', { jobId: job.id })
    const retried = await waitForJob(s.t, s.account.id, job.id, ['verified', 'failed', 'mismatch'])
    expect(retried.state).toBe('verified')
    expect(path.dirname(retried.path!)).toBe(s.folder)
  })

  it('deletes the file instead when the settings say so', async () => {
    await s.t.ok('settings.set', { mismatchAction: 'delete' })
    const job = await generateReady('rpt-002', 'csv')
    s.sandbox.setFaults({ corruptDownloads: true })
    await s.t.ok('exports.download', { jobId: job.id })
    const done = await waitForJob(s.t, s.account.id, job.id, ['verified', 'failed', 'mismatch'])
    expect(done.state).toBe('mismatch')
    expect(done.path).toBeNull()
    expect(done.error?.message).toMatch(/deleted/)
    expect(filesIn(s.folder)).toEqual([])
    const [entry] = await ledgerOf(s.t, s.account.id)
    expect(entry.verdict).toBe('mismatch')
    expect(entry.detail).toMatch(/deleted/)
  })

  it('quarantines a corrupted PDF: its header is intact, only the service’s hash exposes it', async () => {
    const job = await generateReady('rpt-003', 'pdf')
    s.sandbox.setFaults({ corruptDownloads: true })
    await s.t.ok('exports.download', { jobId: job.id })
    const done = await waitForJob(s.t, s.account.id, job.id, ['verified', 'failed', 'mismatch'])
    expect(done.state).toBe('mismatch')
    expect(done.path).toBe(path.join(s.folder, 'Quarantine', path.basename(done.path!)))
    expect(done.path!.endsWith('.pdf')).toBe(true)
    expect(sha256(done.path!)).not.toBe(await serviceDigest('rpt-003', 'pdf'))
    const [entry] = await ledgerOf(s.t, s.account.id)
    expect(entry).toMatchObject({ verdict: 'mismatch', format: 'pdf', path: done.path })
  })
})

describe('choosing where files go', () => {
  beforeEach(async () => {
    await s.t.close()
    s.sandbox.reset()
    Object.assign(s, await startExportCore(s.sandbox, undefined, { noFolder: true }))
  })

  async function readyJob(): Promise<ExportJob> {
    return generateReady('rpt-001', 'csv')
  }

  it('fails with NO_FOLDER when the account has none and no dialog answers; the job stays ready', async () => {
    const job = await readyJob()
    const error = await s.t.err('exports.download', { jobId: job.id })
    expect(error).toMatchObject({
      code: 'NO_FOLDER',
      message: 'Choose a download folder for this account first.',
    })
    expect((await waitForJob(s.t, s.account.id, job.id, ['ready'])).state).toBe('ready')
    expect(await s.t.ok('files.getFolder', { accountId: s.account.id })).toEqual({ folder: null })
  })

  it('asks the host for a folder once and remembers it for the account', async () => {
    const job = await readyJob()
    s.host.answers.folder = s.folder
    await s.t.ok('exports.download', { jobId: job.id })
    const done = await waitForJob(s.t, s.account.id, job.id, ['verified', 'failed', 'mismatch'])
    expect(done.state).toBe('verified')
    expect(path.dirname(done.path!)).toBe(s.folder)
    expect(await s.t.ok('files.getFolder', { accountId: s.account.id })).toEqual({
      folder: s.folder,
    })
  })

  it('saves where "Save as…" says, and leaves the job ready when the dialog is cancelled', async () => {
    const job = await readyJob()
    const unchanged = await s.t.ok<ExportJob>('exports.download', { jobId: job.id, saveAs: true })
    expect(unchanged.state).toBe('ready')
    const elsewhere = tempFolder('scandesk-saveas-')
    s.host.answers.saveAs = path.join(elsewhere, 'for the auditor')
    await s.t.ok('exports.download', { jobId: job.id, saveAs: true })
    const done = await waitForJob(s.t, s.account.id, job.id, ['verified', 'failed', 'mismatch'])
    expect(done.state).toBe('verified')
    expect(done.path).toBe(path.join(elsewhere, 'for the auditor.csv'))
    const [entry] = await ledgerOf(s.t, s.account.id)
    await s.t.ok('library.open', { entryId: entry.id })
    expect(s.host.opened).toEqual([done.path])
  })

  it('checks a folder typed by hand: it must exist, be a folder and be writable', async () => {
    const accountId = s.account.id
    const missing = await s.t.err('files.setFolder', {
      accountId,
      folder: path.join(s.folder, 'no-such-folder'),
    })
    expect(missing.code).toBe('FILE_NOT_FOUND')
    // outside the user's home and temp folders and the account's download folders
    const outside = await s.t.err('files.setFolder', { accountId, folder: '/no/such/folder' })
    expect(outside.code).toBe('FORBIDDEN')
    const file = path.join(s.folder, 'plain.txt')
    fs.writeFileSync(file, 'x')
    expect((await s.t.err('files.setFolder', { accountId, folder: file })).code).toBe('VALIDATION')
    expect((await s.t.err('files.setFolder', { accountId, folder: 'relative/dir' })).code).toBe(
      'VALIDATION',
    )
    if (process.getuid?.() !== 0) {
      const locked = tempFolder('scandesk-locked-')
      fs.chmodSync(locked, 0o500)
      const denied = await s.t.err('files.setFolder', { accountId, folder: locked })
      expect(denied.code).toBe('PERMISSION_DENIED')
    }
    expect(await s.t.ok('files.setFolder', { accountId })).toEqual({ folder: null })
    s.host.answers.folder = s.folder
    expect(await s.t.ok('files.setFolder', { accountId })).toEqual({ folder: s.folder })
  })
})
