import path from 'node:path'
import { errnoOf, type FileOps } from './fs-ops'

/** How many "name (n).ext" candidates are tried before giving up. */
export const MAX_CANDIDATES = 1000

/** `report.pdf`, `report (2).pdf`, `report (3).pdf`, … (n = 1 is the name itself). */
export function candidateName(fileName: string, n: number): string {
  if (n <= 1) return fileName
  const dot = fileName.lastIndexOf('.')
  const stem = dot > 0 ? fileName.slice(0, dot) : fileName
  const ext = dot > 0 ? fileName.slice(dot) : ''
  return `${stem} (${n})${ext}`
}

// Hard links are missing on some volumes (FAT, exFAT, some network shares) and across devices.
const NO_LINK = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK'])

/**
 * Moves `from` into `folder` as `fileName`, or `fileName (2)`… when taken: never overwrites.
 * Uses a hard link (atomic, fails on an existing name) then removes `from`; where links are not
 * supported it reserves the name with an exclusive create and renames over its own placeholder,
 * or copies without overwriting across devices. fsyncs the folder; returns the final path. Tries
 * `candidates` names (1: the name itself only); when all are taken, fails with EEXIST.
 */
export async function placeWithoutOverwrite(
  ops: FileOps,
  from: string,
  folder: string,
  fileName: string,
  candidates = MAX_CANDIDATES,
): Promise<string> {
  let linkable = true
  for (let n = 1; n <= candidates; n++) {
    const target = path.join(folder, candidateName(fileName, n))
    if (linkable) {
      try {
        await ops.link(from, target)
        await ops.unlink(from).catch(async (err: unknown) => {
          // Both names would stay: take the new one back so a failure leaves no file behind.
          await ops.unlink(target).catch(() => undefined)
          throw err
        })
        await syncFolders(ops, from, folder)
        return target
      } catch (err) {
        const code = errnoOf(err)
        if (code === 'EEXIST') continue
        if (!code || !NO_LINK.has(code)) throw err
        linkable = false
      }
    }
    if (await placeWithoutLink(ops, from, target)) {
      await syncFolders(ops, from, folder)
      return target
    }
  }
  throw Object.assign(new Error('every candidate name is taken'), { code: 'EEXIST' })
}

/** fsyncs the destination folder, and the source's when it differs (its entry is gone). */
async function syncFolders(ops: FileOps, from: string, folder: string): Promise<void> {
  await ops.syncDir(folder)
  const source = path.dirname(path.resolve(from))
  if (source !== path.resolve(folder)) await ops.syncDir(source)
}

/** One candidate without hard links; false when the name is taken. */
async function placeWithoutLink(ops: FileOps, from: string, target: string): Promise<boolean> {
  // Reserve the name with an exclusive create, then rename over our own placeholder.
  try {
    const placeholder = await ops.open(target, 'wx', 0o600)
    await placeholder.close()
  } catch (err) {
    if (errnoOf(err) === 'EEXIST') return false
    throw err
  }
  try {
    await ops.rename(from, target)
    return true
  } catch (err) {
    await ops.unlink(target).catch(() => undefined)
    if (errnoOf(err) !== 'EXDEV') throw err
  }
  // Another device: copy without overwriting, then remove the original.
  try {
    await ops.copyFileExclusive(from, target)
  } catch (err) {
    if (errnoOf(err) === 'EEXIST') return false
    throw err
  }
  await ops.unlink(from)
  return true
}
