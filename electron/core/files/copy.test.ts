import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AppFailure } from '@contract/errors'
import { checkSourceFile, copyHashed, MAX_EVIDENCE_BYTES } from './copy'
import { nodeFileOps, type FileOps } from './fs-ops'

let src: string
let dest: string

beforeEach(() => {
  src = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-copy-src-')))
  dest = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-copy-dst-')))
})
afterEach(() => {
  fs.rmSync(src, { recursive: true, force: true })
  fs.rmSync(dest, { recursive: true, force: true })
})

const digest = (b: Buffer | string) => createHash('sha256').update(b).digest('hex')

async function failure(p: Promise<unknown>): Promise<AppFailure> {
  try {
    await p
  } catch (err) {
    if (err instanceof AppFailure) return err
    throw err
  }
  throw new Error('expected a failure')
}

describe('copying a local file with its hash', () => {
  it('copies the bytes, hashes them in the same pass and leaves the source as it was', async () => {
    const body = Buffer.alloc(3 * 1024 * 1024 + 17, 7)
    const file = path.join(src, 'scan results.log')
    fs.writeFileSync(file, body)
    const out = await copyHashed({
      source: file,
      folder: dest,
      fileName: 'scan results.log',
      maxBytes: MAX_EVIDENCE_BYTES,
    })
    expect(out).toEqual({
      path: path.join(dest, 'scan results.log'),
      size: body.length,
      sha256: digest(body),
    })
    expect(fs.readFileSync(out.path).equals(body)).toBe(true)
    expect(fs.readFileSync(file).equals(body)).toBe(true)
    expect(fs.readdirSync(dest)).toEqual(['scan results.log'])
  })

  it('never overwrites: a taken name gets (2), and the name is made safe', async () => {
    const file = path.join(src, 'a.txt')
    fs.writeFileSync(file, 'new')
    fs.writeFileSync(path.join(dest, 'a.txt'), 'old')
    const out = await copyHashed({ source: file, folder: dest, fileName: 'a.txt', maxBytes: 100 })
    expect(path.basename(out.path)).toBe('a (2).txt')
    expect(fs.readFileSync(path.join(dest, 'a.txt'), 'utf8')).toBe('old')
    const odd = await copyHashed({
      source: file,
      folder: dest,
      fileName: 'con:\u202eexe.txt',
      maxBytes: 100,
    })
    expect(path.basename(odd.path)).toBe('con_exe.txt')
  })

  it('refuses a symbolic link, a folder and a file over the limit before writing anything', async () => {
    const file = path.join(src, 'real.txt')
    fs.writeFileSync(file, '12345')
    const link = path.join(src, 'link.txt')
    fs.symlinkSync(file, link)
    const req = { folder: dest, fileName: 'x.txt', maxBytes: 4 }
    expect((await failure(copyHashed({ ...req, source: link }))).error).toMatchObject({
      code: 'VALIDATION',
      message: expect.stringMatching(/symbolic link/),
    })
    expect((await failure(copyHashed({ ...req, source: src }))).error).toMatchObject({
      code: 'VALIDATION',
      message: expect.stringMatching(/not a regular file/),
    })
    expect((await failure(copyHashed({ ...req, source: file }))).error).toMatchObject({
      code: 'TOO_LARGE',
      message: expect.stringMatching(/real\.txt is 5 bytes; evidence files may be at most 4 bytes/),
    })
    expect((await failure(checkSourceFile(path.join(src, 'none'), 4))).error.code).toBe(
      'FILE_NOT_FOUND',
    )
    expect(fs.readdirSync(dest)).toEqual([])
  })

  it('refuses a 100 MiB + 1 byte file (sparse) with the limit in the message', async () => {
    const big = path.join(src, 'capture.pcap')
    fs.writeFileSync(big, '')
    fs.truncateSync(big, MAX_EVIDENCE_BYTES + 1)
    const err = await failure(checkSourceFile(big, MAX_EVIDENCE_BYTES))
    expect(err.error).toMatchObject({ code: 'TOO_LARGE' })
    expect(err.error.message).toContain('100.0 MiB')
  })

  it('keeps nothing when the bytes no longer hash to the expected digest', async () => {
    const file = path.join(src, 'policy.pdf')
    fs.writeFileSync(file, 'edited')
    const err = await failure(
      copyHashed({
        source: file,
        folder: dest,
        fileName: 'policy.pdf',
        maxBytes: 100,
        expectedSha256: digest('original'),
        label: 'The evidence file policy.pdf',
      }),
    )
    expect(err.error.code).toBe('INTEGRITY_FAILED')
    expect(err.error.message).toMatch(
      /^The evidence file policy\.pdf changed since it was attached/,
    )
    expect(fs.readdirSync(dest)).toEqual([])
  })

  it('removes its temp file when the disk fills up', async () => {
    const file = path.join(src, 'a.txt')
    fs.writeFileSync(file, 'data')
    const full: FileOps = {
      ...nodeFileOps,
      open: async (p, flags, mode) => {
        const fh = await nodeFileOps.open(p, flags, mode)
        return {
          ...fh,
          fd: undefined,
          write: async () => {
            throw Object.assign(new Error('no space'), { code: 'ENOSPC' })
          },
          datasync: () => fh.datasync(),
          sync: () => fh.sync(),
          close: () => fh.close(),
        }
      },
    }
    const err = await failure(
      copyHashed({ source: file, folder: dest, fileName: 'a.txt', maxBytes: 100, fileOps: full }),
    )
    expect(err.error.code).toBe('DISK_FULL')
    expect(fs.readdirSync(dest)).toEqual([])
  })
})
