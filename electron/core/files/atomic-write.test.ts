import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AppFailure } from '@contract/errors'
import { writeAtomically, type AtomicWriteOptions } from './atomic-write'
import { nodeFileOps, type FileOps } from './fs-ops'
import { PARTIAL_NAME } from './names'

const dirs: string[] = []
function folderWith(files: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-atomic-'))
  dirs.push(dir)
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text)
  return dir
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

async function failureOf(promise: Promise<unknown>): Promise<AppFailure> {
  try {
    await promise
  } catch (err) {
    expect(err).toBeInstanceOf(AppFailure)
    return err as AppFailure
  }
  throw new Error('expected a failure')
}

const noLinks: FileOps = {
  ...nodeFileOps,
  link: async () => {
    throw Object.assign(new Error('not supported'), { code: 'EPERM' })
  },
}

const replace: AtomicWriteOptions = { place: 'replace', doing: 'save the CSV file' }
const asNew: AtomicWriteOptions = { place: 'new', doing: 'save the CSV file' }
const nextFree: AtomicWriteOptions = { place: 'next-free', doing: 'write manifest.json' }

describe('writing a file atomically', () => {
  it('replaces the chosen file in one move and leaves no temp file', async () => {
    const dir = folderWith({ 'a.csv': 'old' })
    const final = await writeAtomically(dir, 'a.csv', 'id\r\n1\r\n', replace)
    expect(final).toBe(path.join(dir, 'a.csv'))
    expect(fs.readdirSync(dir)).toEqual(['a.csv'])
    expect(fs.readFileSync(path.join(dir, 'a.csv'), 'utf8')).toBe('id\r\n1\r\n')
  })

  it('as a new file, keeps a file that is there (CONFLICT), with or without hard links', async () => {
    for (const ops of [nodeFileOps, noLinks]) {
      const dir = folderWith({ 'a.csv': 'mine' })
      const failure = await failureOf(writeAtomically(dir, 'a.csv', 'id\r\n', { ...asNew, ops }))
      expect(failure.error).toEqual({
        code: 'CONFLICT',
        message: `A file appeared at ${path.join(dir, 'a.csv')} meanwhile; it was kept.`,
      })
      expect(fs.readdirSync(dir)).toEqual(['a.csv'])
      expect(fs.readFileSync(path.join(dir, 'a.csv'), 'utf8')).toBe('mine')
      await writeAtomically(dir, 'b.csv', 'id\r\n', { ...asNew, ops })
      expect(fs.readdirSync(dir).sort()).toEqual(['a.csv', 'b.csv'])
      expect(fs.readFileSync(path.join(dir, 'b.csv'), 'utf8')).toBe('id\r\n')
    }
  })

  it('as a new file, fails with what the caller says when the name is taken', async () => {
    const dir = folderWith({ 'a.csv': 'mine' })
    const taken = (target: string) =>
      new AppFailure({ code: 'CONFLICT', message: `taken: ${path.basename(target)}` })
    const failure = await failureOf(writeAtomically(dir, 'a.csv', 'x', { ...asNew, taken }))
    expect(failure.error.message).toBe('taken: a.csv')
  })

  it('at the next free name, never overwrites and says where it went, with or without links', async () => {
    for (const ops of [nodeFileOps, noLinks]) {
      const dir = folderWith({ SHA256SUMS: 'one', 'SHA256SUMS (2)': 'two' })
      const final = await writeAtomically(dir, 'SHA256SUMS', 'three', { ...nextFree, ops })
      expect(final).toBe(path.join(dir, 'SHA256SUMS (3)'))
      expect(fs.readFileSync(path.join(dir, 'SHA256SUMS'), 'utf8')).toBe('one')
      expect(fs.readFileSync(path.join(dir, 'SHA256SUMS (2)'), 'utf8')).toBe('two')
      expect(fs.readFileSync(final, 'utf8')).toBe('three')
      expect(fs.readdirSync(dir).filter((n) => PARTIAL_NAME.test(n))).toEqual([])
    }
  })

  it('fsyncs the whole text before the file takes its name, and the folder after', async () => {
    for (const options of [replace, asNew, nextFree]) {
      const dir = folderWith({})
      const steps: string[] = []
      const ops: FileOps = {
        ...nodeFileOps,
        async open(file, flags, mode) {
          steps.push(`open ${PARTIAL_NAME.test(path.basename(file)) ? 'temp' : 'other'} ${flags}`)
          const handle = await nodeFileOps.open(file, flags, mode)
          return {
            // A short write: the rest must still be written.
            write: async (buffer, offset, length) => {
              steps.push('write')
              return handle.write(buffer, offset, Math.min(length, 3))
            },
            datasync: () => handle.datasync(),
            sync: async () => {
              steps.push('sync')
              await handle.sync()
            },
            close: async () => {
              steps.push('close')
              await handle.close()
            },
          }
        },
        link: async (from, to) => {
          steps.push('link')
          await nodeFileOps.link(from, to)
        },
        rename: async (from, to) => {
          steps.push('rename')
          await nodeFileOps.rename(from, to)
        },
        syncDir: async (p) => {
          steps.push(p === dir ? 'sync folder' : `sync ${p}`)
          await nodeFileOps.syncDir(p)
        },
      }
      await writeAtomically(dir, 'a.txt', 'ten bytes!', { ...options, ops })
      const move = options.place === 'replace' ? 'rename' : 'link'
      expect(steps).toEqual([
        'open temp wx',
        'write',
        'write',
        'write',
        'write',
        'sync',
        'close',
        move,
        'sync folder',
      ])
      expect(fs.readdirSync(dir)).toEqual(['a.txt'])
      expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('ten bytes!')
    }
  })

  it('makes a file for this user only, unless told another mode', async () => {
    const dir = folderWith({})
    const own = await writeAtomically(dir, 'own.txt', 'x', replace)
    expect(fs.statSync(own).mode & 0o777).toBe(0o600)
    const shared = await writeAtomically(dir, 'shared.txt', 'x', { ...replace, mode: 0o640 })
    expect(fs.statSync(shared).mode & 0o777).toBe(0o640 & ~process.umask())
  })

  it('a full disk leaves the old file and no temp file, and says which folder', async () => {
    const dir = folderWith({ 'a.csv': 'old' })
    const full: FileOps = {
      ...nodeFileOps,
      async open(file, flags, mode) {
        const handle = await nodeFileOps.open(file, flags, mode)
        return {
          write: async () => {
            throw Object.assign(new Error('no space'), { code: 'ENOSPC' })
          },
          datasync: () => handle.datasync(),
          sync: () => handle.sync(),
          close: () => handle.close(),
        }
      },
    }
    const failure = await failureOf(
      writeAtomically(dir, 'a.csv', 'id\r\n', { ...replace, ops: full }),
    )
    expect(failure.error.code).toBe('DISK_FULL')
    expect(failure.error.message).toContain(dir)
    expect(fs.readdirSync(dir)).toEqual(['a.csv'])
    expect(fs.readFileSync(path.join(dir, 'a.csv'), 'utf8')).toBe('old')
  })

  it('a move that is refused leaves the old file and no temp file, and says what it was doing', async () => {
    const dir = folderWith({ 'a.csv': 'old' })
    const denied: FileOps = {
      ...nodeFileOps,
      rename: async () => {
        throw Object.assign(new Error('denied'), { code: 'EACCES' })
      },
    }
    const failure = await failureOf(
      writeAtomically(dir, 'a.csv', 'new', { ...replace, ops: denied }),
    )
    expect(failure.error.code).toBe('PERMISSION_DENIED')
    expect(failure.error.message).toMatch(/^Could not save the CSV file: /)
    expect(fs.readdirSync(dir)).toEqual(['a.csv'])
    expect(fs.readFileSync(path.join(dir, 'a.csv'), 'utf8')).toBe('old')
  })

  it('a folder that is not there is NO_FOLDER, and nothing is created', async () => {
    const dir = folderWith({})
    const missing = path.join(dir, 'gone')
    const failure = await failureOf(writeAtomically(missing, 'a.csv', 'x', nextFree))
    expect(failure.error.code).toBe('NO_FOLDER')
    expect(failure.error.message).toContain(missing)
    expect(fs.readdirSync(dir)).toEqual([])
  })
})
