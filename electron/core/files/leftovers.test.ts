import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { partialName } from './download'
import { removeStalePartials } from './leftovers'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-leftovers-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe('removing the partial files of interrupted downloads at start', () => {
  it('removes only our partial files directly inside the download folders', async () => {
    const folder = fs.mkdtempSync(path.join(dir, 'f-'))
    const other = fs.mkdtempSync(path.join(dir, 'other-'))
    const stale = path.join(folder, partialName('report - 1 - 2026-01-01.pdf'))
    fs.writeFileSync(stale, 'half a file')
    const keep = [
      'report.pdf',
      '.report.pdf.partial', // no random part: not a name ScanDesk makes
      'notes.partial',
      '.report.pdf.0123456789ab.partial.txt',
      '.report.pdf.0123456789AB.partial', // upper-case hex: not ours
    ]
    for (const name of keep) fs.writeFileSync(path.join(folder, name), 'keep')
    // A folder and a link with our partial name, and a partial below the folder: kept.
    fs.mkdirSync(path.join(folder, '.dir.pdf.0123456789ab.partial'))
    const target = path.join(other, 'target.pdf')
    fs.writeFileSync(target, 'not ours')
    fs.symlinkSync(target, path.join(folder, '.link.pdf.0123456789ab.partial'))
    fs.mkdirSync(path.join(folder, 'Quarantine'))
    const nested = path.join(folder, 'Quarantine', '.x.pdf.0123456789ab.partial')
    fs.writeFileSync(nested, 'keep')
    // A partial in a folder that is not a download folder: kept.
    const outside = path.join(other, partialName('r.pdf'))
    fs.writeFileSync(outside, 'keep')

    const removed = await removeStalePartials([folder, folder, path.join(dir, 'gone')])
    expect(removed).toEqual([stale])
    expect(fs.existsSync(stale)).toBe(false)
    for (const name of keep) expect(fs.existsSync(path.join(folder, name))).toBe(true)
    expect(fs.statSync(path.join(folder, '.dir.pdf.0123456789ab.partial')).isDirectory()).toBe(true)
    expect(fs.lstatSync(path.join(folder, '.link.pdf.0123456789ab.partial')).isSymbolicLink()).toBe(
      true,
    )
    expect(fs.readFileSync(target, 'utf8')).toBe('not ours')
    expect(fs.existsSync(nested)).toBe(true)
    expect(fs.existsSync(outside)).toBe(true)
  })
})
