import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DownloadFolders } from '../exports/folders'
import { headlessHost } from '../host'
import { openDatabase, type Db } from '../store/database'
import { SettingsRepo } from '../store/settings-repo'
import { chooseSaveTarget, saveFolderOf } from './save-target'

let root: string
let home: string
let db: Db

function deps(mode: 'electron' | 'browser', pickSaveAs = headlessHost.pickSaveAs) {
  return {
    mode,
    host: { ...headlessHost, userFolders: () => [home], pickSaveAs },
    folders: new DownloadFolders(new SettingsRepo(db), () => [home]),
  }
}

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-save-')))
  home = path.join(root, 'home')
  fs.mkdirSync(home)
  db = openDatabase(path.join(root, 'data'))
})
afterEach(() => {
  db.close()
  fs.rmSync(root, { recursive: true, force: true })
})

const req = { accountId: 'acc-1' }

describe('choosing the file to save', () => {
  it('offers the user’s folder and the name to the save dialog, the extension added', async () => {
    const offered: string[] = []
    const d = deps('electron', async (p) => (offered.push(p), path.join(home, 'log')))
    expect(saveFolderOf(d, 'acc-1')).toBe(home)
    expect(await chooseSaveTarget(d, req, 'Audit log.jsonl', '.jsonl')).toEqual({
      folder: home,
      target: path.join(home, 'log.jsonl'),
      replace: true,
    })
    expect(offered).toEqual([path.join(home, 'Audit log.jsonl')])
  })

  it('saves nothing when the dialog is cancelled, and refuses a path sent to Electron', async () => {
    expect(await chooseSaveTarget(deps('electron'), req, 'x.csv', '.csv')).toEqual({
      saved: false,
    })
    await expect(
      chooseSaveTarget(deps('electron'), { ...req, path: path.join(home, 'x.csv') }, 'x', '.csv'),
    ).rejects.toMatchObject({ error: { code: 'FORBIDDEN' } })
  })

  it('suggests a path in browser mode; a typed one replaces a file only when told', async () => {
    const d = deps('browser')
    expect(await chooseSaveTarget(d, req, 'Users.csv', '.csv')).toEqual({
      saved: false,
      suggestedPath: path.join(home, 'Users.csv'),
    })
    const file = path.join(home, 'USERS.CSV')
    fs.writeFileSync(file, 'old')
    await expect(
      chooseSaveTarget(d, { ...req, path: file }, 'Users.csv', '.csv'),
    ).rejects.toMatchObject({ error: { code: 'CONFLICT' } })
    expect(await chooseSaveTarget(d, { ...req, path: file, replace: true }, 'n', '.csv')).toEqual({
      folder: home,
      target: file,
      replace: true,
    })
    fs.mkdirSync(path.join(home, 'dir.csv'))
    await expect(
      chooseSaveTarget(d, { ...req, path: path.join(home, 'dir.csv') }, 'n', '.csv'),
    ).rejects.toMatchObject({ error: { code: 'VALIDATION' } })
    expect(fs.readFileSync(file, 'utf8')).toBe('old')
  })
})
