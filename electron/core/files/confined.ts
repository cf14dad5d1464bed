// Paths judged by where they really lead, and files opened or created only where they were judged
// to be. A typed path is judged on its real path (DownloadFolders.checkTyped); between that check
// and the open a folder on the way can be swapped for a link, so every open of a judged path is
// proved afterwards: the opened descriptor's own path (Linux: /proc/self/fd, one atomic answer),
// else the path's real path unchanged and the same device and inode.
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { AppFailure, fail } from '@contract/errors'
import { errnoOf, fileFailure } from './fs-ops'

const MISSING = new Set(['ENOENT', 'ENOTDIR'])

/**
 * Where `resolved` (absolute, no `..`) really leads: the real path of its nearest existing
 * ancestor (every link resolved) joined with the rest as typed, or its own real path when it
 * exists. A link on the way that leads nowhere is refused (FORBIDDEN: it could be made to lead
 * anywhere later); `typed` names the path in that message.
 */
export async function realPathOf(resolved: string, typed: string): Promise<string> {
  const rest: string[] = []
  for (let probe = resolved; ;) {
    const stat = await fsp.lstat(probe).catch((err: unknown) => {
      if (MISSING.has(errnoOf(err) ?? '')) return null
      throw fileFailure(err, 'check the path', probe, 'file')
    })
    if (stat) {
      const real = await fsp.realpath(probe).catch(() => null)
      if (real === null)
        fail(
          'FORBIDDEN',
          `${typed} goes through a symbolic link that leads nowhere (${probe}); ScanDesk does not follow it. Remove the link or type the folder it should lead to.`,
        )
      return path.join(real, ...rest)
    }
    const parent = path.dirname(probe)
    if (parent === probe) return path.join(probe, ...rest)
    rest.unshift(path.basename(probe))
    probe = parent
  }
}

/** The path the open descriptor `fd` names now (Linux), or null where the OS does not tell. */
export async function pathOfDescriptor(fd: number | undefined): Promise<string | null> {
  if (fd === undefined || process.platform !== 'linux') return null
  try {
    return await fsp.readlink(`/proc/self/fd/${fd}`)
  } catch {
    return null
  }
}

/**
 * True when the file open as `fd` (its stat `opened`) is the one at `expected` now, reached
 * without a link: the descriptor's own path where the OS tells it, else `expected`'s real path
 * unchanged and its device and inode those of the open file.
 */
export async function isOpenedAt(
  fd: number | undefined,
  opened: fs.Stats | null,
  expected: string,
): Promise<boolean> {
  const named = await pathOfDescriptor(fd)
  if (named !== null) return named === expected
  const [real, at] = await Promise.all([
    fsp.realpath(expected).catch(() => null),
    fsp.stat(expected).catch(() => null),
  ])
  if (real !== expected || !at) return false
  return opened === null || (at.dev === opened.dev && at.ino === opened.ino)
}

function moved(shown: string): AppFailure {
  return new AppFailure({
    code: 'FORBIDDEN',
    message: `${shown} changed while ScanDesk was opening it (a folder on the way was replaced by a symbolic link), so ScanDesk did not read it. Nothing was read.`,
  })
}

/** Opens a file for reading; tests wrap it to change the path around the open. */
export type Opener = (file: string, flags: number) => Promise<fsp.FileHandle>

/**
 * Opens `real` — a real path already judged (no link anywhere in it) — for reading, without
 * following a link at its end and without waiting on a pipe, and proves the file opened is the
 * one at `real` (isOpenedAt). A missing file is FILE_NOT_FOUND naming `shown`, a folder or a
 * device VALIDATION, a path that changed on the way FORBIDDEN. The caller closes the handle.
 */
export async function openJudged(
  real: string,
  shown: string,
  open: Opener = (file, flags) => fsp.open(file, flags),
): Promise<{ handle: fsp.FileHandle; stat: fs.Stats }> {
  const flags =
    fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0)
  let handle: fsp.FileHandle
  try {
    handle = await open(real, flags)
  } catch (err) {
    if (errnoOf(err) === 'ELOOP') throw moved(shown)
    if (MISSING.has(errnoOf(err) ?? '')) fail('FILE_NOT_FOUND', `There is no file at ${shown}.`)
    throw fileFailure(err, 'read the file', shown, 'file')
  }
  try {
    const stat = await handle.stat()
    if (!(await isOpenedAt(handle.fd, stat, real))) throw moved(shown)
    if (!stat.isFile())
      fail('VALIDATION', `${shown} is not a regular file (a folder, a device or a pipe).`)
    return { handle, stat }
  } catch (err) {
    await handle.close().catch(() => undefined)
    throw err
  }
}

/** Reads an opened file whole as UTF-8, refusing it (TOO_LARGE, `tooLarge`) past `maxBytes`. */
export async function readOpenedText(
  handle: fsp.FileHandle,
  maxBytes: number,
  tooLarge: () => AppFailure,
): Promise<string> {
  return (await readOpenedBytes(handle, maxBytes, tooLarge)).toString('utf8')
}

/** The bytes of an opened file, refusing (`tooLarge`) once more than `maxBytes` have been read. */
export async function readOpenedBytes(
  handle: fsp.FileHandle,
  maxBytes: number,
  tooLarge: () => AppFailure,
): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for (;;) {
    const buffer = Buffer.allocUnsafe(64 * 1024)
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, size)
    if (bytesRead === 0) break
    size += bytesRead
    if (size > maxBytes) throw tooLarge()
    chunks.push(buffer.subarray(0, bytesRead))
  }
  return Buffer.concat(chunks)
}

/** The refusal when a file ScanDesk creates would land outside the folder that was judged. */
export function leftFolder(folder: string): AppFailure {
  return new AppFailure({
    code: 'FORBIDDEN',
    message: `The folder ${folder} was replaced by a symbolic link while ScanDesk was writing into it, so nothing was saved there.`,
  })
}

/** True while `folder` is its own real path (no link replaced it or a folder above it). */
export async function isRealFolder(folder: string): Promise<boolean> {
  return (await fsp.realpath(folder).catch(() => null)) === folder
}

/** Throws leftFolder unless `folder` is still its own real path. */
export async function confirmRealFolder(folder: string): Promise<void> {
  if (!(await isRealFolder(folder))) throw leftFolder(folder)
}
