import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { hashFile, INLINE_HASH_LIMIT } from './hash'
import { hashPathOnThread } from './hasher'
import { HASH_THREAD_NICER } from './hash-worker'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-hash-'))

function write(name: string, bytes: Buffer): string {
  const file = path.join(dir, name)
  fs.writeFileSync(file, bytes)
  return file
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')

/** The nice value of each thread of this process, by thread id (Linux's /proc). */
function threadNices(): Map<number, number> {
  const nices = new Map<number, number>()
  for (const tid of fs.readdirSync('/proc/self/task')) {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
    // Fields after the command name: state is field 3, nice field 19.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    nices.set(Number(tid), Number(fields[19 - 3]))
  }
  return nices
}

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

describe('the hashing thread', () => {
  it('runs below the main thread’s priority, so main’s event loop goes first (Linux)', async () => {
    expect(process.platform).toBe('linux')
    const mainNice = threadNices().get(process.pid)
    const bytes = randomBytes(3 * 1024 * 1024 + 5)
    expect(await hashPathOnThread(write('nice.pdf', bytes))).toEqual({
      sha256: sha(bytes),
      size: bytes.length,
    })
    const nices = threadNices()
    // The thread stays for reuse (idle for 30 s), at the lower priority; main's is unchanged.
    const lowered = Math.min(19, (mainNice ?? 0) + HASH_THREAD_NICER)
    expect(HASH_THREAD_NICER).toBe(10)
    const hashing = [...nices].filter(([tid, nice]) => tid !== process.pid && nice === lowered)
    expect(hashing.length).toBeGreaterThan(0)
    expect(nices.get(process.pid)).toBe(mainNice)
  })
})
