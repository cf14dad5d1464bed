import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { hashFile, INLINE_HASH_LIMIT } from './hash'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-hash-'))

function write(name: string, bytes: Buffer): string {
  const file = path.join(dir, name)
  fs.writeFileSync(file, bytes)
  return file
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')

describe('hashing a file on disk', () => {
  it('hashes a small file on the calling thread', async () => {
    const bytes = randomBytes(1024 * 1024 + 7)
    expect(await hashFile(write('small.pdf', bytes))).toEqual({
      sha256: sha(bytes),
      size: bytes.length,
    })
  })

  it('hashes a large file (worker thread, 1 MiB reads) to the same digest', async () => {
    const bytes = randomBytes(INLINE_HASH_LIMIT + 3 * 1024 * 1024 + 11)
    expect(await hashFile(write('large.pdf', bytes))).toEqual({
      sha256: sha(bytes),
      size: bytes.length,
    })
  })

  it('hashes an empty file', async () => {
    expect(await hashFile(write('empty.pdf', Buffer.alloc(0)))).toEqual({
      sha256: sha(Buffer.alloc(0)),
      size: 0,
    })
  })

  it('a missing file or a folder is FILE_NOT_FOUND', async () => {
    await expect(hashFile(path.join(dir, 'nope.pdf'))).rejects.toMatchObject({
      error: { code: 'FILE_NOT_FOUND' },
    })
    await expect(hashFile(dir)).rejects.toMatchObject({ error: { code: 'FILE_NOT_FOUND' } })
  })
})
