import fsp from 'node:fs/promises'
import path from 'node:path'
import { AppFailure } from '@contract/errors'
import { errnoOf, fileFailure, nodeFileOps, type FileOps } from './fs-ops'
import { safeFileName } from './names'
import { placeWithoutOverwrite } from './place'

/** The folder, inside a download folder, that holds files which failed verification. */
export const QUARANTINE_FOLDER = 'Quarantine'

/** A folder ScanDesk makes is not a real folder (a symbolic link or a file was put in its place). */
export class FolderRefused extends AppFailure {}

/** `<folder>/Quarantine` is not a real folder (a symbolic link or a file was put in its place). */
export class QuarantineRefused extends FolderRefused {}

const TO_QUARANTINE = 'move the file to quarantine'

/**
 * Makes sure `target` is a real folder, creating it when missing, without following a symbolic
 * link put in its place: lstat, create, lstat again (a link planted in between is caught too).
 * Throws FORBIDDEN for a link or a non-folder: QuarantineRefused for the Quarantine folder (the
 * default `doing`), FolderRefused for the others (the SAQ folders), `doing` naming the work.
 */
export async function ensureRealFolder(
  target: string,
  ops: FileOps = nodeFileOps,
  doing: string = TO_QUARANTINE,
): Promise<void> {
  const refuse = (error: { code: 'FORBIDDEN'; message: string }) =>
    doing === TO_QUARANTINE ? new QuarantineRefused(error) : new FolderRefused(error)
  for (let attempt = 0; attempt < 3; attempt++) {
    let stat
    try {
      stat = await fsp.lstat(target)
    } catch (err) {
      if (errnoOf(err) !== 'ENOENT') throw err
      await ops.mkdir(target)
      continue
    }
    if (stat.isSymbolicLink())
      throw refuse({
        code: 'FORBIDDEN',
        message: `Could not ${doing}: ${target} is a symbolic link, not a folder: ScanDesk does not write through it. Remove or rename it, then retry.`,
      })
    if (!stat.isDirectory())
      throw refuse({
        code: 'FORBIDDEN',
        message: `Could not ${doing}: ${target} is a file, not a folder: ScanDesk cannot put files ${doing === TO_QUARANTINE ? 'aside there' : 'there'}. Remove or rename it, then retry.`,
      })
    return
  }
  throw Object.assign(new Error('the folder keeps disappearing'), { code: 'ENOENT' })
}

/**
 * Makes `base/parts[0]/parts[1]/…` level by level with `ensureRealFolder` (no level may be a link
 * or a file); `base` itself is the user's folder, checked by the caller. Returns the full path.
 */
export async function ensureRealFolders(
  base: string,
  parts: readonly string[],
  doing: string,
  ops: FileOps = nodeFileOps,
): Promise<string> {
  let current = path.resolve(base)
  for (const part of parts) {
    current = path.join(current, part)
    await ensureRealFolder(current, ops, doing)
  }
  return current
}

/**
 * Moves a file that failed verification into `<folder>/Quarantine/` (created when missing; a
 * symbolic link or a file in its place is refused, never followed) under its own name, or
 * `name (2).pdf`… when taken (never overwrites); returns the new path. Throws FORBIDDEN
 * (QuarantineRefused), FILE_NOT_FOUND, PERMISSION_DENIED, DISK_FULL with a plain message.
 */
export async function quarantineFile(
  file: string,
  folder: string,
  ops: FileOps = nodeFileOps,
): Promise<string> {
  const target = path.join(path.resolve(folder), QUARANTINE_FOLDER)
  try {
    const stat = await ops.stat(file)
    if (!stat.isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' })
  } catch (err) {
    throw fileFailure(err, 'move the file to quarantine', file, 'file')
  }
  try {
    await ensureRealFolder(target, ops)
    return await placeWithoutOverwrite(
      ops,
      path.resolve(file),
      target,
      safeFileName(path.basename(file)),
    )
  } catch (err) {
    throw fileFailure(err, 'move the file to quarantine', target)
  }
}
