import { execFile } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)

/** Runs `node scripts/start.mjs --check` with exactly the given environment. */
async function check(env: Record<string, string>): Promise<string> {
  const { stdout } = await run(process.execPath, ['scripts/start.mjs', '--check'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    timeout: 20_000,
  })
  return stdout.trim()
}

describe('npm start deciding whether Electron can start', () => {
  const fakeDist = mkdtempSync(join(tmpdir(), 'scandesk-electron-dist-'))
  const binary = join(fakeDist, process.platform === 'win32' ? 'electron.exe' : 'electron')
  writeFileSync(binary, '#!/bin/sh\n')
  chmodSync(binary, 0o755)
  afterAll(() => rmSync(fakeDist, { recursive: true, force: true }))

  it('reports that Electron cannot start on this machine (no binary), offline and at once', async () => {
    const line = await check({
      DISPLAY: ':0',
      // Any download attempt would go nowhere and fail loudly.
      HTTPS_PROXY: 'http://127.0.0.1:9',
      HTTP_PROXY: 'http://127.0.0.1:9',
    })
    expect(line).toMatch(
      /^Electron cannot start here: its binary (was never downloaded|is missing)/,
    )
  })

  it('accepts a binary given by ELECTRON_OVERRIDE_DIST_PATH when there is a display', async () => {
    const line = await check({ ELECTRON_OVERRIDE_DIST_PATH: fakeDist, DISPLAY: ':0' })
    expect(line).toBe('Electron can start here.')
  })

  it('falls back when there is no display (Linux: neither X11 nor Wayland)', async () => {
    const line = await check({ ELECTRON_OVERRIDE_DIST_PATH: fakeDist })
    expect(line).toBe(
      'Electron cannot start here: there is no display ($DISPLAY and $WAYLAND_DISPLAY are unset).',
    )
    const wayland = await check({
      ELECTRON_OVERRIDE_DIST_PATH: fakeDist,
      WAYLAND_DISPLAY: 'wayland-0',
    })
    expect(wayland).toBe('Electron can start here.')
  })

  it('reports a missing override binary', async () => {
    const line = await check({ ELECTRON_OVERRIDE_DIST_PATH: join(fakeDist, 'nope'), DISPLAY: ':0' })
    expect(line).toMatch(/^Electron cannot start here: its binary is missing/)
  })
})
