// The browser-mode host: no OS dialogs (the renderer asks for a typed path), files opened and
// revealed with the platform's opener started without a shell, and no native notifications
// (the renderer shows toasts from exports.changed).
import { spawn as nodeSpawn, type ChildProcess, type SpawnOptions } from 'node:child_process'
import { stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { accountWindowUrl, type HostServices } from '../host'

/** What the opener does with a path: open it with its application, or show it in its folder. */
export type OpenerAction = 'open' | 'reveal'

/** One opener invocation: a program and its arguments (the path is always one argument). */
export interface OpenerCommand {
  command: string
  args: string[]
  /** Windows only: pass the arguments as written (explorer's `/select,"path"`). */
  verbatim?: boolean
}

/** The opener command of a platform: xdg-open (Linux), open (macOS), explorer (Windows). */
export function openerCommand(
  platform: NodeJS.Platform,
  action: OpenerAction,
  path: string,
): OpenerCommand {
  if (platform === 'darwin')
    return { command: 'open', args: action === 'reveal' ? ['-R', path] : [path] }
  if (platform === 'win32')
    return action === 'reveal'
      ? { command: 'explorer.exe', args: [`/select,"${path}"`], verbatim: true }
      : { command: 'explorer.exe', args: [path] }
  // xdg-open cannot select a file: revealing opens the folder that holds it.
  return { command: 'xdg-open', args: [action === 'reveal' ? dirname(path) : path] }
}

/** Starts a program the way child_process.spawn does (tests substitute one). */
export type SpawnFn = (command: string, args: string[], options: SpawnOptions) => ChildProcess

/** Options of the browser-mode host. */
export interface BrowserHostOptions {
  /** Default: process.platform. */
  platform?: NodeJS.Platform
  /** Default: child_process.spawn. */
  spawn?: SpawnFn
}

async function kindOf(path: string): Promise<'file' | 'folder' | null> {
  try {
    const s = await stat(path)
    return s.isFile() ? 'file' : s.isDirectory() ? 'folder' : null
  } catch {
    return null
  }
}

/** Starts an opener detached, without a shell; null when it could not even be spawned. */
export function spawnOpener(spawn: SpawnFn, cmd: OpenerCommand): ChildProcess | null {
  try {
    return spawn(cmd.command, cmd.args, {
      detached: true,
      shell: false,
      stdio: 'ignore',
      windowsVerbatimArguments: cmd.verbatim ?? false,
    })
  } catch {
    return null
  }
}

/** Starts the opener detached, without a shell; true once it started, false on any error. */
function launch(spawn: SpawnFn, cmd: OpenerCommand): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawnOpener(spawn, cmd)
    if (!child) return resolve(false)
    child.once('error', () => resolve(false))
    child.once('spawn', () => {
      child.unref()
      resolve(true)
    })
  })
}

/** The HostServices of browser mode. */
export function createBrowserHost(options: BrowserHostOptions = {}): HostServices {
  const platform = options.platform ?? process.platform
  const spawn: SpawnFn = options.spawn ?? nodeSpawn
  return {
    pickFolder: async () => null,
    pickSaveAs: async () => null,
    pickFile: async () => null,
    async openPath(path) {
      if ((await kindOf(path)) !== 'file') return false
      return launch(spawn, openerCommand(platform, 'open', path))
    },
    async revealPath(path) {
      if ((await kindOf(path)) === null) return false
      return launch(spawn, openerCommand(platform, 'reveal', path))
    },
    notify: () => undefined,
    openAccountWindow: async (accountId) => ({ opened: 'url', url: accountWindowUrl(accountId) }),
  }
}
