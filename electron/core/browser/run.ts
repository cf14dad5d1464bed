// Browser mode proper (started by scripts/browser-cli.ts, which decides whether the demo service
// comes along): serves the renderer and the core's handler table.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { createCore } from '../index'
import type { DemoServiceFactory } from '../demo/demo-service'
import { createBrowserHost } from './host'
import { openWithLaunchFile } from './launch-file'
import { parseCliArgs, rendererIsStale, USAGE, type BrowserCliOptions } from './options'
import { startBrowserServer } from './server'
import { LAUNCH_TTL_MS } from './session'

/** The repository root: the nearest folder above this file that holds package.json. */
export function findRoot(): string {
  let dir = typeof __dirname === 'string' ? resolve(__dirname) : process.cwd()
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = resolve(dir, '..')
    if (parent === dir) return process.cwd()
    dir = parent
  }
  return dir
}

function log(level: 'info' | 'warn' | 'error', message: string): void {
  process.stderr.write(`[${level}] ${message}\n`)
}

function buildRendererIfStale(root: string): void {
  const index = join(root, 'out', 'renderer', 'index.html')
  const sources = [join(root, 'renderer'), join(root, 'electron', 'contract')]
  if (!rendererIsStale(index, sources)) return
  process.stderr.write('Building the renderer (out/renderer)…\n')
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
  const built = spawnSync(npx, ['vite', 'build', '--config', 'renderer/vite.config.mts'], {
    cwd: root,
    stdio: ['ignore', 2, 2],
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (built.status !== 0 || !existsSync(index))
    throw new Error('The renderer build failed; see the output above.')
}

/** The line a parent process writes on browser mode's stdin (a pipe) for a fresh launch address. */
export const LAUNCH_REQUEST = 'launch-url'

/**
 * Answers LAUNCH_REQUEST lines on stdin when stdin is a pipe: only the process that started
 * browser mode holds that pipe and reads the answer on stdout. A terminal is not read (a job sent
 * to the background would be stopped by SIGTTIN).
 */
function listenForLaunchRequests(print: () => void): void {
  if (process.stdin.isTTY) return
  const lines = createInterface({ input: process.stdin, terminal: false })
  lines.on('line', (line) => {
    if (line.trim() === LAUNCH_REQUEST) print()
  })
}

/** What the entry point carries into browser mode. */
export interface BrowserModeParts {
  /** The demo service (none: "Try the demo service" and --demo say this build has none). */
  demoService?: DemoServiceFactory
}

/** Builds the renderer if needed, creates the core, serves it and prints the address. */
export async function runBrowserMode(
  options: BrowserCliOptions,
  parts: BrowserModeParts = {},
): Promise<void> {
  const { demoService } = parts
  const root = findRoot()
  buildRendererIfStale(root)
  const version = (
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
  ).version
  const core = await createCore({
    dataDir: options.dataDir,
    mode: 'browser',
    version,
    demo: demoService
      ? () =>
          demoService({
            dataFile: join(options.dataDir, 'demo-sandbox.json'),
            log: (line) => process.stderr.write(`[demo] ${line}\n`),
          })
      : undefined,
    host: createBrowserHost(),
    log,
  })
  const server = await startBrowserServer({
    core,
    rendererDir: join(root, 'out', 'renderer'),
    port: options.port,
    log,
  })

  let closing: Promise<void> | null = null
  const shutdown = (signal: string) => {
    closing ??= (async () => {
      log('info', `${signal}: shutting down`)
      await server.close()
      await core.close()
    })()
    closing.then(
      () => process.exit(0),
      (err: unknown) => {
        log('error', `shutdown failed: ${err instanceof Error ? err.message : String(err)}`)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', () => shutdown('SIGINT'))
  process.on('SIGTERM', () => shutdown('SIGTERM'))

  if (options.demo) {
    const result = JSON.parse(await core.dispatch('demo.start', {}, { origin: 'browser' })) as {
      ok: boolean
      error?: { message: string }
    }
    if (!result.ok) log('warn', `The demo service did not start: ${result.error?.message}`)
  }

  const minutes = Math.round(LAUNCH_TTL_MS / 60_000)
  const printLaunch = (lead: string) =>
    process.stdout.write(
      `${lead} (it works once, within ${minutes} minutes): ${server.newLaunch().url}\n`,
    )
  process.stdout.write(`ScanDesk (browser mode) is running at ${server.origin}\n`)
  if (options.open) {
    process.stdout.write('Opening it in your browser through a one-time launch page.\n')
    const page = openWithLaunchFile(server.newLaunch(), {
      onOpenFailed: () => printLaunch('No browser could be opened; open this address'),
    })
    process.on('exit', () => page.remove())
  } else {
    printLaunch('Open this address')
  }
  listenForLaunchRequests(() => printLaunch('New launch address'))
}

/** Entry point once the @contract alias resolves: parses arguments and runs. */
export function main(argv: string[], parts: BrowserModeParts = {}): void {
  let options: BrowserCliOptions
  try {
    options = parseCliArgs(argv)
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`)
    process.exit(2)
  }
  if (options.help) {
    process.stdout.write(USAGE)
    return
  }
  runBrowserMode(options, parts).catch((err: unknown) => {
    log('error', err instanceof Error ? err.message : String(err))
    process.exit(1)
  })
}
