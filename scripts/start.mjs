// `npm start`: builds with electron-vite and starts Electron. Where Electron cannot start (its
// binary was never downloaded, or there is no display) it starts browser mode with the demo
// service instead. The check only looks at files and environment variables: it never downloads.
// `node scripts/start.mjs --check` prints the verdict and exits.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** The executable's path inside dist/ as Electron's own installer names it per platform. */
function defaultExecutable(platform) {
  if (platform === 'darwin') return 'Electron.app/Contents/MacOS/Electron'
  if (platform === 'win32') return 'electron.exe'
  return 'electron'
}

/**
 * Why Electron cannot start on this machine, or null when it can. Mirrors what
 * `require('electron')` resolves (path.txt, dist/, ELECTRON_OVERRIDE_DIST_PATH) without its
 * download fallback.
 */
export function electronStartProblem(env = process.env, platform = process.platform) {
  const pkgDir = join(root, 'node_modules', 'electron')
  if (!existsSync(join(pkgDir, 'package.json'))) return 'the electron package is not installed'
  const pathFile = join(pkgDir, 'path.txt')
  const relative = existsSync(pathFile)
    ? readFileSync(pathFile, 'utf8').trim()
    : defaultExecutable(platform)
  let binary
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    binary = join(env.ELECTRON_OVERRIDE_DIST_PATH, relative)
    if (!existsSync(binary)) return `its binary is missing (${binary})`
  } else {
    if (!existsSync(pathFile))
      return 'its binary was never downloaded (node_modules/electron/path.txt is missing)'
    binary = join(pkgDir, 'dist', relative)
    if (!existsSync(binary)) return `its binary is missing (node_modules/electron/dist/${relative})`
  }
  if (platform !== 'darwin' && platform !== 'win32' && !env.DISPLAY && !env.WAYLAND_DISPLAY)
    return 'there is no display ($DISPLAY and $WAYLAND_DISPLAY are unset)'
  return null
}

function electronBinary(env = process.env) {
  const pkgDir = join(root, 'node_modules', 'electron')
  const pathFile = join(pkgDir, 'path.txt')
  const relative = existsSync(pathFile)
    ? readFileSync(pathFile, 'utf8').trim()
    : defaultExecutable(process.platform)
  return env.ELECTRON_OVERRIDE_DIST_PATH
    ? join(env.ELECTRON_OVERRIDE_DIST_PATH, relative)
    : join(pkgDir, 'dist', relative)
}

function run(command, args, env = process.env) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env })
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      if (child.exitCode === null) child.kill(signal)
    })
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
}

function main(args) {
  const problem = electronStartProblem()
  if (args.includes('--check')) {
    console.log(problem ? `Electron cannot start here: ${problem}.` : 'Electron can start here.')
    return
  }
  if (problem) {
    console.log(
      `Electron cannot start here: ${problem}. Starting ScanDesk in browser mode with the demo service instead.`,
    )
    run(process.execPath, [join(root, 'scripts', 'browser.mjs'), '--demo', ...args])
    return
  }
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
  const built = spawnSync(npx, ['electron-vite', 'build'], { cwd: root, stdio: 'inherit' })
  if (built.status !== 0) process.exit(built.status ?? 1)
  const env = { ...process.env }
  delete env.ELECTRON_RUN_AS_NODE
  run(electronBinary(), ['.', ...args], env)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  main(process.argv.slice(2))
