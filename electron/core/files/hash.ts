import { createHash } from 'node:crypto'
import fsp from 'node:fs/promises'
import { fileFailure } from './fs-ops'
import { hashPathOnThread, SLOT_BYTES } from './hasher'

/** Files up to this size are hashed on the calling thread (a worker costs ~50 ms to start). */
export const INLINE_HASH_LIMIT = 4 * SLOT_BYTES

async function hashInline(
  path: string,
  opened?: fsp.FileHandle,
): Promise<{ sha256: string; size: number }> {
  const fh = opened ?? (await fsp.open(path, 'r'))
  try {
    const hash = createHash('sha256')
    const buffer = Buffer.allocUnsafe(SLOT_BYTES)
    let size = 0
    for (;;) {
      const { bytesRead } = await fh.read(buffer, 0, SLOT_BYTES, size)
      if (bytesRead === 0) break
      hash.update(buffer.subarray(0, bytesRead))
      size += bytesRead
    }
    return { sha256: hash.digest('hex'), size }
  } finally {
    if (!opened) await fh.close()
  }
}

/**
 * SHA-256 (lowercase hex) and size of a file on disk, read in 1 MiB pieces; large files are
 * hashed on a worker thread so the main thread stays responsive. With `opened`, the file already
 * open (a typed path proved by files/confined.ts) is read, not `path` again; it stays open.
 * Throws FILE_NOT_FOUND or PERMISSION_DENIED with a plain message.
 */
export async function hashFile(
  path: string,
  opened?: fsp.FileHandle,
): Promise<{ sha256: string; size: number }> {
  try {
    const stat = opened ? await opened.stat() : await fsp.stat(path)
    if (!stat.isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' })
    return stat.size <= INLINE_HASH_LIMIT
      ? await hashInline(path, opened)
      : await hashPathOnThread(path, opened?.fd)
  } catch (err) {
    throw fileFailure(err, 'read the file', path, 'file')
  }
}
