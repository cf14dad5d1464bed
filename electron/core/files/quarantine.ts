import path from 'node:path'
import { fileFailure, nodeFileOps, type FileOps } from './fs-ops'
import { safeFileName } from './names'
import { placeWithoutOverwrite } from './place'

/** The folder, inside a download folder, that holds files which failed verification. */
export const QUARANTINE_FOLDER = 'Quarantine'

/**
 * Moves a file that failed verification into `<folder>/Quarantine/` (created when missing) under
 * its own name, or `name (2).pdf`… when taken (never overwrites); returns the new path. Throws
 * FILE_NOT_FOUND, PERMISSION_DENIED, DISK_FULL with a plain message.
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
    await ops.mkdir(target)
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
