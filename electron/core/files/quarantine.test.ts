import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  ensureRealFolders,
  FolderRefused,
  QUARANTINE_FOLDER,
  QuarantineRefused,
  quarantineFile,
} from './quarantine'

describe('quarantining a file that failed verification', () => {
  it('moves it into <folder>/Quarantine, creating the folder', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-q-'))
    const file = path.join(folder, 'r - 1 - 2024-05-01.pdf')
    fs.writeFileSync(file, 'bad bytes')
    const moved = await quarantineFile(file, folder)
    expect(moved).toBe(path.join(folder, QUARANTINE_FOLDER, 'r - 1 - 2024-05-01.pdf'))
    expect(fs.existsSync(file)).toBe(false)
    expect(fs.readFileSync(moved, 'utf8')).toBe('bad bytes')
  })

  it('never overwrites an earlier quarantined file of the same name', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-q-'))
    fs.mkdirSync(path.join(folder, QUARANTINE_FOLDER))
    fs.writeFileSync(path.join(folder, QUARANTINE_FOLDER, 'r.pdf'), 'first')
    const file = path.join(folder, 'r.pdf')
    fs.writeFileSync(file, 'second')
    const moved = await quarantineFile(file, folder)
    expect(path.basename(moved)).toBe('r (2).pdf')
    expect(fs.readFileSync(path.join(folder, QUARANTINE_FOLDER, 'r.pdf'), 'utf8')).toBe('first')
    expect(fs.readFileSync(moved, 'utf8')).toBe('second')
  })

  it('a file that is gone is FILE_NOT_FOUND', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-q-'))
    await expect(quarantineFile(path.join(folder, 'x.pdf'), folder)).rejects.toMatchObject({
      error: { code: 'FILE_NOT_FOUND' },
    })
  })

  it('refuses a symbolic link planted as Quarantine instead of writing through it', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-q-'))
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-q-elsewhere-'))
    fs.symlinkSync(elsewhere, path.join(folder, QUARANTINE_FOLDER), 'dir')
    const file = path.join(folder, 'r.pdf')
    fs.writeFileSync(file, 'bad bytes')
    const err = await quarantineFile(file, folder).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(QuarantineRefused)
    expect(err).toMatchObject({ error: { code: 'FORBIDDEN' } })
    const message = (err as QuarantineRefused).error.message
    expect(message).toContain(path.join(folder, QUARANTINE_FOLDER))
    expect(message).toMatch(/symbolic link/)
    expect(fs.readdirSync(elsewhere)).toEqual([])
    expect(fs.lstatSync(path.join(folder, QUARANTINE_FOLDER)).isSymbolicLink()).toBe(true)
    expect(fs.readFileSync(file, 'utf8')).toBe('bad bytes')
  })

  it('refuses a file named Quarantine with a clear error', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-q-'))
    fs.writeFileSync(path.join(folder, QUARANTINE_FOLDER), 'not a folder')
    const file = path.join(folder, 'r.pdf')
    fs.writeFileSync(file, 'bad bytes')
    await expect(quarantineFile(file, folder)).rejects.toMatchObject({
      error: { code: 'FORBIDDEN', message: expect.stringMatching(/is a file, not a folder/) },
    })
    expect(fs.readFileSync(path.join(folder, QUARANTINE_FOLDER), 'utf8')).toBe('not a folder')
  })
})

describe('making nested folders without following links', () => {
  it('creates each level, and accepts the levels that already exist', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-nest-'))
    fs.mkdirSync(path.join(base, 'SAQ'))
    const made = await ensureRealFolders(base, ['SAQ', 'Evidence', 'saq-1'], 'attach the evidence')
    expect(made).toBe(path.join(base, 'SAQ', 'Evidence', 'saq-1'))
    expect(fs.lstatSync(made).isDirectory()).toBe(true)
  })

  it('refuses a link at any level with the work named, writing nothing behind it', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-nest-'))
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-elsewhere-'))
    fs.mkdirSync(path.join(base, 'SAQ'))
    fs.symlinkSync(elsewhere, path.join(base, 'SAQ', 'Evidence'))
    const err = await ensureRealFolders(
      base,
      ['SAQ', 'Evidence', 'x'],
      'attach the evidence',
    ).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(FolderRefused)
    expect(err).not.toBeInstanceOf(QuarantineRefused)
    expect((err as FolderRefused).error).toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(
        /^Could not attach the evidence: .*Evidence is a symbolic link/,
      ),
    })
    expect(fs.readdirSync(elsewhere)).toEqual([])
  })
})
