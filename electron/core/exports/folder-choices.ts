// Browser mode's first download (and its Downloads settings) offer folders instead of asking for
// a typed path: the folders chosen before and the home folder's subfolders, by name only.
import fs from 'node:fs/promises'
import path from 'node:path'
import type { FolderChoices } from '@contract/files'
import type { DownloadFolders } from './folders'

/** At most this many recent folders and home subfolders are offered. */
export const MAX_RECENT = 8
export const MAX_HOME_FOLDERS = 200

/** True when `folder` is a folder that `check` lets this account type (home, temp, chosen). */
async function usable(folder: string, check: (folder: string) => Promise<string>) {
  try {
    const real = await check(folder)
    return (await fs.stat(real)).isDirectory() ? real : null
  } catch {
    return null
  }
}

/**
 * The folders to offer for `accountId`: the download folders chosen for it and then for the
 * other accounts (`accountIds`, as this ScanDesk knows them), those that still exist and that a
 * typed path of this account may name (DownloadFolders.checkTyped: inside the home or temp folder
 * or one of its own download folders; never ScanDesk's own data folder); and the names of the
 * home folder's subfolders — not hidden ones, not links, not ScanDesk's data folder. Names only:
 * nothing inside them is read.
 */
export async function folderChoices(
  folders: DownloadFolders,
  accountId: string,
  accountIds: readonly string[],
): Promise<FolderChoices> {
  const check = (folder: string) => folders.checkTyped(accountId, folder, 'download folder')
  const candidates = [...new Set([accountId, ...accountIds].flatMap((id) => folders.chosen(id)))]
  const recent: string[] = []
  for (const folder of candidates) {
    if (recent.length >= MAX_RECENT) break
    const real = await usable(folder, check)
    if (real && !recent.includes(real)) recent.push(real)
  }
  const home = await fs.realpath(folders.homeFolder())
  const entries = await fs.readdir(home, { withFileTypes: true }).catch(() => [])
  const homeFolders: string[] = []
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue
    const refused = await folders
      .refuseOwn(path.join(home, entry.name), 'download folder')
      .then(() => false)
      .catch(() => true)
    if (!refused) homeFolders.push(entry.name)
  }
  homeFolders.sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' }))
  return { home, recent, homeFolders: homeFolders.slice(0, MAX_HOME_FOLDERS) }
}
