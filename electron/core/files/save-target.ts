import fsp from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { AppFailure, fail } from '@contract/errors'
import {
  checkFolder,
  refuseRendererPath,
  type DownloadFolders,
  type HostMode,
} from '../exports/folders'
import type { HostServices } from '../host'
import { writeAtomically } from './atomic-write'
import { leftFolder } from './confined'
import type { TempJournal } from './pending-temps'

/** What choosing a file to save needs. */
export interface SaveTargetDeps {
  mode: HostMode
  host: Pick<HostServices, 'pickSaveAs' | 'userFolders'>
  folders: DownloadFolders
}

/** The file to write: its (checked) folder, its path, and whether a file there may be replaced. */
export interface SaveTarget {
  folder: string
  target: string
  replace: boolean
}

/** Nothing to write: the dialog was cancelled, or (browser mode) the path ScanDesk suggests. */
export interface NotSaved {
  saved: false
  suggestedPath?: string
}

/** Where ScanDesk suggests saving an account's files: its download folder, else the user's. */
export function saveFolderOf(
  deps: { host: Pick<HostServices, 'userFolders'>; folders: Pick<DownloadFolders, 'get'> },
  accountId: string,
): string {
  return deps.folders.get(accountId) ?? deps.host.userFolders?.()[0] ?? os.homedir()
}

/**
 * The file the user chose to save `name` as. Electron: the save dialog in main (a path from the
 * renderer refused; cancelled → not saved; the dialog asked before replacing). Browser mode:
 * without a path, the suggested one (the account's folder and `name`); with a typed path inside
 * the user's folders, a file already there is replaced only with `replace`. The name gets
 * `extension` when it lacks it; a folder at the target is refused (VALIDATION), a file there not
 * to be replaced too (CONFLICT).
 */
export async function chooseSaveTarget(
  deps: SaveTargetDeps,
  req: { accountId: string; path?: string; replace?: boolean },
  name: string,
  extension: string,
): Promise<SaveTarget | NotSaved> {
  refuseRendererPath(deps.mode, req.path, 'file', 'file to save')
  const suggested = path.join(saveFolderOf(deps, req.accountId), name)
  let chosen: string
  let replace: boolean
  if (req.path === undefined) {
    if (deps.mode === 'browser') return { saved: false, suggestedPath: suggested }
    const picked = await deps.host.pickSaveAs(suggested)
    if (!picked) return { saved: false }
    chosen = await deps.folders.checkPicked(picked, 'file to save')
    replace = true
  } else {
    chosen = await deps.folders.checkTyped(req.accountId, req.path, 'file to save')
    replace = req.replace === true
  }
  const folder = await checkFolder(path.dirname(chosen))
  // The folder was judged by its real path: one that leads elsewhere now was swapped meanwhile.
  if (folder !== path.dirname(chosen)) throw leftFolder(path.dirname(chosen))
  const base = path.basename(chosen)
  const has = base.toLowerCase().endsWith(extension)
  const target = path.join(folder, has ? base : `${base}${extension}`)
  const existing = await fsp.lstat(target).catch(() => null)
  if (existing?.isDirectory()) fail('VALIDATION', `${target} is a folder; choose a file name.`)
  if (existing && !replace)
    fail('CONFLICT', `There is already a file at ${target}. Replace it, or choose another name.`)
  return { folder, target, replace }
}

/**
 * Saves `content` as a JSON file (two-space indented, a final newline) where the user chooses
 * (chooseSaveTarget), written atomically; a file that appeared at the chosen place meanwhile is
 * kept, and the save refused (CONFLICT). `what` names the file in messages ("views file").
 */
export async function saveJsonFile(
  deps: SaveTargetDeps & { journal?: TempJournal },
  req: { accountId: string; path?: string; replace?: boolean },
  name: string,
  content: unknown,
  what: string,
): Promise<{ saved: true; path: string } | NotSaved> {
  const chosen = await chooseSaveTarget(deps, req, name, '.json')
  if (!('target' in chosen)) return chosen
  const { folder, target, replace } = chosen
  await writeAtomically(folder, path.basename(target), `${JSON.stringify(content, null, 2)}\n`, {
    place: replace ? 'replace' : 'new',
    doing: `save the ${what}`,
    confined: true,
    journal: deps.journal,
    taken: (at) =>
      new AppFailure({
        code: 'CONFLICT',
        message: `A file appeared at ${at} meanwhile; it was kept. Export again to replace it.`,
      }),
  })
  return { saved: true, path: target }
}
