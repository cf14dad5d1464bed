// Writing a file atomically: the whole text goes to a temp file beside its final name, is fsynced,
// then takes the name in one step and the folder is fsynced, so the name never shows a partial
// file, even after a crash. Streams (downloads, copies) write their own temp file and share the
// last step, `placeWithoutOverwrite`.
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { AppFailure } from '@contract/errors'
import {
  confirmRealFolder,
  isOpenedAt,
  isRealFolder,
  leftFolder,
  pathOfDescriptor,
} from './confined'
import {
  errnoOf,
  fileFailure,
  nodeFileOps,
  removeQuietly,
  type FileOps,
  type WritableFile,
} from './fs-ops'
import { partialName } from './names'
import type { TempJournal } from './pending-temps'
import { placeWithoutOverwrite } from './place'

/** How an atomic write takes its name. */
export type Placement =
  /** Over a file already there (the user chose to replace it): a rename. */
  | 'replace'
  /** Only where no file is: a file there (or one that appeared meanwhile) is kept, and `taken`. */
  | 'new'
  /** At the name, or the first free of `name (2)`, `name (3)`, …: never overwrites. */
  | 'next-free'

/** How to write one file atomically. */
export interface AtomicWriteOptions {
  place: Placement
  /** What ScanDesk was doing, for a failure's message ("save the CSV file"). */
  doing: string
  /** `new`: the failure when a file is at the name (default: CONFLICT, the file was kept). */
  taken?: (target: string) => AppFailure
  /** The new file's mode before the umask (default 0600: for this user only). */
  mode?: number
  /** The file system layer (tests inject failures); default the real one. */
  ops?: FileOps
  /**
   * `folder` is a real path judged by the caller (a typed path in browser mode): the write is
   * refused (FORBIDDEN, nothing left behind) if a link replaces it or a folder above it before the
   * temp file is created, while it is written or before it takes its name.
   */
  confined?: boolean
  /**
   * Notes the temp file while it exists (a folder the start-up sweep of download folders does not
   * read: the next start removes a temp file a crash left there; see pending-temps.ts).
   */
  journal?: TempJournal
}

function keptFile(target: string): AppFailure {
  return new AppFailure({
    code: 'CONFLICT',
    message: `A file appeared at ${target} meanwhile; it was kept.`,
  })
}

/**
 * Writes `text` (UTF-8) to `folder/fileName` atomically: a temp file beside it
 * (`.<name>.<random>.partial`, see `partialName`), written whole, fsynced and closed, then moved to
 * its name as `place` says and the folder fsynced. A busy rename is tried again (EBUSY, EPERM:
 * `nodeFileOps.rename`). Leaves no temp file behind on failure; throws an AppFailure with a plain
 * message (`fileFailure`: DISK_FULL, PERMISSION_DENIED, a name too long → VALIDATION, …). A
 * kill can leave the temp file (never a partial file at the name): `journal` notes it meanwhile.
 * Returns the final path.
 */
export async function writeAtomically(
  folder: string,
  fileName: string,
  text: string,
  options: AtomicWriteOptions,
): Promise<string> {
  const temp = path.join(folder, partialName(fileName))
  options.journal?.add(temp)
  try {
    return await writeTemp(folder, fileName, text, temp, options)
  } finally {
    options.journal?.remove(temp)
  }
}

/** writeAtomically's work, through the temp file `temp`. */
async function writeTemp(
  folder: string,
  fileName: string,
  text: string,
  temp: string,
  options: AtomicWriteOptions,
): Promise<string> {
  const ops = options.ops ?? nodeFileOps
  let file: WritableFile | null
  try {
    if (options.confined) await confirmRealFolder(folder)
    file = await ops.open(temp, 'wx', options.mode ?? 0o600)
  } catch (err) {
    throw fileFailure(err, options.doing, folder)
  }
  if (options.confined) await confirmStillAt(ops, file, temp, folder)
  try {
    const bytes = Buffer.from(text, 'utf8')
    for (let offset = 0; offset < bytes.length;) {
      const { bytesWritten } = await file.write(bytes, offset, bytes.length - offset)
      offset += bytesWritten
    }
    await file.sync()
    const written = file
    // Once more while it is open (its descriptor tells where it is): a folder swapped meanwhile.
    if (options.confined) await confirmStillAt(ops, written, temp, folder)
    file = null
    await written.close()
    return await placeTemp(ops, temp, folder, fileName, options)
  } catch (err) {
    await file?.close().catch(() => undefined)
    await removeQuietly(ops, temp)
    throw fileFailure(err, options.doing, folder)
  }
}

/**
 * Proves the temp file open as `file` is `temp` in the judged `folder` (created there, and still
 * there); otherwise it is wherever a link led: it is closed and removed there, and the write
 * refused (FORBIDDEN).
 */
async function confirmStillAt(
  ops: FileOps,
  file: WritableFile,
  temp: string,
  folder: string,
): Promise<void> {
  const opened = file.fd === undefined ? null : await promisify(fs.fstat)(file.fd)
  if ((await isOpenedAt(file.fd, opened, temp)) && (await isRealFolder(folder))) return
  const stray = await pathOfDescriptor(file.fd)
  await file.close().catch(() => undefined)
  await removeQuietly(
    ops,
    stray !== null && path.basename(stray) === path.basename(temp) ? stray : temp,
  )
  throw leftFolder(folder)
}

/** Moves a finished temp file in `folder` to its name as `place` says; returns the final path. */
async function placeTemp(
  ops: FileOps,
  temp: string,
  folder: string,
  fileName: string,
  options: AtomicWriteOptions,
): Promise<string> {
  const target = path.join(folder, fileName)
  if (options.place === 'next-free') return placeWithoutOverwrite(ops, temp, folder, fileName)
  if (options.place === 'replace') {
    await ops.rename(temp, target)
    await ops.syncDir(folder)
    return target
  }
  try {
    return await placeWithoutOverwrite(ops, temp, folder, fileName, 1)
  } catch (err) {
    if (errnoOf(err) === 'EEXIST') throw (options.taken ?? keptFile)(target)
    throw err
  }
}
