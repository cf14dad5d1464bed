import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openMemoryDatabase } from '../store/database'
import { SettingsRepo } from '../store/settings-repo'
import { writeAtomically } from './atomic-write'
import { nodeFileOps, type FileOps } from './fs-ops'
import { PendingTemps } from './pending-temps'

const dirs: string[] = []
function folder(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-pending-')))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

const journal = () => new PendingTemps(new SettingsRepo(openMemoryDatabase()))
const TEMP = '.audit.csv.0123456789ab.partial'

describe('the temp file journal', () => {
  it('notes the temp file while it is written and forgets it once it has its name', async () => {
    const dir = folder()
    const pending = journal()
    const seen: string[] = []
    const ops: FileOps = {
      ...nodeFileOps,
      open: async (p, flags, mode) => {
        seen.push(...pending.noted())
        return nodeFileOps.open(p, flags, mode)
      },
    }
    await writeAtomically(dir, 'a.csv', 'x\n', {
      place: 'new',
      doing: 'save',
      ops,
      journal: pending,
    })
    expect(seen).toHaveLength(1)
    expect(path.dirname(seen[0])).toBe(dir)
    expect(pending.noted()).toEqual([])
    expect(fs.readdirSync(dir)).toEqual(['a.csv'])
  })

  it('forgets the temp file of a write that failed (and removed it)', async () => {
    const dir = folder()
    const pending = journal()
    const ops: FileOps = {
      ...nodeFileOps,
      rename: async () => {
        throw Object.assign(new Error('full'), { code: 'ENOSPC' })
      },
      link: async () => {
        throw Object.assign(new Error('full'), { code: 'ENOSPC' })
      },
    }
    await expect(
      writeAtomically(dir, 'a.csv', 'x\n', { place: 'new', doing: 'save', ops, journal: pending }),
    ).rejects.toMatchObject({ error: { code: 'DISK_FULL' } })
    expect(pending.noted()).toEqual([])
    expect(fs.readdirSync(dir)).toEqual([])
  })

  it('removes at start the temp files a kill left, and only those', async () => {
    const dir = folder()
    const pending = journal()
    const left = path.join(dir, TEMP)
    fs.writeFileSync(left, 'half')
    pending.add(left)
    // Gone already: nothing to do.
    pending.add(path.join(dir, '.gone.csv.0123456789ab.partial'))
    expect(await pending.sweep()).toEqual([left])
    expect(fs.readdirSync(dir)).toEqual([])
    expect(pending.noted()).toEqual([])
  })

  it('never removes a file without a temp name, a folder, a link or through a link', async () => {
    const dir = folder()
    const elsewhere = folder()
    const pending = journal()
    // A note the page could not make, but the sweep checks anyway: not a temp file's name.
    const kept = path.join(dir, 'report.pdf')
    fs.writeFileSync(kept, 'keep')
    pending.add(kept)
    // A folder with a temp file's name.
    const asFolder = path.join(dir, '.b.csv.0123456789ab.partial')
    fs.mkdirSync(asFolder)
    pending.add(asFolder)
    // A link with a temp file's name, to a file elsewhere.
    const target = path.join(elsewhere, 'precious.txt')
    fs.writeFileSync(target, 'keep')
    const asLink = path.join(dir, '.c.csv.0123456789ab.partial')
    fs.symlinkSync(target, asLink)
    pending.add(asLink)
    // The noted folder swapped for a link to another folder holding a file of that name.
    const swapped = path.join(dir, 'out')
    fs.writeFileSync(path.join(elsewhere, TEMP), 'keep')
    fs.symlinkSync(elsewhere, swapped)
    pending.add(path.join(swapped, TEMP))
    // Not absolute.
    pending.add(TEMP)
    expect(await pending.sweep()).toEqual([])
    expect(fs.readFileSync(kept, 'utf8')).toBe('keep')
    expect(fs.statSync(asFolder).isDirectory()).toBe(true)
    expect(fs.readFileSync(target, 'utf8')).toBe('keep')
    expect(fs.readFileSync(path.join(elsewhere, TEMP), 'utf8')).toBe('keep')
    expect(pending.noted()).toEqual([])
  })

  it('keeps at most the last 50 notes', async () => {
    const pending = journal()
    for (let i = 0; i < 60; i++) pending.add(`/x/.f${i}.csv.0123456789ab.partial`)
    const noted = pending.noted()
    expect(noted).toHaveLength(50)
    expect(noted[0]).toBe('/x/.f10.csv.0123456789ab.partial')
  })
})
