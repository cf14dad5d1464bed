import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { nodeFileOps, type WritableFile } from './fs-ops'
import { HashingWriter, INLINE_BODY_LIMIT } from './pipeline'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-pipeline-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

let n = 0
const tempPath = () => path.join(dir, `body-${++n}.partial`)
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')
const LARGE = INLINE_BODY_LIMIT + 5 * 1024 * 1024 + 13

/** Feeds `body` in uneven chunks (fresh buffers, and views into one shared buffer). */
async function feed(writer: { write(c: Buffer): void | Promise<void> }, body: Buffer) {
  const sizes = [5, 65536, 1, 1048576, 300000, 65536 * 3]
  for (let offset = 0, i = 0; offset < body.length; i++) {
    const size = Math.min(sizes[i % sizes.length], body.length - offset)
    const piece = body.subarray(offset, offset + size)
    // Odd chunks own their memory (handed over to the thread), even ones share `body`'s.
    const chunk = i % 2 ? Buffer.from(new Uint8Array(piece)) : piece
    await writer.write(chunk)
    offset += size
  }
}

describe('writing a large body to a real file', () => {
  it('hashes on a worker thread and writes every byte in order', async () => {
    const body = randomBytes(LARGE)
    const file = await nodeFileOps.open(tempPath(), 'wx', 0o600)
    const writer = new HashingWriter(file, body.length, () => undefined)
    await feed(writer, body)
    const digest = await writer.end()
    await file.close()
    expect(writer.bytes).toBe(body.length)
    expect(writer.head.toString('latin1')).toBe(body.subarray(0, 8).toString('latin1'))
    expect(digest).toBe(sha(body))
    expect(sha(fs.readFileSync(path.join(dir, `body-${n}.partial`)))).toBe(sha(body))
  })

  it('leaves chunks that share memory with other data intact', async () => {
    const body = randomBytes(INLINE_BODY_LIMIT + 1)
    const copy = Buffer.from(body)
    const file = await nodeFileOps.open(tempPath(), 'wx', 0o600)
    const writer = new HashingWriter(file, null, () => undefined)
    await writer.write(body.subarray(0, 100))
    await writer.write(body.subarray(100))
    await writer.end()
    await file.close()
    expect(body.equals(copy)).toBe(true)
  })

  it('fails with the errno of a refused write and reports it once', async () => {
    const target = tempPath()
    fs.writeFileSync(target, '')
    // Opened read-only: every write on this descriptor fails with EBADF.
    const file = await nodeFileOps.open(target, 'r', 0o600)
    let failures = 0
    const writer = new HashingWriter(file, LARGE, () => failures++)
    const body = randomBytes(LARGE)
    const error = await feed(writer, body)
      .then(() => writer.end())
      .then(
        () => null,
        (err: unknown) => err as NodeJS.ErrnoException,
      )
    await writer.abort(error)
    await file.close()
    expect(error?.code).toBe('EBADF')
    expect(writer.failure).toBe(error)
    expect(failures).toBe(1)
    expect(() => writer.write(Buffer.alloc(1))).toThrow(error as Error)
  })

  it('stops on abort: nothing runs on the file afterwards and later chunks are refused', async () => {
    const target = tempPath()
    const file = await nodeFileOps.open(target, 'wx', 0o600)
    const writer = new HashingWriter(file, null, () => undefined)
    await writer.write(randomBytes(3 * 1024 * 1024))
    const reason = new Error('cancelled')
    await writer.abort(reason)
    const size = fs.statSync(target).size
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(fs.statSync(target).size).toBe(size)
    await file.close()
    expect(() => writer.write(Buffer.alloc(1))).toThrow(reason)
  })
})

describe('bodies kept on the main thread', () => {
  it('hashes small bodies inline, and files without a descriptor through the slot pipeline', async () => {
    const file = await nodeFileOps.open(tempPath(), 'wx', 0o600)
    const small = randomBytes(1024)
    const inline = new HashingWriter(file, small.length, () => undefined)
    await feed(inline, small)
    expect(await inline.end()).toBe(sha(small))
    const noFd: WritableFile = {
      write: (b, o, l) => file.write(b, o, l),
      datasync: () => file.datasync(),
      sync: () => file.sync(),
      close: () => file.close(),
    }
    const body = randomBytes(LARGE)
    const writer = new HashingWriter(noFd, body.length, () => undefined)
    await feed(writer, body)
    expect(await writer.end()).toBe(sha(body))
    await file.close()
  })
})
