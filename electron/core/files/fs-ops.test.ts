import fs from 'node:fs'
import fsp from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AppFailure } from '@contract/errors'
import { writeAtomically, type AtomicWriteOptions } from './atomic-write'
import { fileFailure, RENAME_RETRY_DELAYS_MS, renameRetrying } from './fs-ops'
import { PARTIAL_NAME, partialName } from './names'

const dirs: string[] = []
function folder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-fsops-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  vi.restoreAllMocks()
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

/** How a CSV export writes the file the user chose. */
const CSV: AtomicWriteOptions = { place: 'replace', doing: 'save the CSV file' }

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: rename`), { code })
}

/** A rename that fails with `codes` in turn, then succeeds; records its calls and the waits. */
function flaky(...codes: string[]) {
  const calls: [string, string][] = []
  const waits: number[] = []
  const rename = async (from: string, to: string) => {
    calls.push([from, to])
    const code = codes.shift()
    if (code) throw errno(code)
  }
  const sleep = async (ms: number) => void waits.push(ms)
  return { rename, sleep, calls, waits }
}

describe('a rename another program holds up', () => {
  it.each(['EBUSY', 'EPERM'])('is tried again after %s and succeeds', async (code) => {
    const f = flaky(code, code)
    await renameRetrying(f.rename, 'a', 'b', RENAME_RETRY_DELAYS_MS, f.sleep)
    expect(f.calls).toEqual([
      ['a', 'b'],
      ['a', 'b'],
      ['a', 'b'],
    ])
    expect(f.waits).toEqual([25, 50])
  })

  it('gives up after 6 attempts within 0.8 s, with the last error', async () => {
    const f = flaky(...Array<string>(10).fill('EBUSY'))
    const err = await renameRetrying(f.rename, 'a', 'b', RENAME_RETRY_DELAYS_MS, f.sleep).catch(
      (e: unknown) => e,
    )
    expect((err as NodeJS.ErrnoException).code).toBe('EBUSY')
    expect(f.calls).toHaveLength(6)
    expect(f.waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(800)
  })

  it.each(['ENOENT', 'EXDEV', 'EACCES', 'ENOSPC'])('is not tried again after %s', async (code) => {
    const f = flaky(code)
    await expect(
      renameRetrying(f.rename, 'a', 'b', RENAME_RETRY_DELAYS_MS, f.sleep),
    ).rejects.toMatchObject({ code })
    expect(f.calls).toHaveLength(1)
    expect(f.waits).toEqual([])
  })

  it('is what the real file operations do: a CSV export outlasts an antivirus holding its file', async () => {
    const dir = folder()
    const target = path.join(dir, 'a.csv')
    fs.writeFileSync(target, 'old')
    const real = fsp.rename.bind(fsp)
    const rename = vi
      .spyOn(fsp, 'rename')
      .mockRejectedValueOnce(errno('EBUSY'))
      .mockRejectedValueOnce(errno('EPERM'))
      .mockImplementation(real)
    await writeAtomically(dir, 'a.csv', 'id\r\n1\r\n', CSV)
    expect(rename).toHaveBeenCalledTimes(3)
    expect(fs.readdirSync(dir)).toEqual(['a.csv'])
    expect(fs.readFileSync(target, 'utf8')).toBe('id\r\n1\r\n')
  })

  it('says plainly, after the retries, that another program is using the file', async () => {
    const dir = folder()
    vi.spyOn(fsp, 'rename').mockRejectedValue(errno('EBUSY'))
    const err = await writeAtomically(dir, 'a.csv', 'x', CSV).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AppFailure)
    expect((err as AppFailure).error).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('another program is using the file') as string,
    })
    expect(fs.readdirSync(dir)).toEqual([])
  })
})

describe('a name or path too long for the file system', () => {
  it('is a clear VALIDATION error, not INTERNAL, and leaves nothing behind', async () => {
    const dir = folder()
    const err = await writeAtomically(dir, `${'n'.repeat(300)}.csv`, 'id\r\n', CSV).catch(
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(AppFailure)
    expect((err as AppFailure).error.code).toBe('VALIDATION')
    expect((err as AppFailure).error.message).toMatch(
      /^Could not save the CSV file: the file's name or its path in .+ is longer than this system allows\. Choose a shorter name/,
    )
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it('maps ENAMETOOLONG from any file operation the same way', () => {
    const failure = fileFailure(errno('ENAMETOOLONG'), 'save the file', '/deep/folder')
    expect(failure.error.code).toBe('VALIDATION')
    expect(failure.error.message).toContain('/deep/folder')
  })

  it('does not come from the temp name: a final name of 250 bytes saves', async () => {
    const dir = folder()
    const name = `${'é'.repeat(123)}.csv` // 246 + 4 bytes
    await writeAtomically(dir, name, 'id\r\n', CSV)
    expect(fs.readdirSync(dir)).toEqual([name])
  })

  it('temp names stay within 255 bytes and are still recognised as temp files', () => {
    for (const name of ['a.pdf', `${'x'.repeat(255)}`, `${'😀'.repeat(63)}.csv`]) {
      const temp = partialName(name)
      expect(Buffer.byteLength(temp)).toBeLessThanOrEqual(255)
      expect(temp).toMatch(PARTIAL_NAME)
      expect(Buffer.from(temp, 'utf8').toString('utf8')).toBe(temp) // no character cut in half
    }
    expect(partialName('a.pdf')).toMatch(/^\.a\.pdf\.[0-9a-f]{12}\.partial$/)
  })
})
