import { spawn } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createBrowserHost, openerCommand, type SpawnFn } from './host'

const dir = mkdtempSync(join(tmpdir(), 'scandesk-browser-host-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// A stand-in opener: a real program that records how many arguments it got, and each of them.
const opener = join(dir, 'fake-opener.sh')
writeFileSync(
  opener,
  '#!/bin/sh\nprintf \'%s\\n\' "$#" "$@" > "$OPENER_RECORD.tmp"\nmv "$OPENER_RECORD.tmp" "$OPENER_RECORD"\n',
)
chmodSync(opener, 0o755)

let recordCount = 0
/** A spawn that runs the fake opener instead of `expected`, and the record file it will write. */
function fakeOpener(expected: string): { spawn: SpawnFn; record: string; calls: string[] } {
  const record = join(dir, `record-${recordCount++}.txt`)
  const calls: string[] = []
  return {
    record,
    calls,
    spawn: (command, args, options) => {
      calls.push(command)
      if (command !== expected) throw new Error(`unexpected opener ${command}`)
      return spawn(opener, args, { ...options, env: { ...process.env, OPENER_RECORD: record } })
    },
  }
}

async function readRecord(record: string): Promise<string[]> {
  for (let i = 0; i < 200 && !existsSync(record); i++)
    await new Promise((resolve) => setTimeout(resolve, 10))
  return readFileSync(record, 'utf8').split('\n').slice(0, -1)
}

const awkward = join(dir, 'Report $(touch pwned); rm -rf ~ & "x".pdf')
writeFileSync(awkward, '%PDF-1.4\n')

describe('opening a file in browser mode', () => {
  it('starts xdg-open on Linux with the path as one argument and no shell', async () => {
    const fake = fakeOpener('xdg-open')
    const host = createBrowserHost({ platform: 'linux', spawn: fake.spawn })
    expect(await host.openPath(awkward)).toBe(true)
    expect(await readRecord(fake.record)).toEqual(['1', awkward])
    expect(existsSync(join(dir, 'pwned'))).toBe(false)
  })

  it('refuses a missing file and a folder without starting anything', async () => {
    const fake = fakeOpener('xdg-open')
    const host = createBrowserHost({ platform: 'linux', spawn: fake.spawn })
    expect(await host.openPath(join(dir, 'missing.pdf'))).toBe(false)
    expect(await host.openPath(dir)).toBe(false)
    expect(fake.calls).toEqual([])
  })

  it('answers false when the opener program does not exist', async () => {
    const host = createBrowserHost({
      platform: 'linux',
      spawn: (_command, args, options) => spawn(join(dir, 'no-such-opener'), args, options),
    })
    expect(await host.openPath(awkward)).toBe(false)
  })

  it('answers false when starting the opener throws', async () => {
    const host = createBrowserHost({
      platform: 'linux',
      spawn: () => {
        throw new Error('spawn EACCES')
      },
    })
    expect(await host.openPath(awkward)).toBe(false)
  })
})

describe('revealing a file in browser mode', () => {
  it('opens the folder that holds the file on Linux', async () => {
    const sub = join(dir, 'Reports 2024')
    mkdirSync(sub)
    const file = join(sub, 'weekly.csv')
    writeFileSync(file, 'a,b\r\n')
    const fake = fakeOpener('xdg-open')
    const host = createBrowserHost({ platform: 'linux', spawn: fake.spawn })
    expect(await host.revealPath(file)).toBe(true)
    expect(await readRecord(fake.record)).toEqual(['1', sub])
  })

  it('refuses a path that does not exist', async () => {
    const fake = fakeOpener('xdg-open')
    const host = createBrowserHost({ platform: 'linux', spawn: fake.spawn })
    expect(await host.revealPath(join(dir, 'gone', 'x.pdf'))).toBe(false)
    expect(fake.calls).toEqual([])
  })
})

describe('the opener of each platform', () => {
  it('uses open on macOS (-R to reveal) and explorer on Windows (/select to reveal)', () => {
    expect(openerCommand('darwin', 'open', '/a b/r.pdf')).toEqual({
      command: 'open',
      args: ['/a b/r.pdf'],
    })
    expect(openerCommand('darwin', 'reveal', '/a b/r.pdf')).toEqual({
      command: 'open',
      args: ['-R', '/a b/r.pdf'],
    })
    expect(openerCommand('win32', 'open', 'C:\\R x\\r.pdf')).toEqual({
      command: 'explorer.exe',
      args: ['C:\\R x\\r.pdf'],
    })
    expect(openerCommand('win32', 'reveal', 'C:\\R x\\r.pdf')).toEqual({
      command: 'explorer.exe',
      args: ['/select,"C:\\R x\\r.pdf"'],
      verbatim: true,
    })
  })
})

describe('what browser mode does not have', () => {
  it('answers null from every picker so the renderer asks for a typed path', async () => {
    const host = createBrowserHost({ platform: 'linux' })
    expect(await host.pickFolder('Download folder')).toBeNull()
    expect(await host.pickSaveAs('/tmp/r.pdf')).toBeNull()
    expect(await host.pickFile('Verify a file')).toBeNull()
  })
})
