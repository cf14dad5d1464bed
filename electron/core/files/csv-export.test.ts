import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AppFailure } from '@contract/errors'
import { writeAtomically } from './csv-export'
import { nodeFileOps, type FileOps } from './fs-ops'

const dirs: string[] = []
function folderWith(files: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-csvw-'))
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

describe('writing a CSV export atomically', () => {
  it('replaces the chosen file in one move and leaves no temp file', async () => {
    const dir = folderWith({ 'a.csv': 'old' })
    await writeAtomically(nodeFileOps, dir, path.join(dir, 'a.csv'), 'id\r\n1\r\n', true)
    expect(fs.readdirSync(dir)).toEqual(['a.csv'])
    expect(fs.readFileSync(path.join(dir, 'a.csv'), 'utf8')).toBe('id\r\n1\r\n')
  })

  it('without replace, keeps a file that is there (CONFLICT), with or without hard links', async () => {
    const noLinks: FileOps = {
      ...nodeFileOps,
      link: async () => {
        throw Object.assign(new Error('not supported'), { code: 'EPERM' })
      },
    }
    for (const ops of [nodeFileOps, noLinks]) {
      const dir = folderWith({ 'a.csv': 'mine' })
      const failure = await failureOf(
        writeAtomically(ops, dir, path.join(dir, 'a.csv'), 'id\r\n', false),
      )
      expect(failure.error.code).toBe('CONFLICT')
      expect(fs.readdirSync(dir)).toEqual(['a.csv'])
      expect(fs.readFileSync(path.join(dir, 'a.csv'), 'utf8')).toBe('mine')
      await writeAtomically(ops, dir, path.join(dir, 'b.csv'), 'id\r\n', false)
      expect(fs.readdirSync(dir).sort()).toEqual(['a.csv', 'b.csv'])
    }
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
      writeAtomically(full, dir, path.join(dir, 'a.csv'), 'id\r\n', true),
    )
    expect(failure.error.code).toBe('DISK_FULL')
    expect(failure.error.message).toContain(dir)
    expect(fs.readdirSync(dir)).toEqual(['a.csv'])
    expect(fs.readFileSync(path.join(dir, 'a.csv'), 'utf8')).toBe('old')
  })
})
