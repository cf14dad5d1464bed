// The file library through core.dispatch: re-verifying offline and online, opening only files
// inside the account’s folders and unchanged since they arrived (both re-checked at every open),
// "Verify a file…", and the clean-up of files left behind (stale partial files, a link planted as
// Quarantine).
import fs from 'node:fs'
import path from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import type { ExportJob, FileCheck, LedgerEntry } from '@contract/files'
import { ledgerOf, tempFolder, waitForJob } from './exports-helpers'
import { useSandboxAndCore } from './fixture'

const s = useSandboxAndCore({ each: 'exports' })
let entry: LedgerEntry

beforeEach(async () => {
  const job = await s.t.ok<ExportJob>('exports.generate', {
    accountId: s.account.id,
    kind: 'report',
    resourceId: 'rpt-006',
    format: 'pdf',
  })
  await waitForJob(s.t, s.account.id, job.id, ['ready'])
  await s.t.ok('exports.download', { jobId: job.id })
  const done = await waitForJob(s.t, s.account.id, job.id, ['verified'])
  ;[entry] = await ledgerOf(s.t, s.account.id)
  expect(entry.id).toBe(done.ledgerId)
})

function flipByte(file: string, at: number): void {
  const bytes = fs.readFileSync(file)
  bytes[at] ^= 0x01
  fs.writeFileSync(file, bytes)
}

const reverify = (mode: 'offline' | 'online') =>
  s.t.ok<LedgerEntry>('library.reverify', { entryId: entry.id, mode })

describe('re-verifying offline against the recorded hash', () => {
  it('confirms an untouched file, detects one changed byte, and notices a missing file', async () => {
    const first = await reverify('offline')
    expect(first.verdict).toBe('verified')
    expect(first.verifiedAt).not.toBeNull()

    flipByte(entry.path, 100)
    const changed = await reverify('offline')
    expect(changed.verdict).toBe('changed')
    expect(changed.detail).toMatch(/changed on disk/)

    flipByte(entry.path, 100)
    expect((await reverify('offline')).verdict).toBe('verified')

    fs.rmSync(entry.path)
    expect((await reverify('offline')).verdict).toBe('missing')
  })

  it('works with the service unreachable, after a restart', async () => {
    await s.t.close()
    s.sandbox.setFaults({ dropMidBody: true })
    try {
      await s.reopen()
      const [listed] = await ledgerOf(s.t, s.account.id)
      expect(listed).toMatchObject({ id: entry.id, verdict: 'verified', sha256: entry.sha256 })
      expect((await reverify('offline')).verdict).toBe('verified')
    } finally {
      s.sandbox.setFaults({ dropMidBody: false })
    }
  })
})

describe('re-verifying online', () => {
  it('asks the service again and says when the local file no longer matches', async () => {
    const again = await reverify('online')
    expect(again.verdict).toBe('verified')
    expect(again.detail).toMatch(/service confirmed/)
    flipByte(entry.path, 10)
    const changed = await reverify('online')
    expect(changed.verdict).toBe('changed')
  })
})

describe('listing the library', () => {
  it('filters by account and searches name, path and format', async () => {
    expect(await s.t.ok('library.list', { search: 'rpt-006' })).toHaveLength(1)
    expect(await s.t.ok('library.list', { search: 'PDF' })).toHaveLength(1)
    expect(await s.t.ok('library.list', { search: 'csv' })).toHaveLength(0)
    expect(await s.t.ok('library.list', { search: '%' })).toHaveLength(0)
    expect(
      await s.t.ok('library.list', { accountId: '00000000-0000-4000-8000-000000000000' }),
    ).toHaveLength(0)
  })

  it('keeps the entries of a removed account, marked as removed', async () => {
    await s.t.ok('accounts.remove', { accountId: s.account.id })
    const [kept] = await s.t.ok<LedgerEntry[]>('library.list', {})
    expect(kept).toMatchObject({ id: entry.id, accountLabel: 'Sandbox analyst (removed)' })
    expect(fs.existsSync(kept.path)).toBe(true)
  })
})

describe('opening files with the OS', () => {
  it('opens and reveals a file inside the download folder', async () => {
    expect(await s.t.ok('library.open', { entryId: entry.id })).toEqual({ opened: true })
    expect(await s.t.ok('library.reveal', { entryId: entry.id })).toEqual({ revealed: true })
    expect(s.host.opened).toEqual([entry.path])
    expect(s.host.revealed).toEqual([entry.path])
  })

  it('refuses a ledger path that now leads outside the download folders', async () => {
    const outside = path.join(tempFolder('scandesk-outside-'), 'secret.pdf')
    fs.writeFileSync(outside, '%PDF-1.4 not ours')
    fs.rmSync(entry.path)
    fs.symlinkSync(outside, entry.path)
    const error = await s.t.err('library.open', { entryId: entry.id })
    expect(error.code).toBe('FORBIDDEN')
    expect((await s.t.err('library.reveal', { entryId: entry.id })).code).toBe('FORBIDDEN')
    expect(s.host.opened).toEqual([])
  })

  it('hashes the file again before opening it: one changed since the download is refused', async () => {
    // Same size, same modification time: only the content differs.
    const { mtime } = fs.statSync(entry.path)
    flipByte(entry.path, 100)
    fs.utimesSync(entry.path, mtime, mtime)
    const error = await s.t.err('library.open', { entryId: entry.id })
    expect(error.code).toBe('INTEGRITY_FAILED')
    expect(error.message).toMatch(/^ScanDesk did not open .+: The file changed on disk since it/)
    expect(s.host.opened).toEqual([])
    const [listed] = await ledgerOf(s.t, s.account.id)
    expect(listed).toMatchObject({ id: entry.id, verdict: 'changed' })
    expect(listed.verifiedAt).not.toBeNull()
    // Put back as it was, it opens again.
    flipByte(entry.path, 100)
    expect(await s.t.ok('library.open', { entryId: entry.id })).toEqual({ opened: true })
    expect(s.host.opened).toEqual([entry.path])
  })

  it('says the file is gone rather than opening nothing', async () => {
    fs.rmSync(entry.path)
    expect((await s.t.err('library.open', { entryId: entry.id })).code).toBe('FILE_NOT_FOUND')
  })
})

describe('verifying a file by hand', () => {
  const request = (over: object = {}) => ({
    accountId: s.account.id,
    kind: 'report',
    resourceId: 'rpt-006',
    format: 'pdf',
    ...over,
  })

  it('matches a copy of the report and rejects a copy with one byte changed', async () => {
    const copy = path.join(tempFolder('scandesk-mail-'), 'from a colleague.pdf')
    fs.copyFileSync(entry.path, copy)
    const good = await s.t.ok<FileCheck>('library.verifyFile', request({ path: copy }))
    expect(good).toMatchObject({ path: copy, match: true, sha256: entry.sha256 })
    expect(good.message).toMatch(/exactly the PDF of/)
    flipByte(copy, 200)
    const bad = await s.t.ok<FileCheck>('library.verifyFile', request({ path: copy }))
    expect(bad.match).toBe(false)
    expect(bad.message).toMatch(/is not the PDF of/)
    const other = await s.t.ok<FileCheck>(
      'library.verifyFile',
      request({ path: entry.path, resourceId: 'rpt-007' }),
    )
    expect(other.match).toBe(false)
  })

  it('asks the host for a file and answers null when the picker is cancelled', async () => {
    expect(await s.t.ok('library.verifyFile', request())).toBeNull()
    s.host.answers.file = entry.path
    expect(await s.t.ok<FileCheck>('library.verifyFile', request())).toMatchObject({ match: true })
    const missing = await s.t.err(
      'library.verifyFile',
      request({ path: path.join(s.folder, 'no-such-file.pdf') }),
    )
    expect(missing.code).toBe('FILE_NOT_FOUND')
    // outside the user's home and temp folders and the account's download folders
    const outside = await s.t.err('library.verifyFile', request({ path: '/no/such/file.pdf' }))
    expect(outside.code).toBe('FORBIDDEN')
  })
})

describe('files left behind and the Quarantine folder', () => {
  async function mismatch(resourceId: string): Promise<ExportJob> {
    const job = await s.t.ok<ExportJob>('exports.generate', {
      accountId: s.account.id,
      kind: 'report',
      resourceId,
      format: 'csv',
    })
    await waitForJob(s.t, s.account.id, job.id, ['ready'])
    s.sandbox.setFaults({ corruptDownloads: true })
    try {
      await s.t.ok('exports.download', { jobId: job.id })
      return await waitForJob(s.t, s.account.id, job.id, ['verified', 'failed', 'mismatch'])
    } finally {
      s.sandbox.setFaults({ corruptDownloads: false })
    }
  }

  it('removes stale .partial files of interrupted downloads at start, and nothing else', async () => {
    const stale = path.join(s.folder, '.Some report - rpt-9 - 2026-01-01.pdf.0a1b2c3d4e5f.partial')
    fs.writeFileSync(stale, 'half a file')
    const unrelated = ['notes.partial', '.mine.partial', 'keep.pdf']
    for (const name of unrelated) fs.writeFileSync(path.join(s.folder, name), 'keep')
    await s.t.close()
    await s.reopen()
    expect(fs.existsSync(stale)).toBe(false)
    for (const name of unrelated) expect(fs.existsSync(path.join(s.folder, name))).toBe(true)
    expect(fs.existsSync(entry.path)).toBe(true)
  })

  it('never writes through a symbolic link planted as Quarantine', async () => {
    const elsewhere = tempFolder('scandesk-elsewhere-')
    fs.symlinkSync(elsewhere, path.join(s.folder, 'Quarantine'), 'dir')
    const done = await mismatch('rpt-001')
    expect(done.state).toBe('mismatch')
    expect(done.path).toBeNull()
    expect(done.error?.message).toMatch(/deleted.*Quarantine is a symbolic link/)
    expect(fs.readdirSync(elsewhere)).toEqual([])
    expect(fs.readdirSync(s.folder).sort()).toEqual(
      [path.basename(entry.path), 'Quarantine'].sort(),
    )
  })

  it('re-checks Quarantine when a quarantined file is opened or revealed', async () => {
    const done = await mismatch('rpt-002')
    expect(path.dirname(done.path!)).toBe(path.join(s.folder, 'Quarantine'))
    const quarantined = (await ledgerOf(s.t, s.account.id)).find((e) => e.path === done.path)!
    expect(await s.t.ok('library.open', { entryId: quarantined.id })).toEqual({ opened: true })
    // Quarantine replaced by a link to another folder inside the download folder.
    const decoy = path.join(s.folder, 'decoy')
    fs.mkdirSync(decoy)
    fs.writeFileSync(path.join(decoy, path.basename(done.path!)), 'a,b\n')
    fs.rmSync(path.join(s.folder, 'Quarantine'), { recursive: true })
    fs.symlinkSync(decoy, path.join(s.folder, 'Quarantine'), 'dir')
    const error = await s.t.err('library.open', { entryId: quarantined.id })
    expect(error.code).toBe('FORBIDDEN')
    expect(error.message).toMatch(/symbolic link/)
    expect((await s.t.err('library.reveal', { entryId: quarantined.id })).code).toBe('FORBIDDEN')
    expect(s.host.opened).toEqual([done.path])
    expect(s.host.revealed).toEqual([])
  })
})
