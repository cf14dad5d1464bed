import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { nodeFileOps, type FileOps } from './fs-ops'
import { candidateName, placeWithoutOverwrite } from './place'

function folderWith(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-place-'))
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text)
  return dir
}

describe('choosing a free name', () => {
  it('numbers before the extension, or at the end without one', () => {
    expect(candidateName('a - r1 - 2024-05-01.pdf', 1)).toBe('a - r1 - 2024-05-01.pdf')
    expect(candidateName('a - r1 - 2024-05-01.pdf', 2)).toBe('a - r1 - 2024-05-01 (2).pdf')
    expect(candidateName('report', 3)).toBe('report (3)')
  })
})

describe('placing a finished file', () => {
  it('moves the temp file into place and removes the temp name', async () => {
    const dir = folderWith({ '.x.partial': 'new' })
    const final = await placeWithoutOverwrite(
      nodeFileOps,
      path.join(dir, '.x.partial'),
      dir,
      'r.pdf',
    )
    expect(final).toBe(path.join(dir, 'r.pdf'))
    expect(fs.readdirSync(dir)).toEqual(['r.pdf'])
  })

  it('never overwrites: takes (2), then (3)', async () => {
    const dir = folderWith({ 'r.pdf': 'one', 'r (2).pdf': 'two', '.x.partial': 'three' })
    const final = await placeWithoutOverwrite(
      nodeFileOps,
      path.join(dir, '.x.partial'),
      dir,
      'r.pdf',
    )
    expect(path.basename(final)).toBe('r (3).pdf')
    expect(fs.readFileSync(path.join(dir, 'r.pdf'), 'utf8')).toBe('one')
    expect(fs.readFileSync(path.join(dir, 'r (2).pdf'), 'utf8')).toBe('two')
    expect(fs.readFileSync(final, 'utf8')).toBe('three')
  })

  it('without hard links (FAT, some shares) it still never overwrites', async () => {
    const dir = folderWith({ 'r.pdf': 'old', '.x.partial': 'new' })
    const noLinks: FileOps = {
      ...nodeFileOps,
      link: async () => {
        throw Object.assign(new Error('not supported'), { code: 'EPERM' })
      },
    }
    const final = await placeWithoutOverwrite(noLinks, path.join(dir, '.x.partial'), dir, 'r.pdf')
    expect(path.basename(final)).toBe('r (2).pdf')
    expect(fs.readFileSync(path.join(dir, 'r.pdf'), 'utf8')).toBe('old')
    expect(fs.readFileSync(final, 'utf8')).toBe('new')
    expect(fs.readdirSync(dir).sort()).toEqual(['r (2).pdf', 'r.pdf'])
  })

  it('tries only as many names as it is told, then fails with EEXIST and moves nothing', async () => {
    const dir = folderWith({ 'r.pdf': 'one', '.x.partial': 'new' })
    const temp = path.join(dir, '.x.partial')
    await expect(placeWithoutOverwrite(nodeFileOps, temp, dir, 'r.pdf', 1)).rejects.toMatchObject({
      code: 'EEXIST',
    })
    expect(fs.readFileSync(path.join(dir, 'r.pdf'), 'utf8')).toBe('one')
    expect(fs.readdirSync(dir).sort()).toEqual(['.x.partial', 'r.pdf'])
  })

  it('fsyncs the folder after the move', async () => {
    const dir = folderWith({ '.x.partial': 'new' })
    const synced: string[] = []
    const ops: FileOps = { ...nodeFileOps, syncDir: async (p) => void synced.push(p) }
    await placeWithoutOverwrite(ops, path.join(dir, '.x.partial'), dir, 'r.pdf')
    expect(synced).toEqual([dir])
  })
})
