// Paths from the renderer: refused in Electron (main opens the OS dialog), and in browser mode
// limited to the user's home (and temp) folder and the account's download folders, links resolved.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AppFailure } from '@contract/errors'
import { headlessHost, type HostServices } from '../host'
import type { AccountClient } from '../http/client'
import { AccountsRepo } from '../store/accounts-repo'
import { openDatabase, type Db } from '../store/database'
import { LedgerRepo } from '../store/ledger-repo'
import { SettingsRepo } from '../store/settings-repo'
import { accountRow } from '../store/test-account'
import { DownloadFolders, defaultUserFolders, refuseRendererPath } from './folders'
import { Library } from './library'

let root: string
let home: string
let downloads: string
let elsewhere: string
let db: Db
let folders: DownloadFolders

async function appError(p: Promise<unknown> | (() => unknown)) {
  try {
    await (typeof p === 'function' ? p() : p)
  } catch (err) {
    if (err instanceof AppFailure) return err.error
    throw err
  }
  throw new Error('expected an AppFailure')
}

function file(dir: string, name: string, text = 'x'): string {
  const f = path.join(dir, name)
  fs.mkdirSync(path.dirname(f), { recursive: true })
  fs.writeFileSync(f, text)
  return f
}

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-typed-')))
  home = path.join(root, 'home')
  downloads = path.join(root, 'downloads')
  elsewhere = path.join(root, 'elsewhere')
  for (const d of [home, downloads, elsewhere, path.join(root, 'data')]) fs.mkdirSync(d)
  db = openDatabase(path.join(root, 'data'))
  new AccountsRepo(db).insert(accountRow({ id: 'acc-1' }))
  new AccountsRepo(db).insert(accountRow({ id: 'acc-2' }))
  folders = new DownloadFolders(new SettingsRepo(db), () => [home])
  folders.set('acc-1', downloads)
})
afterEach(() => {
  db.close()
  fs.rmSync(root, { recursive: true, force: true })
})

describe('refuseRendererPath', () => {
  it('refuses a path from the renderer in Electron and says ScanDesk opens the dialog itself', () => {
    expect(() =>
      refuseRendererPath('electron', '/home/me/Reports', 'folder', 'download folder'),
    ).toThrow(/ScanDesk opens the folder dialog itself: choose the download folder there/)
    const err = (() => {
      try {
        refuseRendererPath('electron', '/home/me/a.pdf', 'file', 'file to verify')
      } catch (e) {
        return (e as AppFailure).error
      }
    })()
    expect(err).toMatchObject({ code: 'FORBIDDEN', message: /opens the file dialog itself/ })
  })

  it('lets Electron without a path (main opens the dialog) and browser mode with one through', () => {
    expect(() => refuseRendererPath('electron', undefined, 'folder', 'x')).not.toThrow()
    expect(() => refuseRendererPath('browser', '/home/me/a.pdf', 'file', 'x')).not.toThrow()
  })
})

describe('DownloadFolders.checkTyped (browser mode)', () => {
  it('takes a path inside home or one of the account’s download folders and returns its real path', async () => {
    const a = file(home, 'Reports/a.pdf')
    expect(await folders.checkTyped('acc-1', a, 'file to verify')).toBe(a)
    expect(await folders.checkTyped('acc-1', home, 'download folder')).toBe(home)
    const b = file(downloads, 'b.pdf')
    expect(await folders.checkTyped('acc-1', b, 'file to verify')).toBe(b)
  })

  it('refuses a path outside them, naming the rule; another account’s folders do not count', async () => {
    const c = file(elsewhere, 'c.pdf')
    const err = await appError(folders.checkTyped('acc-1', c, 'file to verify'))
    expect(err.code).toBe('FORBIDDEN')
    expect(err.message).toMatch(
      /typed file to verify only inside your home folder, the temp folder or one of this account’s download folders/,
    )
    expect(err.message).toContain(c)
    const b = file(downloads, 'b.pdf')
    expect((await appError(folders.checkTyped('acc-2', b, 'file to verify'))).code).toBe(
      'FORBIDDEN',
    )
    const up = path.join(home, '..', 'elsewhere', 'c.pdf')
    expect((await appError(folders.checkTyped('acc-1', up, 'file'))).code).toBe('FORBIDDEN')
    expect((await appError(folders.checkTyped('acc-1', '/', 'download folder'))).code).toBe(
      'FORBIDDEN',
    )
  })

  it('resolves links: a link in home that leads out is refused, one that stays inside is taken', async () => {
    const c = file(elsewhere, 'c.pdf')
    fs.symlinkSync(elsewhere, path.join(home, 'out'))
    const viaLink = path.join(home, 'out', 'c.pdf')
    expect((await appError(folders.checkTyped('acc-1', viaLink, 'file'))).code).toBe('FORBIDDEN')
    expect(
      (await appError(folders.checkTyped('acc-1', path.join(home, 'out'), 'download folder'))).code,
    ).toBe('FORBIDDEN')
    fs.symlinkSync(c, path.join(home, 'c-link.pdf'))
    expect(
      (await appError(folders.checkTyped('acc-1', path.join(home, 'c-link.pdf'), 'file'))).code,
    ).toBe('FORBIDDEN')
    const a = file(home, 'Reports/a.pdf')
    fs.symlinkSync(path.join(home, 'Reports'), path.join(home, 'r'))
    expect(await folders.checkTyped('acc-1', path.join(home, 'r', 'a.pdf'), 'file')).toBe(a)
  })

  it('judges a home reached through a link by its real path', async () => {
    const linkedHome = path.join(root, 'home-link')
    fs.symlinkSync(home, linkedHome)
    const viaLinkedHome = new DownloadFolders(new SettingsRepo(db), () => [linkedHome])
    const a = file(home, 'a.pdf')
    expect(await viaLinkedHome.checkTyped('acc-2', a, 'file')).toBe(a)
    expect(await viaLinkedHome.checkTyped('acc-2', path.join(linkedHome, 'a.pdf'), 'file')).toBe(a)
  })

  it('a missing path outside is refused (not "not found"), one inside is returned as typed', async () => {
    const missing = path.join(elsewhere, 'nope.pdf')
    expect((await appError(folders.checkTyped('acc-1', missing, 'file'))).code).toBe('FORBIDDEN')
    const inside = path.join(home, 'nope.pdf')
    expect(await folders.checkTyped('acc-1', inside, 'file')).toBe(inside)
  })

  it('takes typed paths only in folders chosen as download folders, not in ones files were saved to', async () => {
    const c = file(elsewhere, 'c.pdf')
    folders.remember('acc-1', elsewhere) // a "Save as…" into it: its files may be opened
    expect(folders.known('acc-1')).toEqual([downloads, elsewhere])
    expect((await appError(folders.checkTyped('acc-1', c, 'file'))).code).toBe('FORBIDDEN')
    expect(await folders.openable('acc-1', file(elsewhere, 'r.pdf'))).toBe(
      path.join(elsewhere, 'r.pdf'),
    )
    folders.set('acc-1', elsewhere)
    folders.set('acc-1', downloads) // chosen before, still one of the account's download folders
    expect(folders.chosen('acc-1')).toEqual([downloads, elsewhere])
    expect(await folders.checkTyped('acc-1', c, 'file')).toBe(c)
    folders.forget('acc-1')
    expect(folders.known('acc-1')).toEqual([])
  })

  it('judges a new file behind a link in any parent folder by where the link leads', async () => {
    fs.mkdirSync(path.join(home, 'x'))
    fs.symlinkSync(elsewhere, path.join(home, 'x', 'etc-link'))
    fs.symlinkSync(path.join(home, 'x'), path.join(home, 'x-link'))
    for (const typed of [
      path.join(home, 'x', 'etc-link', 'proof.csv'),
      path.join(home, 'x-link', 'etc-link', 'new', 'proof.csv'),
    ])
      expect((await appError(folders.checkTyped('acc-1', typed, 'file'))).code, typed).toBe(
        'FORBIDDEN',
      )
    expect(
      await folders.checkTyped('acc-1', path.join(home, 'x-link', 'new', 'a.csv'), 'file'),
    ).toBe(path.join(home, 'x', 'new', 'a.csv'))
    fs.symlinkSync(path.join(home, 'later'), path.join(home, 'dangling'))
    expect(
      await appError(folders.checkTyped('acc-1', path.join(home, 'dangling', 'a.csv'), 'file')),
    ).toMatchObject({ code: 'FORBIDDEN', message: /symbolic link that leads nowhere/ })
  })

  it('refuses ScanDesk’s own data folder, typed or picked, even inside home', async () => {
    const data = path.join(home, '.local', 'share', 'scandesk')
    fs.mkdirSync(data, { recursive: true })
    fs.symlinkSync(data, path.join(home, 'data-link'))
    const guarded = new DownloadFolders(
      new SettingsRepo(db),
      () => [home],
      () => [data],
    )
    for (const typed of [path.join(data, 'scandesk.db'), path.join(home, 'data-link', 'new.csv')])
      expect(await appError(guarded.checkTyped('acc-1', typed, 'views file'))).toMatchObject({
        code: 'FORBIDDEN',
        message: /views file may not lie in ScanDesk’s own data folder/,
      })
    expect((await appError(guarded.checkPicked(path.join(data, 'x.json'), 'file'))).code).toBe(
      'FORBIDDEN',
    )
    const beside = file(home, '.local/share/other.json')
    expect(await guarded.checkPicked(beside, 'file')).toBe(beside)
  })

  it('refuses a relative path', async () => {
    expect(await appError(folders.checkTyped('acc-1', 'Reports/a.pdf', 'file'))).toMatchObject({
      code: 'VALIDATION',
      message: 'The file must be an absolute path.',
    })
  })

  it('by default takes the home and the temp directory', () => {
    expect(defaultUserFolders()).toEqual([os.homedir(), os.tmpdir()])
  })
})

describe('Library.verifyFile and typed paths', () => {
  let picked: string[]
  let pickAnswer: string | null
  let library: Library

  beforeEach(() => {
    picked = []
    pickAnswer = null
    const host: HostServices = {
      ...headlessHost,
      pickFile: async (title) => {
        picked.push(title)
        return pickAnswer
      },
    }
    library = new Library({
      ledger: new LedgerRepo(db),
      folders,
      files: {
        hashFile: async (f) => ({ sha256: 'a'.repeat(64), size: fs.statSync(f).size }),
      },
      host,
      clientFor: async () => ({}) as AccountClient,
      libraryChanged: () => undefined,
      now: () => new Date('2025-03-04T05:06:07Z'),
    })
  })

  const request = (over: object = {}) => ({
    accountId: 'acc-1',
    kind: 'saq' as const,
    resourceId: 'saq-1',
    format: 'pdf' as const,
    ...over,
  })
  // An SAQ with no recorded PDF: reaching this error means the path was accepted and hashed.
  const NOTHING_RECORDED = /no recorded download of the PDF of SAQ saq-1/

  it('Electron refuses a path from the renderer and does not open the dialog', async () => {
    const a = file(home, 'a.pdf')
    expect(await appError(library.verifyFile(request({ path: a }), 'electron'))).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/opens the file dialog itself/),
    })
    expect(picked).toEqual([])
  })

  it('Electron without a path opens the file dialog (null when cancelled)', async () => {
    expect(await library.verifyFile(request(), 'electron')).toBeNull()
    pickAnswer = file(elsewhere, 'picked.pdf')
    expect((await appError(library.verifyFile(request(), 'electron'))).message).toMatch(
      NOTHING_RECORDED,
    )
    expect(picked).toHaveLength(2)
  })

  it('browser mode takes a typed file inside home or the download folders only', async () => {
    const inHome = file(home, 'a.pdf')
    expect(
      (await appError(library.verifyFile(request({ path: inHome }), 'browser'))).message,
    ).toMatch(NOTHING_RECORDED)
    const inDownloads = file(downloads, 'b.pdf')
    expect(
      (await appError(library.verifyFile(request({ path: inDownloads }), 'browser'))).message,
    ).toMatch(NOTHING_RECORDED)
    const outside = file(elsewhere, 'c.pdf')
    expect((await appError(library.verifyFile(request({ path: outside }), 'browser'))).code).toBe(
      'FORBIDDEN',
    )
    const missing = path.join(home, 'gone.pdf')
    expect((await appError(library.verifyFile(request({ path: missing }), 'browser'))).code).toBe(
      'FILE_NOT_FOUND',
    )
    expect(picked).toEqual([])
  })
})
