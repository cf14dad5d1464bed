import fs from 'node:fs'
import fsp from 'node:fs/promises'
import { AppFailure, type ErrorCode } from '@contract/errors'

/** An open file as the download writes it. */
export interface WritableFile {
  /** The descriptor, when this is a real open file (large bodies are then written off-thread). */
  readonly fd?: number
  write(buffer: Uint8Array, offset: number, length: number): Promise<{ bytesWritten: number }>
  /** Flushes data only (metadata is flushed by `sync`). */
  datasync(): Promise<void>
  sync(): Promise<void>
  close(): Promise<void>
}

/**
 * The file system calls of downloads, quarantine and placement; tests pass a layer that fails
 * on purpose (disk full, permission denied), the app uses `nodeFileOps`.
 */
export interface FileOps {
  open(path: string, flags: string, mode: number): Promise<WritableFile>
  link(existing: string, target: string): Promise<void>
  rename(from: string, to: string): Promise<void>
  copyFileExclusive(from: string, to: string): Promise<void>
  unlink(path: string): Promise<void>
  mkdir(path: string): Promise<void>
  stat(path: string): Promise<fs.Stats>
  /** fsyncs a folder so a new name in it survives a crash (a no-op where folders cannot be). */
  syncDir(path: string): Promise<void>
}

/**
 * Errors a rename meets while another program holds the file for a moment (an antivirus, a
 * search indexer or a backup scanning the new file, mostly on Windows): tried again, briefly.
 */
const BUSY = new Set(['EBUSY', 'EPERM'])

/** Waits before each new attempt of a busy rename: 6 attempts within 0.8 s in all. */
export const RENAME_RETRY_DELAYS_MS = [25, 50, 100, 200, 400] as const

/**
 * Renames, trying again after each delay of `delaysMs` while the rename fails with EBUSY or EPERM;
 * any other error, or the last busy one, is thrown as it came.
 */
export async function renameRetrying(
  rename: (from: string, to: string) => Promise<void>,
  from: string,
  to: string,
  delaysMs: readonly number[] = RENAME_RETRY_DELAYS_MS,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await rename(from, to)
    } catch (err) {
      if (attempt >= delaysMs.length || !BUSY.has(errnoOf(err) ?? '')) throw err
      await sleep(delaysMs[attempt])
    }
  }
}

/** The real file system. */
export const nodeFileOps: FileOps = {
  open: (path, flags, mode) => fsp.open(path, flags, mode),
  link: (existing, target) => fsp.link(existing, target),
  rename: (from, to) => renameRetrying(fsp.rename, from, to),
  copyFileExclusive: (from, to) => fsp.copyFile(from, to, fs.constants.COPYFILE_EXCL),
  unlink: (path) => fsp.unlink(path),
  mkdir: async (path) => void (await fsp.mkdir(path, { recursive: true })),
  stat: (path) => fsp.stat(path),
  async syncDir(path) {
    let handle: fsp.FileHandle | null = null
    try {
      handle = await fsp.open(path, 'r')
      await handle.sync()
    } catch (err) {
      // Windows cannot open or fsync a folder; its renames are durable without it.
      const code = (err as NodeJS.ErrnoException).code
      if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw err
    } finally {
      await handle?.close()
    }
  },
}

/** The errno code of a Node error, or undefined. */
export function errnoOf(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | null)?.code
  return typeof code === 'string' ? code : undefined
}

const DISK_FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG'])
const DENIED = new Set(['EACCES', 'EPERM', 'EROFS'])

/**
 * Turns a file system error into an AppFailure with a plain message: ENOSPC → DISK_FULL,
 * EACCES/EPERM → PERMISSION_DENIED, a missing folder → NO_FOLDER, a missing file →
 * FILE_NOT_FOUND, a name or path too long → VALIDATION, a file held by another program →
 * CONFLICT. `doing` says what ScanDesk was doing ("save the report").
 */
export function fileFailure(
  err: unknown,
  doing: string,
  where: string,
  missing: 'folder' | 'file' = 'folder',
): AppFailure {
  if (err instanceof AppFailure) return err
  const code = errnoOf(err)
  let error: { code: ErrorCode; message: string }
  if (code && DISK_FULL.has(code))
    error = { code: 'DISK_FULL', message: `Could not ${doing}: the disk holding ${where} is full.` }
  else if (code && DENIED.has(code))
    error = {
      code: 'PERMISSION_DENIED',
      message: `Could not ${doing}: ScanDesk is not allowed to write to ${where}.`,
    }
  else if ((code === 'ENOENT' || code === 'ENOTDIR') && missing === 'folder')
    error = {
      code: 'NO_FOLDER',
      message: `Could not ${doing}: the folder ${where} does not exist.`,
    }
  else if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR')
    error = { code: 'FILE_NOT_FOUND', message: `Could not ${doing}: ${where} is not a file.` }
  else if (code === 'ENAMETOOLONG')
    error = {
      code: 'VALIDATION',
      message: `Could not ${doing}: the file's name or its path in ${where} is longer than this system allows. Choose a shorter name or a folder nearer the top of the disk.`,
    }
  else if (code === 'EBUSY')
    error = {
      code: 'CONFLICT',
      message: `Could not ${doing}: another program is using the file in ${where} (an antivirus or a backup may be checking it). Try again in a moment.`,
    }
  else
    error = {
      code: 'INTERNAL',
      message: `Could not ${doing} in ${where}${code ? ` (${code})` : ''}.`,
    }
  return new AppFailure(error)
}

/** Removes a file, ignoring one that is already gone; never throws. */
export async function removeQuietly(ops: FileOps, path: string): Promise<void> {
  try {
    await ops.unlink(path)
  } catch {
    // Already gone, or not removable: nothing more can be done here.
  }
}
