import { createHash } from 'node:crypto'
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { AppFailure } from '@contract/errors'
import { isOpenedAt } from './confined'
import { formatBytes } from './download'
import { errnoOf, fileFailure, nodeFileOps, removeQuietly, type FileOps } from './fs-ops'
import { SLOT_BYTES } from './hasher'
import { partialName, safeFileName } from './names'
import { placeWithoutOverwrite } from './place'

/** The largest file ScanDesk copies as SAQ evidence: 100 MiB. */
export const MAX_EVIDENCE_BYTES = 100 * 1024 ** 2

/** What a copy produced: where the copy is, its size and SHA-256 (lowercase hex). */
export interface CopyResult {
  path: string
  size: number
  sha256: string
}

/** One copy of a local file into a folder. */
export interface CopyRequest {
  /** The file to copy (absolute); it is only read, never changed. */
  source: string
  /** Destination folder (must exist; the copy lands directly inside it). */
  folder: string
  /** The copy's name (made safe again here; `name (2).ext` when taken). */
  fileName: string
  /** Refused (TOO_LARGE) above this size, before or while copying. */
  maxBytes: number
  /** When given, the copy is kept only if its bytes hash to this (else INTEGRITY_FAILED). */
  expectedSha256?: string
  /** How messages name the source ("the evidence file …"). */
  label?: string
  /** The file system layer (tests inject failures). */
  fileOps?: FileOps
  /**
   * `source` is a real path judged by the caller (a typed or chosen path): the file opened must
   * be the one there, reached without a link (files/confined.ts), else FORBIDDEN.
   */
  confined?: boolean
}

/**
 * Checks that `source` is a regular file (lstat: a symbolic link, a folder, a device or a pipe is
 * refused with VALIDATION) of at most `maxBytes` (TOO_LARGE); returns its size.
 */
export async function checkSourceFile(source: string, maxBytes: number): Promise<number> {
  let stat: fs.Stats
  try {
    stat = await fsp.lstat(source)
  } catch (err) {
    throw fileFailure(err, 'read the file', source, 'file')
  }
  if (stat.isSymbolicLink())
    throw new AppFailure({
      code: 'VALIDATION',
      message: `${source} is a symbolic link; choose the file it points to instead.`,
    })
  if (!stat.isFile())
    throw new AppFailure({
      code: 'VALIDATION',
      message: `${source} is not a regular file (a folder, a device or a pipe cannot be attached).`,
    })
  if (stat.size > maxBytes)
    throw new AppFailure({
      code: 'TOO_LARGE',
      message: `${path.basename(source)} is ${formatBytes(stat.size)}; evidence files may be at most ${formatBytes(maxBytes)}.`,
    })
  return stat.size
}

/**
 * Copies a regular file into `folder`, hashing it in the same pass: written to a `.partial` temp
 * file (mode 0600) beside the final name, fsynced, then moved into place without overwriting
 * (`name (2).ext` …). The source is opened without following a link and must be the same file that
 * was checked (device and inode); a file that grows past `maxBytes` while copying is refused. No
 * partial file is left on failure. Throws AppFailure: VALIDATION, TOO_LARGE, INTEGRITY_FAILED (with
 * `expectedSha256`), FILE_NOT_FOUND, DISK_FULL, PERMISSION_DENIED, NO_FOLDER.
 */
export async function copyHashed(req: CopyRequest): Promise<CopyResult> {
  const ops = req.fileOps ?? nodeFileOps
  const folder = path.resolve(req.folder)
  const fileName = safeFileName(req.fileName)
  await checkSourceFile(req.source, req.maxBytes)
  let input: fsp.FileHandle
  try {
    input = await fsp.open(req.source, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0))
  } catch (err) {
    if (errnoOf(err) === 'ELOOP')
      throw new AppFailure({
        code: 'VALIDATION',
        message: `${req.source} is a symbolic link; choose the file it points to instead.`,
      })
    throw fileFailure(err, 'read the file', req.source, 'file')
  }
  const temp = path.join(folder, partialName(fileName))
  let output: Awaited<ReturnType<FileOps['open']>> | null = null
  try {
    const [opened, linked] = await Promise.all([input.stat(), fsp.lstat(req.source)])
    if (!opened.isFile() || opened.ino !== linked.ino || opened.dev !== linked.dev)
      throw new AppFailure({
        code: 'VALIDATION',
        message: `${req.source} changed while ScanDesk was opening it; try again.`,
      })
    if (req.confined && !(await isOpenedAt(input.fd, opened, req.source)))
      throw new AppFailure({
        code: 'FORBIDDEN',
        message: `The way to ${req.source} changed while ScanDesk was opening it (a folder on the way was replaced by a symbolic link), so it was not copied.`,
      })
    try {
      output = await ops.open(temp, 'wx', 0o600)
    } catch (err) {
      throw fileFailure(err, 'copy the file', folder)
    }
    const hash = createHash('sha256')
    const buffer = Buffer.allocUnsafe(SLOT_BYTES)
    let size = 0
    for (;;) {
      const { bytesRead } = await input.read(buffer, 0, SLOT_BYTES, size)
      if (bytesRead === 0) break
      size += bytesRead
      if (size > req.maxBytes)
        throw new AppFailure({
          code: 'TOO_LARGE',
          message: `${path.basename(req.source)} grew past ${formatBytes(req.maxBytes)} while it was copied; evidence files may be at most ${formatBytes(req.maxBytes)}.`,
        })
      hash.update(buffer.subarray(0, bytesRead))
      for (let offset = 0; offset < bytesRead;) {
        const { bytesWritten } = await output
          .write(buffer, offset, bytesRead - offset)
          .catch((err: unknown) => {
            throw fileFailure(err, 'copy the file', folder)
          })
        offset += bytesWritten
      }
    }
    const sha256 = hash.digest('hex')
    if (req.expectedSha256 !== undefined && req.expectedSha256 !== sha256)
      throw new AppFailure({
        code: 'INTEGRITY_FAILED',
        message: `${req.label ?? req.source} changed since it was attached: its SHA-256 is now ${sha256.slice(0, 12)}…, it was ${req.expectedSha256.slice(0, 12)}… when it was recorded.`,
      })
    await output.sync()
    await output.close()
    output = null
    const finalPath = await placeWithoutOverwrite(ops, temp, folder, fileName).catch(
      (err: unknown) => {
        throw fileFailure(err, 'copy the file', folder)
      },
    )
    return { path: finalPath, size, sha256 }
  } catch (err) {
    if (output) await output.close().catch(() => undefined)
    await removeQuietly(ops, temp)
    throw err instanceof AppFailure ? err : fileFailure(err, 'copy the file', folder)
  } finally {
    await input.close().catch(() => undefined)
  }
}
