import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AppFailure } from '@contract/errors'
import type { LedgerEntry } from '@contract/files'
import { saqFileName } from '../files/names'
import { headlessHost, type HostServices } from '../host'
import type { AccountClient } from '../http/client'
import { AccountsRepo } from '../store/accounts-repo'
import { openDatabase, type Db } from '../store/database'
import { LedgerRepo } from '../store/ledger-repo'
import { SettingsRepo } from '../store/settings-repo'
import { accountRow } from '../store/test-account'
import type { FileOps } from './file-ops'
import { DownloadFolders } from './folders'
import { Library } from './library'
import { SaqFiles } from './saq-files'

const digest = (b: string | Buffer) => createHash('sha256').update(b).digest('hex')
let dir: string
let folder: string
let src: string
let db: Db
let ledger: LedgerRepo
let folders: DownloadFolders
let saq: SaqFiles
let library: Library
let calls: string[]
let picked: { title: string; types?: string }[]
let pickAnswer: string | null
let changed: string[]
let statuses: Record<string, string>

const client = {
  baseUrl: 'https://scan.example',
  release: 'latest',
  close: () => undefined,
  call: async (op: string, input: { path: { id: string } }) => {
    calls.push(`${op} ${input.path.id}`)
    if (op === 'saq.show')
      return {
        data: {
          id: input.path.id,
          attributes: {
            name: `SAQ ${input.path.id}`,
            saq_type: 'A',
            organization_name: 'Acme Retail',
            status: statuses[input.path.id] ?? 'approved',
            compliance: 'compliant',
            approved_at: '2025-02-01T00:00:00Z',
          },
        },
      }
    throw new Error(`unexpected ${op}`)
  },
} as unknown as AccountClient

const files: Pick<FileOps, 'downloadToFolder' | 'saqFileName' | 'hashFile'> = {
  downloadToFolder: async (req) => {
    calls.push(`download ${req.opId} ${req.input.path.id} ${req.input.query.format}`)
    const body = `%PDF-1.7 ${req.input.path.id}`
    const file = path.join(req.folder, req.fileName)
    fs.writeFileSync(file, body, { flag: 'wx' })
    return { path: file, size: body.length, sha256: digest(body) }
  },
  saqFileName,
  hashFile: async (file) => {
    const bytes = fs.readFileSync(file)
    return { sha256: digest(bytes), size: bytes.length }
  },
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-saqf-'))
  folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-saqf-dl-')))
  src = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-saqf-src-')))
  db = openDatabase(dir)
  new AccountsRepo(db).insert(accountRow({ id: 'acc-1' }))
  folders = new DownloadFolders(new SettingsRepo(db))
  folders.set('acc-1', folder)
  ledger = new LedgerRepo(db)
  calls = []
  picked = []
  pickAnswer = null
  changed = []
  statuses = {}
  const host: HostServices = {
    ...headlessHost,
    pickFile: async (title, types) => {
      picked.push({ title, types })
      return pickAnswer
    },
  }
  const common = {
    ledger,
    folders,
    host,
    clientFor: async () => client,
    libraryChanged: (id: string) => void changed.push(id),
    now: () => new Date('2025-03-04T05:06:07Z'),
  }
  saq = new SaqFiles({
    ...common,
    files,
    accountLabel: () => 'Acme',
    maxDownloadBytes: () => 1024 ** 3,
  })
  library = new Library({ ...common, files })
})
afterEach(() => {
  db.close()
  for (const d of [dir, folder, src]) fs.rmSync(d, { recursive: true, force: true })
})

function source(name: string, text: string): string {
  const file = path.join(src, name)
  fs.writeFileSync(file, text)
  return file
}

const request = (over = {}) => ({
  accountId: 'acc-1',
  saqKey: 'draft-1',
  saqName: 'Shop SAQ',
  saqType: 'A',
  requirement: '8.3.1',
  ...over,
})

async function appError(p: Promise<unknown>) {
  try {
    await p
  } catch (err) {
    if (err instanceof AppFailure) return err.error
    throw err
  }
  throw new Error('expected a failure')
}

describe('attaching evidence', () => {
  it('Electron: opens the file dialog for any file type; cancelling attaches nothing', async () => {
    expect(await saq.attach(request(), 'electron')).toBeNull()
    expect(picked).toEqual([
      { title: 'Choose evidence for requirement 8.3.1 of “Shop SAQ”', types: 'any' },
    ])
    pickAnswer = source('rules.conf', 'deny all')
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
    library = new Library({
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
    expect(await library.open(shot.id)).toEqual({ opened: true })
    expect((await appError(library.open(exe.id))).message).toMatch(/documents and images/)
    expect(await library.reveal(exe.id)).toEqual({ revealed: true })
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

describe('audit bundles', () => {
  it('refuses SAQs that are not approved, naming them, before writing anything', async () => {
    statuses = { 'saq-2': 'draft' }
    const err = await appError(saq.auditBundle('acc-1', ['saq-1', 'saq-2']))
    expect(err.code).toBe('VALIDATION')
    expect(err.message).toContain('“SAQ saq-2” (saq-2, draft)')
    expect(err.message).not.toContain('saq-1')
    expect(fs.readdirSync(folder)).toEqual([])
    expect(calls.filter((c) => c.startsWith('download'))).toEqual([])
  })

  it('writes each SAQ’s PDF and evidence, the manifest and SHA256SUMS, and records the PDFs', async () => {
    const ev = (await saq.attach(
      request({ saqKey: 'saq-1', path: source('policy.txt', 'policy') }),
      'browser',
    ))!
    const bundle = await saq.auditBundle('acc-1', ['saq-1', 'saq-2', 'saq-1'])
    expect(bundle.folder).toBe(path.join(folder, 'SAQ', 'Audit 2025-03-04 05-06-07'))
    expect(calls.filter((c) => c.startsWith('download'))).toEqual([
      'download saq.show saq-1 pdf',
      'download saq.show saq-2 pdf',
    ])
    expect(bundle.files).toEqual([
      {
        path: 'saq-1 - SAQ saq-1/SAQ A - SAQ saq-1 - Acme Retail - 2025-03-04.pdf',
        size: 14,
        sha256: digest('%PDF-1.7 saq-1'),
        saqId: 'saq-1',
        kind: 'saq',
      },
      {
        path: 'saq-1 - SAQ saq-1/Evidence/8.3.1/policy.txt',
        size: 6,
        sha256: ev.sha256,
        saqId: 'saq-1',
        kind: 'saq_evidence',
      },
      {
        path: 'saq-2 - SAQ saq-2/SAQ A - SAQ saq-2 - Acme Retail - 2025-03-04.pdf',
        size: 14,
        sha256: digest('%PDF-1.7 saq-2'),
        saqId: 'saq-2',
        kind: 'saq',
      },
    ])
    const sums = fs.readFileSync(path.join(bundle.folder, 'SHA256SUMS'), 'utf8').split('\n')
    expect(sums.slice(0, 3)).toEqual(bundle.files.map((f) => `${f.sha256}  ${f.path}`))
    expect(sums[3]).toBe(`${digest(fs.readFileSync(bundle.manifest))}  manifest.json`)
    const manifest = JSON.parse(fs.readFileSync(bundle.manifest, 'utf8'))
    expect(manifest).toMatchObject({
      account: 'Acme',
      created_at: '2025-03-04T05:06:07.000Z',
      saqs: [
        {
          id: 'saq-1',
          name: 'SAQ saq-1',
          type: 'A',
          status: 'approved',
          compliance: 'compliant',
          approved_at: '2025-02-01T00:00:00Z',
          files: [
            { kind: 'saq', requirement: null },
            { kind: 'saq_evidence', requirement: '8.3.1', size: 6, sha256: ev.sha256 },
          ],
        },
        { id: 'saq-2' },
      ],
    })
    const recorded = ledger.list().filter((e) => e.kind === 'saq')
    expect(recorded.map((e) => [e.resourceId, e.verdict])).toEqual(
      expect.arrayContaining([
        ['saq-1', 'recorded'],
        ['saq-2', 'recorded'],
      ]),
    )
    // A second bundle in the same second gets a folder of its own.
    const second = await saq.auditBundle('acc-1', ['saq-2'])
    expect(path.basename(second.folder)).toBe('Audit 2025-03-04 05-06-07 (2)')
  })

  it('fails with INTEGRITY_FAILED naming an evidence file that changed, and leaves no bundle', async () => {
    const ev = (await saq.attach(
      request({ saqKey: 'saq-1', path: source('scan.txt', 'clean') }),
      'browser',
    ))!
    fs.writeFileSync(ev.path, 'edited')
    const err = await appError(saq.auditBundle('acc-1', ['saq-1']))
    expect(err.code).toBe('INTEGRITY_FAILED')
    expect(err.message).toContain('scan.txt (requirement 8.3.1 of “SAQ saq-1”)')
    expect(fs.readdirSync(path.join(folder, 'SAQ'))).toEqual(['Evidence'])
    expect(ledger.list().filter((e) => e.kind === 'saq')).toEqual([])
  })

  it('fails naming an evidence file that is gone', async () => {
    const ev = (await saq.attach(
      request({ saqKey: 'saq-1', path: source('gone.txt', 'x') }),
      'browser',
    ))!
    fs.unlinkSync(ev.path)
    const err = await appError(saq.auditBundle('acc-1', ['saq-1']))
    expect(err.code).toBe('FILE_NOT_FOUND')
    expect(err.message).toContain('gone.txt')
    expect(fs.readdirSync(path.join(folder, 'SAQ'))).toEqual(['Evidence'])
  })
})
