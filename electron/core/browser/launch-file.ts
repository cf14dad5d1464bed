// Opening the browser without putting the launch token on a command line (where `ps` and
// /proc/<pid>/cmdline show it to every local user): the token goes into a one-time HTML file in
// a private folder, and the opener is given that file's path.
import { spawn as nodeSpawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openerCommand, spawnOpener, type OpenerCommand, type SpawnFn } from './host'
import type { LaunchOutcome } from './session'

/** A launch page on disk; `remove` deletes it and its folder (safe to call more than once). */
export interface LaunchFile {
  path: string
  remove(): void
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** The launch page: sends the browser on to the launch address at once, with a link as fallback. */
export function launchPageHtml(url: string): string {
  const href = escapeHtml(url)
  return (
    '<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer">' +
    `<meta http-equiv="refresh" content="0;url=${href}">` +
    `<title>Opening ScanDesk…</title><p><a href="${href}">Open ScanDesk</a></p>\n`
  )
}

/**
 * Writes the launch page for `url` as `launch.html` (mode 0600) in a new private folder (0700)
 * under `parent` (the OS temp folder by default).
 */
export function writeLaunchFile(url: string, parent: string = tmpdir()): LaunchFile {
  const dir = mkdtempSync(join(parent, 'scandesk-launch-'))
  const path = join(dir, 'launch.html')
  writeFileSync(path, launchPageHtml(url), { mode: 0o600, flag: 'wx' })
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** The command that opens the launch page in the default browser: the file path, never the URL. */
export function launchOpenCommand(platform: NodeJS.Platform, launchFile: string): OpenerCommand {
  return openerCommand(platform, 'open', launchFile)
}

/** What openWithLaunchFile was given: the launch address and how its token ends. */
export interface LaunchToOpen {
  url: string
  settled: Promise<LaunchOutcome>
}

/** Options of openWithLaunchFile (tests substitute the platform, spawn and folder). */
export interface OpenLaunchOptions {
  platform?: NodeJS.Platform
  spawn?: SpawnFn
  parent?: string
  /** Called when the opener could not be started (the caller prints an address instead). */
  onOpenFailed?: () => void
}

/**
 * Writes the launch page for `launch`, starts the browser on it, and removes the page as soon as
 * its token is exchanged, expires or the server closes. Returns the page (for removal at exit).
 */
export function openWithLaunchFile(
  launch: LaunchToOpen,
  options: OpenLaunchOptions = {},
): LaunchFile {
  const file = writeLaunchFile(launch.url, options.parent)
  let exchanged = false
  void launch.settled.then((outcome) => {
    exchanged = outcome === 'exchanged'
    file.remove()
  })
  const cmd = launchOpenCommand(options.platform ?? process.platform, file.path)
  const spawn: SpawnFn = options.spawn ?? nodeSpawn
  let reported = false
  const failed = () => {
    if (reported || exchanged) return
    reported = true
    file.remove()
    options.onOpenFailed?.()
  }
  const child = spawnOpener(spawn, cmd)
  if (!child) {
    failed()
    return file
  }
  child.once('error', failed)
  // xdg-open exits non-zero when it found no browser.
  child.once('exit', (code) => {
    if (code !== null && code !== 0) failed()
  })
  child.unref()
  return file
}
