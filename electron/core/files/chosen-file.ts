// Reading a file the user chose to import (saved views, an intelligence pack): the open dialog in
// Electron (a sent path refused), a typed path in browser mode judged against the account's
// folders, then read from the descriptor opened where it was judged to be (a link swapped in since
// is refused), never more than `maxBytes`.
import { AppFailure, fail } from '@contract/errors'
import { refuseRendererPath, type DownloadFolders, type HostMode } from '../exports/folders'
import type { HostServices } from '../host'
import { openJudged, readOpenedBytes } from './confined'
import { saveFolderOf } from './save-target'

/** What reading a chosen file needs. */
export interface ChosenFileDeps {
  mode: HostMode
  host: Pick<HostServices, 'pickFile' | 'userFolders'>
  folders: DownloadFolders
}

/** What is imported and how a refusal says so. */
export interface ChosenFileKind {
  /** "views file", "KEV or EPSS file": the words of the refusals. */
  what: string
  /** The open dialog's title. */
  pickTitle: string
  maxBytes: number
  /** The refusal of a file larger than `maxBytes`. */
  tooLarge: string
}

/**
 * The bytes of the file the user chose; `read: false` when the dialog was cancelled or (browser
 * mode, no path sent) with the folder ScanDesk suggests.
 */
export async function readChosenFile(
  deps: ChosenFileDeps,
  req: { accountId: string; path?: string },
  kind: ChosenFileKind,
): Promise<
  { read: true; bytes: Buffer; path: string } | { read: false; suggestedFolder?: string }
> {
  refuseRendererPath(deps.mode, req.path, 'file', kind.what)
  let shown: string
  let real: string
  if (req.path === undefined) {
    if (deps.mode === 'browser')
      return { read: false, suggestedFolder: saveFolderOf(deps, req.accountId) }
    const picked = await deps.host.pickFile(kind.pickTitle, 'any')
    if (!picked) return { read: false }
    shown = picked
    real = await deps.folders.checkPicked(picked, kind.what)
  } else {
    shown = req.path
    real = await deps.folders.checkTyped(req.accountId, req.path, kind.what)
  }
  const { handle, stat } = await openJudged(real, shown).catch((err: unknown) => {
    if (err instanceof AppFailure && err.error.code === 'FILE_NOT_FOUND')
      fail('NOT_FOUND', `There is no file at ${shown}.`)
    throw err
  })
  const tooLarge = () => new AppFailure({ code: 'TOO_LARGE', message: kind.tooLarge })
  try {
    if (stat.size > kind.maxBytes) throw tooLarge()
    return {
      read: true,
      bytes: await readOpenedBytes(handle, kind.maxBytes, tooLarge),
      path: shown,
    }
  } finally {
    await handle.close().catch(() => undefined)
  }
}
