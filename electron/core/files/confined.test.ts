// A judged path is opened only where it was judged to be: a folder on the way swapped for a link
// between the check and the open (or swapped back right after it) is caught on the opened file.
import fs from 'node:fs'
import fsp from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AppFailure } from '@contract/errors'
import { writeAtomically } from './atomic-write'
import { isOpenedAt, openJudged, readOpenedText, realPathOf } from './confined'
import { nodeFileOps, type FileOps } from './fs-ops'
import { hashFile, INLINE_HASH_LIMIT } from './hash'

let root: string
let home: string
let elsewhere: string

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-confined-')))
  home = path.join(root, 'home')
  elsewhere = path.join(root, 'elsewhere')
  fs.mkdirSync(path.join(home, 'docs'), { recursive: true })
  fs.mkdirSync(elsewhere)
  fs.writeFileSync(path.join(home, 'docs', 'a.json'), 'mine')
  fs.writeFileSync(path.join(elsewhere, 'a.json'), 'secret')
})
afterEach(() => fs.rmSync(root, { recursive: true, force: true }))

async function failureOf(p: Promise<unknown>) {
  try {
    await p
  } catch (err) {
    if (err instanceof AppFailure) return err.error
    throw err
  }
  throw new Error('expected an AppFailure')
}

/** Replaces home/docs by a link to `elsewhere` (the real folder kept aside), or puts it back. */
function swapDocs(toLink: boolean): void {
  const docs = path.join(home, 'docs')
  if (toLink) {
    fs.renameSync(docs, path.join(home, 'docs-aside'))
    fs.symlinkSync(elsewhere, docs)
  } else {
    fs.unlinkSync(docs)
    fs.renameSync(path.join(home, 'docs-aside'), docs)
  }
}

describe('realPathOf', () => {
  it('judges a path that does not exist by the real path of its nearest existing folder', async () => {
    fs.symlinkSync(elsewhere, path.join(home, 'out'))
    const typed = path.join(home, 'out', 'new', 'deeper', 'x.csv')
    expect(await realPathOf(typed, typed)).toBe(path.join(elsewhere, 'new', 'deeper', 'x.csv'))
    expect(await realPathOf(path.join(home, 'docs', 'a.json'), '')).toBe(
      path.join(home, 'docs', 'a.json'),
    )
  })

  it('refuses a link that leads nowhere, at the end or on the way', async () => {
    fs.symlinkSync(path.join(elsewhere, 'later'), path.join(home, 'dangling'))
    for (const typed of [path.join(home, 'dangling'), path.join(home, 'dangling', 'x.csv')]) {
      const err = await failureOf(realPathOf(typed, typed))
      expect(err.code).toBe('FORBIDDEN')
      expect(err.message).toMatch(/symbolic link that leads nowhere/)
    }
  })
})

describe('openJudged', () => {
  const judged = () => path.join(home, 'docs', 'a.json')

  it('reads the file at its judged path', async () => {
    const { handle } = await openJudged(judged(), judged())
    try {
      expect(
        await readOpenedText(handle, 100, () => new AppFailure({ code: 'TOO_LARGE', message: '' })),
      ).toBe('mine')
    } finally {
      await handle.close()
    }
  })

  it('refuses when a folder on the way became a link after the check', async () => {
    swapDocs(true)
    const err = await failureOf(openJudged(judged(), judged()))
    expect(err).toMatchObject({
      code: 'FORBIDDEN',
      message: /changed while ScanDesk was opening it/,
    })
  })

  it('refuses when the link was swapped in for the open and back right after it', async () => {
    const err = await failureOf(
      openJudged(judged(), judged(), async (file, flags) => {
        swapDocs(true)
        const handle = await fsp.open(file, flags)
        swapDocs(false)
        return handle
      }),
    )
    expect(err.code).toBe('FORBIDDEN')
  })

  it('refuses a link at the end, a folder, and a missing file with their own codes', async () => {
    fs.symlinkSync(path.join(home, 'docs', 'a.json'), path.join(home, 'docs', 'l.json'))
    expect((await failureOf(openJudged(path.join(home, 'docs', 'l.json'), 'l'))).code).toBe(
      'FORBIDDEN',
    )
    expect((await failureOf(openJudged(path.join(home, 'docs'), 'docs'))).code).toBe('VALIDATION')
    expect((await failureOf(openJudged(path.join(home, 'none'), 'none'))).code).toBe(
      'FILE_NOT_FOUND',
    )
  })

  it('hashes a large file from the opened descriptor on a thread, not from the path again', async () => {
    const big = path.join(home, 'docs', 'big.bin')
    fs.writeFileSync(big, Buffer.alloc(INLINE_HASH_LIMIT + 5, 7))
    fs.writeFileSync(path.join(elsewhere, 'big.bin'), 'other')
    const { handle } = await openJudged(big, big)
    try {
      const expected = await hashFile(big)
      swapDocs(true) // the path now leads elsewhere: the open file is still the judged one
      expect(await hashFile(big, handle)).toEqual(expected)
      expect(expected.size).toBe(INLINE_HASH_LIMIT + 5)
      expect(await isOpenedAt(handle.fd, await handle.stat(), big)).toBe(false)
    } finally {
      await handle.close()
    }
  })
})

describe('writeAtomically, confined to its judged folder', () => {
  const folder = () => path.join(home, 'docs')

  it('writes into the judged folder', async () => {
    const out = await writeAtomically(folder(), 'v.json', '{}', {
      place: 'new',
      doing: 'save',
      confined: true,
    })
    expect(fs.readFileSync(out, 'utf8')).toBe('{}')
  })

  it('refuses a folder that is a link already, writing nothing', async () => {
    swapDocs(true)
    const err = await failureOf(
      writeAtomically(folder(), 'v.json', '{}', { place: 'new', doing: 'save', confined: true }),
    )
    expect(err).toMatchObject({ code: 'FORBIDDEN', message: /replaced by a symbolic link/ })
    expect(fs.readdirSync(elsewhere)).toEqual(['a.json'])
  })

  it('refuses, and removes what it made there, when the folder is swapped as the file is created', async () => {
    const ops: FileOps = {
      ...nodeFileOps,
      open: async (file, flags, mode) => {
        swapDocs(true)
        return nodeFileOps.open(file, flags, mode)
      },
    }
    const err = await failureOf(
      writeAtomically(folder(), 'v.json', '{}', {
        place: 'replace',
        doing: 'save',
        confined: true,
        ops,
      }),
    )
    expect(err.code).toBe('FORBIDDEN')
    expect(fs.readdirSync(elsewhere)).toEqual(['a.json'])
    swapDocs(false)
    expect(fs.readdirSync(folder())).toEqual(['a.json'])
  })

  it('refuses, and removes the file from the real folder, when the folder is swapped while it is written', async () => {
    const ops: FileOps = {
      ...nodeFileOps,
      open: async (file, flags, mode) => {
        const opened = await nodeFileOps.open(file, flags, mode)
        return {
          ...opened,
          fd: opened.fd,
          write: (b, o, l) => opened.write(b, o, l),
          datasync: () => opened.datasync(),
          sync: async () => {
            await opened.sync()
            swapDocs(true)
          },
          close: () => opened.close(),
        }
      },
    }
    const err = await failureOf(
      writeAtomically(folder(), 'v.json', '{}', {
        place: 'new',
        doing: 'save',
        confined: true,
        ops,
      }),
    )
    expect(err.code).toBe('FORBIDDEN')
    expect(fs.readdirSync(elsewhere)).toEqual(['a.json'])
    swapDocs(false)
    expect(fs.readdirSync(folder())).toEqual(['a.json'])
  })
})
