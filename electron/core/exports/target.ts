import os from 'node:os'
import path from 'node:path'
import { fail } from '@contract/errors'
import { SAQ_FOLDER } from '../files/names'
import { ensureRealFolders } from '../files/quarantine'
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
  files: Pick<FileOps, 'documentFileName' | 'saqFileName'>
  accountLabel: (accountId: string) => string
  now: () => Date
}

/** What ScanDesk is doing when it makes the SAQ folder (for refusals). */
const MAKE_SAQ_FOLDER = 'save the SAQ'

/**
 * The account's SAQ folder, `<download folder>/SAQ`, created when missing without following a
 * symbolic link (or accepting a file) planted in its place: FORBIDDEN then.
 */
export async function saqFolder(accountFolder: string): Promise<string> {
  return ensureRealFolders(accountFolder, [SAQ_FOLDER], MAKE_SAQ_FOLDER)
}

/** Our name for a job's file: the reports' `<name> - <id> - <date>`, or the SAQ's own. */
function fileNameOf(deps: TargetDeps, job: ExportJobRow): string {
  if (job.kind === 'saq')
    return deps.files.saqFileName({
      saqType: job.saq?.saqType ?? '',
      name: job.resourceName,
      organization: job.saq?.organization ?? '',
      date: deps.now(),
    })
  return deps.files.documentFileName({
    name: job.resourceName,
    id: job.resourceId,
    format: job.format,
    date: deps.now(),
  })
}

/**
 * The folder and name of a download. "Save as…": the host's save dialog (null = cancelled).
 * Otherwise the account's folder (an SAQ's PDF: its SAQ subfolder); when it has none, the host's
 * folder dialog once (remembered), and NO_FOLDER where there is no dialog (browser mode).
 */
export async function chooseTarget(
  deps: TargetDeps,
  job: ExportJobRow,
  saveAs: boolean,
): Promise<DownloadTarget | null> {
  const { folders, host } = deps
  const name = fileNameOf(deps, job)
  const inner = async (folder: string) => (job.kind === 'saq' ? saqFolder(folder) : folder)
  if (saveAs) {
    const chosen = await host.pickSaveAs(
      path.join(folders.get(job.accountId) ?? os.homedir(), name),
    )
    if (!chosen) return null
    const folder = await checkFolder(path.dirname(chosen))
    await folders.refuseOwn(folder, 'file to save')
    folders.remember(job.accountId, folder)
    const base = path.basename(chosen)
    const ext = `.${job.format}`
    return { folder, fileName: base.toLowerCase().endsWith(ext) ? base : `${base}${ext}` }
  }
  const current = folders.get(job.accountId)
  if (current) {
    const folder = await checkFolder(current)
    await folders.refuseOwn(folder, 'download folder')
    return { folder: await inner(folder), fileName: name }
  }
  const picked = await host.pickFolder(
    `Choose where to save the reports of “${deps.accountLabel(job.accountId)}”`,
  )
  if (!picked) fail('NO_FOLDER', 'Choose a download folder for this account first.')
  const folder = await checkFolder(picked)
  await folders.refuseOwn(folder, 'download folder')
  folders.set(job.accountId, folder)
  return { folder: await inner(folder), fileName: name }
}

/**
 * The target of a retried download: the same folder (checked again) and name. When that folder is
 * the account's SAQ folder, it is made again without following a link planted since.
 */
export async function sameTarget(
  targetPath: string,
  accountFolder: string | null = null,
): Promise<DownloadTarget> {
  const dir = path.dirname(targetPath)
  if (accountFolder && dir === path.join(accountFolder, SAQ_FOLDER))
    return {
      folder: await saqFolder(await checkFolder(accountFolder)),
      fileName: path.basename(targetPath),
    }
  return { folder: await checkFolder(dir), fileName: path.basename(targetPath) }
}
