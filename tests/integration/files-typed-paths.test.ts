// Paths from the renderer, through the core's dispatch: in Electron, folders and files come only
// from the OS dialogs main opens (a path sent by the renderer is FORBIDDEN); browser mode takes a
// typed path only inside the user's home (here a temporary folder) or the account's download
// folders, links resolved.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import { addAnalyst, startTestCore, type TestCore } from './core-helpers'
import { recordingHost, tempFolder, type RecordingHost } from './exports-helpers'
import { useSandboxAndCore } from './fixture'

const s = useSandboxAndCore({ each: 'none' })

let root: string
let home: string
let elsewhere: string
let t: TestCore
let host: RecordingHost
let account: AccountView
let picks: string[]

async function start(mode: 'electron' | 'browser'): Promise<void> {
  host = recordingHost()
  host.userFolders = () => [home]
  const { pickFolder, pickFile } = host
  host.pickFolder = async (title, defaultPath) => (
    picks.push(title),
    pickFolder(title, defaultPath)
  )
  host.pickFile = async (title, types) => (picks.push(title), pickFile(title, types))
  t = await startTestCore({ mode, host })
  account = await addAnalyst(t, s.sandbox)
}

beforeEach(() => {
  s.sandbox.reset()
  root = tempFolder('scandesk-typed-')
  home = path.join(root, 'home')
  elsewhere = path.join(root, 'elsewhere')
  fs.mkdirSync(home)
  fs.mkdirSync(elsewhere)
  picks = []
})
afterEach(async () => {
  await t.close()
  fs.rmSync(root, { recursive: true, force: true })
})

function file(dir: string, name: string, text = '%PDF-1.7 x'): string {
  const f = path.join(dir, name)
  fs.mkdirSync(path.dirname(f), { recursive: true })
  fs.writeFileSync(f, text)
  return f
}

// An SAQ with no recorded PDF: this answer means the file was accepted and hashed.
const verifyRequest = (over: object = {}) => ({
  accountId: account.id,
  kind: 'saq',
  resourceId: 'saq-1',
  format: 'pdf',
  ...over,
})
const NOTHING_RECORDED = /no recorded download of the PDF of SAQ saq-1/

const evidenceRequest = (over: object = {}) => ({
  accountId: account.id,
  saqKey: 'saq-1',
  saqName: 'Shop',
  saqType: 'A',
  requirement: '8.3.1',
  ...over,
})

describe('Electron mode: only the dialogs main opens', () => {
  beforeEach(() => start('electron'))

  it('files.setFolder with a folder is FORBIDDEN; without one main opens the folder dialog', async () => {
    const typed = path.join(home, 'Reports')
    fs.mkdirSync(typed)
    const err = await t.err('files.setFolder', { accountId: account.id, folder: typed })
    expect(err.code).toBe('FORBIDDEN')
    expect(err.message).toMatch(/ScanDesk opens the folder dialog itself/)
    expect(picks).toEqual([])
    expect(await t.ok('files.getFolder', { accountId: account.id })).toEqual({ folder: null })

    expect(await t.ok('files.setFolder', { accountId: account.id })).toEqual({ folder: null })
    // what the user chose in the OS dialog is taken, wherever it is
    host.answers.folder = elsewhere
    expect(await t.ok('files.setFolder', { accountId: account.id })).toEqual({ folder: elsewhere })
    expect(picks).toHaveLength(2)
  })

  it('files.folderChoices is FORBIDDEN: the desktop app has the OS folder dialog', async () => {
    fs.mkdirSync(path.join(home, 'Reports'))
    const err = await t.err('files.folderChoices', { accountId: account.id })
    expect(err.code).toBe('FORBIDDEN')
    expect(err.message).toMatch(/folder dialog/)
  })

  it('library.verifyFile with a path is FORBIDDEN; without one main opens the file dialog', async () => {
    const typed = file(home, 'a.pdf')
    const err = await t.err('library.verifyFile', verifyRequest({ path: typed }))
    expect(err.code).toBe('FORBIDDEN')
    expect(err.message).toMatch(/ScanDesk opens the file dialog itself/)
    expect(picks).toEqual([])

    expect(await t.ok('library.verifyFile', verifyRequest())).toBeNull()
    host.answers.file = file(elsewhere, 'picked.pdf')
    expect((await t.err('library.verifyFile', verifyRequest())).message).toMatch(NOTHING_RECORDED)
    expect(picks).toHaveLength(2)
  })

  it('saq.evidence.attach refuses a path the same way', async () => {
    const err = await t.err('saq.evidence.attach', evidenceRequest({ path: file(home, 'e.txt') }))
    expect(err.code).toBe('FORBIDDEN')
    expect(err.message).toMatch(/ScanDesk opens the file dialog itself/)
    expect(picks).toEqual([])
  })
})

describe('browser mode: typed paths inside home or the download folders', () => {
  beforeEach(() => start('browser'))

  it('files.setFolder takes a folder in home, refuses one outside (links resolved)', async () => {
    const outside = await t.err('files.setFolder', { accountId: account.id, folder: elsewhere })
    expect(outside.code).toBe('FORBIDDEN')
    expect(outside.message).toMatch(
      /only inside your home folder, the temp folder or one of this account’s download folders/,
    )
    fs.symlinkSync(elsewhere, path.join(home, 'link-out'))
    const viaLink = await t.err('files.setFolder', {
      accountId: account.id,
      folder: path.join(home, 'link-out'),
    })
    expect(viaLink.code).toBe('FORBIDDEN')
    const missingOutside = path.join(elsewhere, 'nope')
    expect(
      (await t.err('files.setFolder', { accountId: account.id, folder: missingOutside })).code,
    ).toBe('FORBIDDEN')
    const missingInside = path.join(home, 'nope')
    expect(
      (await t.err('files.setFolder', { accountId: account.id, folder: missingInside })).code,
    ).toBe('FILE_NOT_FOUND')
    expect(await t.ok('files.getFolder', { accountId: account.id })).toEqual({ folder: null })

    const reports = path.join(home, 'Reports')
    fs.mkdirSync(reports)
    expect(await t.ok('files.setFolder', { accountId: account.id, folder: reports })).toEqual({
      folder: reports,
    })
  })

  it('files.folderChoices offers the home folder’s subfolders by name, then the folder chosen', async () => {
    for (const d of ['Reports', 'Audits', '.secret']) fs.mkdirSync(path.join(home, d))
    fs.writeFileSync(path.join(home, 'Reports', 'inside.pdf'), '%PDF-1.7 x')
    expect(await t.ok('files.folderChoices', { accountId: account.id })).toEqual({
      home,
      recent: [],
      homeFolders: ['Audits', 'Reports'],
    })
    const picked = path.join(home, 'Reports')
    await t.ok('files.setFolder', { accountId: account.id, folder: picked })
    expect(await t.ok('files.folderChoices', { accountId: account.id })).toMatchObject({
      recent: [picked],
    })
    // a payload with anything more is refused before any folder is read
    const extra = await t.err('files.folderChoices', { accountId: account.id, path: home })
    expect(extra.code).toBe('VALIDATION')
  })

  it('a folder inside one of the account’s download folders is taken, even outside home', async () => {
    host.answers.folder = elsewhere // set earlier through a dialog (or before this rule)
    expect(await t.ok('files.setFolder', { accountId: account.id })).toEqual({ folder: elsewhere })
    const sub = path.join(elsewhere, 'Q1')
    fs.mkdirSync(sub)
    expect(await t.ok('files.setFolder', { accountId: account.id, folder: sub })).toEqual({
      folder: sub,
    })
  })

  it('library.verifyFile takes a file in home or a download folder and refuses one outside', async () => {
    const inHome = file(home, 'mail/a.pdf')
    expect((await t.err('library.verifyFile', verifyRequest({ path: inHome }))).message).toMatch(
      NOTHING_RECORDED,
    )
    const outside = file(elsewhere, 'b.pdf')
    const err = await t.err('library.verifyFile', verifyRequest({ path: outside }))
    expect(err.code).toBe('FORBIDDEN')
    expect(err.message).toMatch(/typed file to verify only inside your home folder/)
    fs.symlinkSync(outside, path.join(home, 'b-link.pdf'))
    expect(
      (await t.err('library.verifyFile', verifyRequest({ path: path.join(home, 'b-link.pdf') })))
        .code,
    ).toBe('FORBIDDEN')

    host.answers.folder = elsewhere
    await t.ok('files.setFolder', { accountId: account.id })
    expect((await t.err('library.verifyFile', verifyRequest({ path: outside }))).message).toMatch(
      NOTHING_RECORDED,
    )
    expect(picks).toHaveLength(1) // the folder dialog only
  })

  it('saq.evidence.attach refuses a typed file outside them', async () => {
    const err = await t.err(
      'saq.evidence.attach',
      evidenceRequest({ path: file(elsewhere, 'e.txt', 'x') }),
    )
    expect(err.code).toBe('FORBIDDEN')
    expect(err.message).toMatch(/typed evidence file only inside your home folder/)
  })
})

// The third hardening round, item 1: a link in a parent folder of a file that does not exist yet
// was left unresolved, and the folder it led to became one of the account's download folders.
describe('browser mode: a folder link cannot lead a typed path out, nor make a folder allowed', () => {
  beforeEach(() => start('browser'))

  const views = { format: 'scandesk-saved-views', version: 1, views: [] }

  it('refuses a new file behind a link at any level, and leaves nothing outside', async () => {
    fs.mkdirSync(path.join(home, 'x'))
    fs.symlinkSync(elsewhere, path.join(home, 'x', 'etc-link'))
    fs.symlinkSync(path.join(home, 'x'), path.join(home, 'up'))
    for (const typed of [
      path.join(home, 'x', 'etc-link', 'proof.csv'),
      path.join(home, 'x', 'etc-link', 'cron.d', 'proof.csv'),
      path.join(home, 'up', 'etc-link', 'proof.csv'),
    ]) {
      const err = await t.err('csv.export', {
        accountId: account.id,
        op: 'vulnerabilities.list',
        path: typed,
      })
      expect(err.code, typed).toBe('FORBIDDEN')
      expect(err.message).toMatch(/only inside your home folder/)
    }
    const viewsErr = await t.err('views.export', {
      accountId: account.id,
      content: views,
      path: path.join(home, 'up', 'etc-link', 'views.json'),
    })
    expect(viewsErr.code).toBe('FORBIDDEN')
    expect(fs.readdirSync(elsewhere)).toEqual([])
  })

  it('an export into home does not make its folder, or one a link led to, a download folder', async () => {
    const secret = file(elsewhere, 'passwd', 'root:x:0:0')
    fs.mkdirSync(path.join(home, 'x'))
    fs.symlinkSync(elsewhere, path.join(home, 'x', 'etc-link'))
    await t.err('csv.export', {
      accountId: account.id,
      op: 'vulnerabilities.list',
      path: path.join(home, 'x', 'etc-link', 'proof.csv'),
    })
    const saved = await t.ok<{ saved: boolean; path: string }>('csv.export', {
      accountId: account.id,
      op: 'vulnerabilities.list',
      path: path.join(home, 'x', 'orgs.csv'),
    })
    expect(saved).toMatchObject({ saved: true, path: path.join(home, 'x', 'orgs.csv') })
    // Nothing outside home became readable or writable, with the link gone too.
    fs.unlinkSync(path.join(home, 'x', 'etc-link'))
    expect((await t.err('views.import', { accountId: account.id, path: secret })).code).toBe(
      'FORBIDDEN',
    )
    const exported = await t.err('views.export', {
      accountId: account.id,
      content: views,
      path: path.join(elsewhere, 'cron.d'),
    })
    expect(exported.code).toBe('FORBIDDEN')
    expect((await t.err('library.verifyFile', verifyRequest({ path: secret }))).code).toBe(
      'FORBIDDEN',
    )
    expect(fs.readdirSync(elsewhere)).toEqual(['passwd'])
  })

  it('refuses a path through a dangling link, which could be pointed anywhere later', async () => {
    fs.symlinkSync(path.join(elsewhere, 'not-yet'), path.join(home, 'dangling'))
    for (const typed of [path.join(home, 'dangling'), path.join(home, 'dangling', 'a.csv')]) {
      const err = await t.err('csv.export', {
        accountId: account.id,
        op: 'vulnerabilities.list',
        path: typed,
        replace: true,
      })
      expect(err.code, typed).toBe('FORBIDDEN')
      expect(err.message).toMatch(/symbolic link that leads nowhere|only inside your home folder/)
    }
    expect(fs.existsSync(path.join(elsewhere, 'not-yet'))).toBe(false)
  })

  it('never imports from, exports into or verifies inside ScanDesk’s own data folder', async () => {
    const db = path.join(t.dataDir, 'scandesk.db')
    expect(fs.existsSync(db)).toBe(true)
    const before = fs.readFileSync(db)
    host.userFolders = () => [home, t.dataDir]
    const exported = await t.err('csv.export', {
      accountId: account.id,
      op: 'vulnerabilities.list',
      path: db,
      replace: true,
    })
    expect(exported.code).toBe('FORBIDDEN')
    expect(exported.message).toMatch(/ScanDesk’s own data folder/)
    expect(fs.readFileSync(db).equals(before)).toBe(true)
    expect((await t.err('views.import', { accountId: account.id, path: db })).code).toBe(
      'FORBIDDEN',
    )
    expect((await t.err('library.verifyFile', verifyRequest({ path: db }))).code).toBe('FORBIDDEN')
    expect(
      (await t.err('files.setFolder', { accountId: account.id, folder: t.dataDir })).code,
    ).toBe('FORBIDDEN')
  })
})

describe('Electron mode: a dialog’s choice inside ScanDesk’s data folder is refused too', () => {
  beforeEach(() => start('electron'))

  it('refuses the data folder as download folder and a file in it to verify', async () => {
    host.answers.folder = t.dataDir
    const err = await t.err('files.setFolder', { accountId: account.id })
    expect(err).toMatchObject({ code: 'FORBIDDEN', message: /ScanDesk’s own data folder/ })
    expect(await t.ok('files.getFolder', { accountId: account.id })).toEqual({ folder: null })
    host.answers.file = path.join(t.dataDir, 'scandesk.db')
    expect((await t.err('library.verifyFile', verifyRequest())).code).toBe('FORBIDDEN')
  })
})
