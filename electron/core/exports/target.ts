import os from 'node:os'
import path from 'node:path'
import { fail } from '@contract/errors'
import type { HostServices } from '../host'
import type { ExportJobRow } from '../store/export-jobs-repo'
import type { FileOps } from './file-ops'
import { checkFolder, type DownloadFolders } from './folders'

/** Where one download goes: an existing, writable folder and our file name. */
export interface DownloadTarget {
  folder: string
  fileName: string
}

/** What choosing a target needs. */
export interface TargetDeps {
  folders: DownloadFolders
  host: HostServices
  files: Pick<FileOps, 'documentFileName'>
  accountLabel: (accountId: string) => string
  now: () => Date
}

/**
 * The folder and name of a download. "Save as…": the host's save dialog (null = cancelled).
 * Otherwise the account's folder; when it has none, the host's folder dialog once (remembered),
 * and NO_FOLDER where there is no dialog (browser mode).
 */
export async function chooseTarget(
  deps: TargetDeps,
  job: ExportJobRow,
  saveAs: boolean,
): Promise<DownloadTarget | null> {
  const { folders, host } = deps
  const name = deps.files.documentFileName({
    name: job.resourceName,
    id: job.resourceId,
    format: job.format,
    date: deps.now(),
  })
  if (saveAs) {
    const chosen = await host.pickSaveAs(
      path.join(folders.get(job.accountId) ?? os.homedir(), name),
    )
    if (!chosen) return null
    const folder = await checkFolder(path.dirname(chosen))
    folders.remember(job.accountId, folder)
    const base = path.basename(chosen)
    const ext = `.${job.format}`
    return { folder, fileName: base.toLowerCase().endsWith(ext) ? base : `${base}${ext}` }
  }
  const current = folders.get(job.accountId)
  if (current) return { folder: await checkFolder(current), fileName: name }
  const picked = await host.pickFolder(
    `Choose where to save the reports of “${deps.accountLabel(job.accountId)}”`,
  )
  if (!picked) fail('NO_FOLDER', 'Choose a download folder for this account first.')
  const folder = await checkFolder(picked)
  folders.set(job.accountId, folder)
  return { folder, fileName: name }
}

/** The target of a retried download: the same folder (checked again) and name. */
export async function sameTarget(targetPath: string): Promise<DownloadTarget> {
  return {
    folder: await checkFolder(path.dirname(targetPath)),
    fileName: path.basename(targetPath),
  }
}
