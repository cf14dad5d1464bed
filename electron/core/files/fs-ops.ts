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

/** The real file system. */
export const nodeFileOps: FileOps = {
  open: (path, flags, mode) => fsp.open(path, flags, mode),
  link: (existing, target) => fsp.link(existing, target),
  rename: (from, to) => fsp.rename(from, to),
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
 * FILE_NOT_FOUND. `doing` says what ScanDesk was doing ("save the report").
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
