// Browser mode's offer of download folders: the folders chosen before that this account may type,
// and the names of the home folder's subfolders (no hidden ones, no links, not ScanDesk's data).
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SettingsRepo } from '../store/settings-repo'
import { useTestHome } from '../files/test-home'
import { folderChoices } from './folder-choices'
import { DownloadFolders } from './folders'

const t = useTestHome('scandesk-choices-')

function dirs(...names: string[]): string[] {
  return names.map((n) => {
    const d = path.join(t.home, n)
    fs.mkdirSync(d, { recursive: true })
    return d
  })
}

describe('the folders browser mode offers for a first download', () => {
  it('names the home folder’s subfolders, sorted, without hidden ones, links, files or ScanDesk’s data', async () => {
    dirs('Reports', 'downloads', '.cache', 'ScanDesk data', 'Archive')
    fs.writeFileSync(path.join(t.home, 'notes.txt'), 'not a folder')
    fs.symlinkSync(t.root, path.join(t.home, 'Root link'))
    const own = path.join(t.home, 'ScanDesk data')
    const folders = new DownloadFolders(
      new SettingsRepo(t.db),
      () => [t.home],
      () => [own],
    )
    const offer = await folderChoices(folders, 'acc-1', ['acc-1'])
    expect(offer).toEqual({
      home: t.home,
      recent: [],
      homeFolders: ['Archive', 'downloads', 'Reports'],
    })
  })

  it('offers the folders chosen before, this account’s first, only those it may type and that exist', async () => {
    const [mine, theirs, gone] = dirs('Mine', 'Theirs', 'Gone')
    const outside = path.join(t.root, 'outside')
    fs.mkdirSync(outside)
    const folders = t.folders()
    folders.set('acc-2', theirs)
    folders.set('acc-2', outside) // acc-2 chose a folder outside the home: not acc-1's to type
    folders.set('acc-1', gone)
    folders.set('acc-1', mine)
    fs.rmSync(gone, { recursive: true })
    const offer = await folderChoices(folders, 'acc-1', ['acc-2', 'acc-1'])
    expect(offer.recent).toEqual([mine, theirs])
    // acc-2 may type its own outside folder: it is offered to it
    expect((await folderChoices(folders, 'acc-2', ['acc-1'])).recent).toEqual([
      outside,
      theirs,
      mine,
    ])
  })
})
