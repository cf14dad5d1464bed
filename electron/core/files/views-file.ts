import type { SavedViewsFile } from '@contract/views'
import type { DownloadFolders, HostMode } from '../exports/folders'
import type { HostServices } from '../host'
import { readChosenFile } from './chosen-file'
import type { TempJournal } from './pending-temps'
import { safeFileName } from './names'
import { saveFolderOf, saveJsonFile } from './save-target'

/** A views file's size at most (the renderer's reading refuses more as well). */
export const MAX_VIEWS_FILE_BYTES = 1024 * 1024

export interface ViewFilesDeps {
  mode: HostMode
  host: Pick<HostServices, 'pickSaveAs' | 'pickFile' | 'userFolders'>
  folders: DownloadFolders
  accountLabel(accountId: string): string
  now(): Date
  /** Notes each temp file while it is written (the next start removes one a crash left). */
  journal?: TempJournal
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
    return saveJsonFile(this.deps, req, this.defaultName(req.accountId), req.content, 'views file')
  }

  async import(req: {
    accountId: string
    path?: string
  }): Promise<{ read: true; text: string } | { read: false; suggestedFolder?: string }> {
    const chosen = await readChosenFile(this.deps, req, {
      what: 'views file',
      pickTitle: 'Choose a saved views file to import',
      maxBytes: MAX_VIEWS_FILE_BYTES,
      tooLarge: 'This file is larger than 1 MiB: it is not a views file. Nothing was imported.',
    })
    return chosen.read ? { read: true, text: chosen.bytes.toString('utf8') } : chosen
  }
}
