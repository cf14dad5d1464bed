import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { removeSaqLeftovers, removeStalePartials } from './leftovers'
import { auditBuildingName, partialName } from './names'

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

describe('removing what a crash left in the SAQ folders at start', () => {
  it('removes unfinished audit bundles and partial evidence copies, nothing finished', async () => {
    const account = fs.mkdtempSync(path.join(dir, 'acc-'))
    const saq = path.join(account, 'SAQ')
    const when = new Date('2026-01-02T03:04:05Z')
    // a bundle a crash stopped before its final rename: a PDF in, no SHA256SUMS
    const building = path.join(saq, auditBuildingName(when))
    fs.mkdirSync(path.join(building, 'saq-1 - Shop'), { recursive: true })
    fs.writeFileSync(path.join(building, 'saq-1 - Shop', 'SAQ A.pdf'), '%PDF-')
    fs.writeFileSync(path.join(building, partialName('manifest.json')), '{')
    // a finished bundle, and folders that only look alike: kept
    const finished = path.join(saq, 'Audit 2026-01-01 00-00-00')
    fs.mkdirSync(finished)
    fs.writeFileSync(path.join(finished, 'SHA256SUMS'), 'x  y\n')
    const lookalikes = [
      '.Audit 2026-01-02 03-04-05.building', // no random part
      'Audit 2026-01-02 03-04-05.0123456789ab.building', // not hidden
      '.Audit 2026-01-02 03-04-05.0123456789AB.building',
    ]
    for (const name of lookalikes) fs.mkdirSync(path.join(saq, name))
    // a link named like a building folder is not followed
    const other = fs.mkdtempSync(path.join(dir, 'other-'))
    fs.writeFileSync(path.join(other, 'keep.txt'), 'keep')
    const link = path.join(saq, auditBuildingName(when, 'abcdefabcdef'))
    fs.symlinkSync(other, link)
    // evidence: a partial copy in a requirement folder, a finished copy beside it
    const requirement = path.join(saq, 'Evidence', 'draft-1', '8.3.1')
    fs.mkdirSync(requirement, { recursive: true })
    const stale = path.join(requirement, partialName('rules.conf'))
    fs.writeFileSync(stale, 'half')
    fs.writeFileSync(path.join(requirement, 'rules.conf'), 'deny all')
    // a requirement folder that is a link: its partial is not reached
    const linkedOut = fs.mkdtempSync(path.join(dir, 'linked-'))
    const outsidePartial = path.join(linkedOut, partialName('x.txt'))
    fs.writeFileSync(outsidePartial, 'keep')
    fs.symlinkSync(linkedOut, path.join(saq, 'Evidence', 'draft-1', '12.1'))

    const removed = await removeSaqLeftovers([saq, saq, path.join(dir, 'gone', 'SAQ')])
    expect(removed.sort()).toEqual([building, stale].sort())
    expect(fs.existsSync(building)).toBe(false)
    expect(fs.existsSync(stale)).toBe(false)
    expect(fs.readdirSync(finished)).toEqual(['SHA256SUMS'])
    for (const name of lookalikes) expect(fs.existsSync(path.join(saq, name))).toBe(true)
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true)
    expect(fs.readFileSync(path.join(other, 'keep.txt'), 'utf8')).toBe('keep')
    expect(fs.readFileSync(path.join(requirement, 'rules.conf'), 'utf8')).toBe('deny all')
    expect(fs.existsSync(outsidePartial)).toBe(true)
  })
})
