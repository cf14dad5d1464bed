import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { headlessHost } from '../host'
import { useTestHome } from './test-home'
import { chooseSaveTarget, saveFolderOf } from './save-target'

const t = useTestHome('scandesk-save-')

function deps(mode: 'electron' | 'browser', pickSaveAs = headlessHost.pickSaveAs) {
  return {
    mode,
    host: t.host({ pickSaveAs }),
    folders: t.folders(),
  }
}

const req = { accountId: 'acc-1' }

describe('choosing the file to save', () => {
  it('offers the user’s folder and the name to the save dialog, the extension added', async () => {
    const offered: string[] = []
    const d = deps('electron', async (p) => (offered.push(p), path.join(t.home, 'log')))
    expect(saveFolderOf(d, 'acc-1')).toBe(t.home)
    expect(await chooseSaveTarget(d, req, 'Audit log.jsonl', '.jsonl')).toEqual({
      folder: t.home,
      target: path.join(t.home, 'log.jsonl'),
      replace: true,
    })
    expect(offered).toEqual([path.join(t.home, 'Audit log.jsonl')])
  })

  it('saves nothing when the dialog is cancelled, and refuses a path sent to Electron', async () => {
    expect(await chooseSaveTarget(deps('electron'), req, 'x.csv', '.csv')).toEqual({
      saved: false,
    })
    await expect(
      chooseSaveTarget(deps('electron'), { ...req, path: path.join(t.home, 'x.csv') }, 'x', '.csv'),
    ).rejects.toMatchObject({ error: { code: 'FORBIDDEN' } })
  })

  it('suggests a path in browser mode; a typed one replaces a file only when told', async () => {
    const d = deps('browser')
    expect(await chooseSaveTarget(d, req, 'Users.csv', '.csv')).toEqual({
      saved: false,
      suggestedPath: path.join(t.home, 'Users.csv'),
    })
    const file = path.join(t.home, 'USERS.CSV')
    fs.writeFileSync(file, 'old')
    await expect(
      chooseSaveTarget(d, { ...req, path: file }, 'Users.csv', '.csv'),
    ).rejects.toMatchObject({ error: { code: 'CONFLICT' } })
    expect(await chooseSaveTarget(d, { ...req, path: file, replace: true }, 'n', '.csv')).toEqual({
      folder: t.home,
      target: file,
      replace: true,
    })
    fs.mkdirSync(path.join(t.home, 'dir.csv'))
    await expect(
      chooseSaveTarget(d, { ...req, path: path.join(t.home, 'dir.csv') }, 'n', '.csv'),
    ).rejects.toMatchObject({ error: { code: 'VALIDATION' } })
    expect(fs.readFileSync(file, 'utf8')).toBe('old')
  })
})
