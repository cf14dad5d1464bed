import fsp from 'node:fs/promises'
import path from 'node:path'
import type { SavedViewsFile } from '@contract/views'
import { AppFailure, fail } from '@contract/errors'
import { refuseRendererPath, type DownloadFolders, type HostMode } from '../exports/folders'
import type { HostServices } from '../host'
import { writeAtomically } from './atomic-write'
import { safeFileName } from './names'
import { chooseSaveTarget, saveFolderOf } from './save-target'

/** A views file's size at most (the renderer's reading refuses more as well). */
export const MAX_VIEWS_FILE_BYTES = 1024 * 1024

export interface ViewFilesDeps {
  mode: HostMode
  host: Pick<HostServices, 'pickSaveAs' | 'pickFile' | 'userFolders'>
  folders: DownloadFolders
  accountLabel(accountId: string): string
  now(): Date
}

/**
 * An account's saved views as a JSON file: exported where the user chooses (the save dialog, or a
 * typed path inside the user's folders in browser mode), written atomically; imported from a file
 * the user chooses (the open dialog, or a typed path), at most 1 MiB, handed to the renderer as
 * text to be checked against the views schema there (all or nothing).
 */
export class ViewFiles {
  constructor(private readonly deps: ViewFilesDeps) {}

  private home(accountId: string): string {
    return saveFolderOf(this.deps, accountId)
  }

  /** `Saved views - <account label> - <YYYY-MM-DD>.json`, safe for every OS. */
  defaultName(accountId: string): string {
    const date = this.deps.now().toISOString().slice(0, 10)
    return safeFileName(`Saved views - ${this.deps.accountLabel(accountId)} - ${date}.json`)
  }

  async export(req: {
    accountId: string
    content: SavedViewsFile
    path?: string
    replace?: boolean
  }): Promise<{ saved: true; path: string } | { saved: false; suggestedPath?: string }> {
    const chosen = await chooseSaveTarget(this.deps, req, this.defaultName(req.accountId), '.json')
    if (!('target' in chosen)) return chosen
    const { folder, target, replace } = chosen
    await writeAtomically(
      folder,
      path.basename(target),
      `${JSON.stringify(req.content, null, 2)}\n`,
      {
        place: replace ? 'replace' : 'new',
        doing: 'save the views file',
        taken: (file) =>
          new AppFailure({
            code: 'CONFLICT',
            message: `A file appeared at ${file} meanwhile; it was kept. Export again to replace it.`,
          }),
      },
    )
    return { saved: true, path: target }
  }

  async import(req: {
    accountId: string
    path?: string
  }): Promise<{ read: true; text: string } | { read: false; suggestedFolder?: string }> {
    const { deps } = this
    refuseRendererPath(deps.mode, req.path, 'file', 'views file')
    let file: string
    if (req.path === undefined) {
      if (deps.mode === 'browser') return { read: false, suggestedFolder: this.home(req.accountId) }
      const picked = await deps.host.pickFile('Choose a saved views file to import', 'any')
      if (!picked) return { read: false }
      file = picked
    } else file = await deps.folders.checkTyped(req.accountId, req.path, 'views file')
    const stat = await fsp.stat(file).catch(() => null)
    if (!stat?.isFile()) fail('NOT_FOUND', `There is no file at ${file}.`)
    if (stat.size > MAX_VIEWS_FILE_BYTES)
      fail(
        'TOO_LARGE',
        'This file is larger than 1 MiB: it is not a views file. Nothing was imported.',
      )
    return { read: true, text: await fsp.readFile(file, 'utf8') }
  }
}
