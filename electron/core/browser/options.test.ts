import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { defaultDataDir, parseCliArgs, rendererIsStale } from './options'

describe('browser-mode command line', () => {
  it('defaults to a free port, opening the browser, no demo and the XDG data folder', () => {
    const options = parseCliArgs([], { XDG_DATA_HOME: '/data/home' })
    expect(options).toEqual({
      demo: false,
      port: 0,
      dataDir: '/data/home/scandesk-browser',
      open: true,
      help: false,
    })
  })

  it('falls back to ~/.local/share when XDG_DATA_HOME is unset', () => {
    expect(defaultDataDir({})).toBe(join(homedir(), '.local', 'share', 'scandesk-browser'))
  })

  it('reads --demo, --port, --data-dir and --no-open', () => {
    const options = parseCliArgs(['--demo', '--port', '4321', '--data-dir', '/tmp/x', '--no-open'])
    expect(options).toMatchObject({ demo: true, port: 4321, dataDir: '/tmp/x', open: false })
  })

  it('refuses a port that is not a number and unknown flags', () => {
    expect(() => parseCliArgs(['--port', '80a'])).toThrow(/not a port/)
    expect(() => parseCliArgs(['--port', '70000'])).toThrow(/not a port/)
    expect(() => parseCliArgs(['--remote'])).toThrow()
  })
})

describe('deciding whether the renderer needs a build', () => {
  const root = mkdtempSync(join(tmpdir(), 'scandesk-stale-'))
  const src = join(root, 'src')
  const index = join(root, 'out', 'index.html')
  mkdirSync(join(src, 'views'), { recursive: true })
  mkdirSync(join(root, 'out'))
  writeFileSync(join(src, 'views', 'A.vue'), '<template />')
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it('builds when index.html is missing', () => {
    expect(rendererIsStale(index, [src])).toBe(true)
  })

  it('skips the build when index.html is newer than every source', () => {
    writeFileSync(index, '<html>')
    const old = new Date(Date.now() - 60_000)
    utimesSync(join(src, 'views', 'A.vue'), old, old)
    utimesSync(join(src, 'views'), old, old)
    utimesSync(src, old, old)
    expect(rendererIsStale(index, [src])).toBe(false)
  })

  it('builds when a nested source changed after the last build', () => {
    const future = new Date(Date.now() + 60_000)
    utimesSync(join(src, 'views', 'A.vue'), future, future)
    expect(rendererIsStale(index, [src])).toBe(true)
  })
})
