import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { LedgerEntry } from '@contract/files'
import { headlessHost } from '../host'
import { AccountsRepo } from '../store/accounts-repo'
import { accountRow } from '../store/test-account'
import { Library } from './library'
import {
  answerPick,
  appError,
  calls,
  changed,
  client,
  db,
  digest,
  files,
  folder,
  folders,
  ledger,
  library,
  picked,
  request,
  saq,
  source,
  useSaqFilesWorld,
} from './test-saq-files'

useSaqFilesWorld()

describe('attaching evidence', () => {
  it('Electron: opens the file dialog for any file type; cancelling attaches nothing', async () => {
    expect(await saq.attach(request(), 'electron')).toBeNull()
    expect(picked).toEqual([
      { title: 'Choose evidence for requirement 8.3.1 of “Shop SAQ”', types: 'any' },
    ])
    answerPick(source('rules.conf', 'deny all'))
    const entry = (await saq.attach(request({ saqStatus: 'approved' }), 'electron'))!
    expect(entry).toMatchObject({
      kind: 'saq_evidence',
      format: 'file',
      verdict: 'recorded',
      resourceId: 'draft-1',
      resourceName: 'Shop SAQ',
      accountLabel: 'Acme',
      sha256: digest('deny all'),
      size: 8,
      saq: { saqType: 'A', status: 'approved', requirement: '8.3.1' },
      path: path.join(folder, 'SAQ', 'Evidence', 'draft-1', '8.3.1', 'rules.conf'),
    })
    expect(changed).toEqual(['acc-1'])
  })

  it('without a download folder refuses before the file dialog opens (issue 36)', async () => {
    new AccountsRepo(db).insert(accountRow({ id: 'acc-2' }))
    answerPick(source('rules.conf', 'deny all'))
    expect(await appError(saq.attach(request({ accountId: 'acc-2' }), 'electron'))).toMatchObject({
      code: 'NO_FOLDER',
    })
    expect(picked).toEqual([])
  })

  it('Electron refuses a path from the renderer; browser mode requires one', async () => {
    const file = source('a.txt', 'x')
    expect(await appError(saq.attach(request({ path: file }), 'electron'))).toMatchObject({
      code: 'FORBIDDEN',
    })
    expect(await appError(saq.attach(request(), 'browser'))).toMatchObject({
      code: 'VALIDATION',
      fieldErrors: { path: ['is required'] },
    })
    expect(picked).toEqual([])
    expect(ledger.list()).toEqual([])
  })

  it('refuses a link planted in the evidence folders and records nothing', async () => {
    const elsewhere = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-else-')))
    fs.mkdirSync(path.join(folder, 'SAQ'))
    fs.symlinkSync(elsewhere, path.join(folder, 'SAQ', 'Evidence'))
    const err = await appError(saq.attach(request({ path: source('a.txt', 'x') }), 'browser'))
    expect(err.code).toBe('FORBIDDEN')
    expect(fs.readdirSync(elsewhere)).toEqual([])
    expect(ledger.list()).toEqual([])
  })
})

describe('removing and linking evidence', () => {
  it('removes ScanDesk’s copy and the row, never the original', async () => {
    const original = source('a.txt', 'x')
    const entry = (await saq.attach(request({ path: original }), 'browser'))!
    expect(await saq.remove(entry.id)).toEqual({ removed: true })
    expect(fs.existsSync(entry.path)).toBe(false)
    expect(fs.readFileSync(original, 'utf8')).toBe('x')
    expect(ledger.get(entry.id)).toBeUndefined()
    // A copy already gone: the row still goes.
    const again = (await saq.attach(request({ path: original }), 'browser'))!
    fs.unlinkSync(again.path)
    expect(await saq.remove(again.id)).toEqual({ removed: true })
    expect(saq.list('acc-1', 'draft-1')).toEqual([])
  })

  it('does not delete a file outside the evidence folder, nor a downloaded report', async () => {
    const outside = source('keep.txt', 'keep')
    const entry: LedgerEntry = {
      ...(await saq.attach(request({ path: source('a.txt', 'x') }), 'browser'))!,
    }
    db.prepare('UPDATE file_ledger SET path = ? WHERE id = ?').run(outside, entry.id)
    expect((await appError(saq.remove(entry.id))).code).toBe('FORBIDDEN')
    expect(fs.existsSync(outside)).toBe(true)
    // Inside the download folder but not under SAQ/Evidence.
    const report = path.join(folder, 'report.pdf')
    fs.writeFileSync(report, '%PDF-')
    db.prepare('UPDATE file_ledger SET path = ? WHERE id = ?').run(report, entry.id)
    expect((await appError(saq.remove(entry.id))).code).toBe('FORBIDDEN')
    expect(fs.existsSync(report)).toBe(true)
    db.prepare("UPDATE file_ledger SET kind = 'report', format = 'pdf' WHERE id = ?").run(entry.id)
    expect((await appError(saq.remove(entry.id))).code).toBe('VALIDATION')
  })

  it('re-points a draft’s evidence to the submitted SAQ id, only that account’s and kind’s', async () => {
    const a = (await saq.attach(request({ path: source('a.txt', 'a') }), 'browser'))!
    const b = (await saq.attach(
      request({ path: source('b.txt', 'b'), requirement: '12.1' }),
      'browser',
    ))!
    expect(saq.link('acc-1', 'draft-1', 'saq-7')).toEqual({ linked: 2 })
    expect(saq.list('acc-1', 'saq-7').map((e) => e.id)).toEqual([a.id, b.id])
    expect(saq.list('acc-1', 'draft-1')).toEqual([])
    expect(fs.existsSync(a.path)).toBe(true)
    expect(saq.link('acc-1', 'draft-1', 'saq-7')).toEqual({ linked: 0 })
  })
})

describe('the library with recorded SAQ files', () => {
  it('re-verifies evidence offline and online against its record, with no service call', async () => {
    const entry = (await saq.attach(request({ path: source('a.txt', 'x') }), 'browser'))!
    const offline = await library.reverify(entry.id, 'offline')
    expect(offline).toMatchObject({ verdict: 'recorded' })
    expect(offline.detail).toMatch(/^Unchanged since it was attached/)
    const online = await library.reverify(entry.id, 'online')
    expect(online.verdict).toBe('recorded')
    expect(online.detail).toMatch(/offers no check for SAQ files/)
    expect(calls).toEqual([])
    fs.writeFileSync(entry.path, 'y')
    expect((await library.reverify(entry.id, 'online')).verdict).toBe('changed')
    fs.writeFileSync(entry.path, 'x')
    expect((await library.reverify(entry.id, 'offline')).verdict).toBe('recorded')
    fs.unlinkSync(entry.path)
    expect((await library.reverify(entry.id, 'offline')).verdict).toBe('missing')
  })

  it('opens evidence of document and image types only; reveals any', async () => {
    const opened: string[] = []
    const revealed: string[] = []
    const own = new Library({
      ledger,
      folders,
      files,
      host: {
        ...headlessHost,
        openPath: async (p) => (opened.push(p), true),
        revealPath: async (p) => (revealed.push(p), true),
      },
      clientFor: async () => client,
      libraryChanged: () => undefined,
      now: () => new Date(),
    })
    const shot = (await saq.attach(request({ path: source('shot.PNG', 'png') }), 'browser'))!
    const exe = (await saq.attach(request({ path: source('tool.exe', 'MZ') }), 'browser'))!
    expect(await own.open(shot.id)).toEqual({ opened: true })
    expect((await appError(own.open(exe.id))).message).toMatch(/documents and images/)
    expect(await own.reveal(exe.id)).toEqual({ revealed: true })
    expect(opened).toEqual([shot.path])
    expect(revealed).toEqual([exe.path])
  })

  it('"Verify a file…" of an SAQ compares with its recorded PDFs, and says when there is none', async () => {
    const file = source('emailed.pdf', '%PDF-1.7 saq-1')
    const verify = () =>
      library.verifyFile(
        {
          accountId: 'acc-1',
          kind: 'saq',
          resourceId: 'saq-1',
          format: 'pdf',
          path: file,
        },
        'browser',
      )
    expect(await appError(verify())).toMatchObject({
      code: 'FILE_NOT_FOUND',
      message: expect.stringMatching(/no recorded download of the PDF of SAQ saq-1/),
    })
    await saq.auditBundle('acc-1', ['saq-1'])
    const check = (await verify())!
    expect(check.match).toBe(true)
    expect(check.message).toMatch(/exactly the PDF of “SAQ saq-1” as ScanDesk downloaded it/)
    fs.writeFileSync(file, '%PDF-1.7 other')
    expect((await verify())!.match).toBe(false)
    expect(calls.filter((c) => c.startsWith('reports'))).toEqual([])
  })
})
