import { readdirSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'

/** Command-line options of browser mode. */
export interface BrowserCliOptions {
  demo: boolean
  port: number
  dataDir: string
  open: boolean
  help: boolean
}

/** Usage text of `npm run browser`. */
export const USAGE =
  'Usage: npm run browser -- [--demo] [--port N] [--data-dir DIR] [--no-open]\n' +
  '  --demo          start the embedded demo service and add its account\n' +
  '  --port N        listen on 127.0.0.1:N (default: a free port)\n' +
  '  --data-dir DIR  where ScanDesk keeps its database (default: ~/.local/share/scandesk-browser)\n' +
  '  --no-open       do not open a browser; print an address that works once, within 2 minutes\n'

/** The default data folder: $XDG_DATA_HOME/scandesk-browser or ~/.local/share/scandesk-browser. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME?.trim() || join(homedir(), '.local', 'share')
  return join(base, 'scandesk-browser')
}

/** Parses the arguments of `npm run browser`; throws an Error with a readable message on misuse. */
export function parseCliArgs(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): BrowserCliOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      demo: { type: 'boolean', default: false },
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'no-open': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  let port = 0
  if (values.port !== undefined) {
    port = Number(values.port)
    if (!/^\d+$/.test(values.port) || port > 65535)
      throw new Error(`--port ${values.port} is not a port number`)
  }
  return {
    demo: values.demo ?? false,
    port,
    dataDir: values['data-dir'] ?? defaultDataDir(env),
    open: !values['no-open'],
    help: values.help ?? false,
  }
}

function newestMtime(path: string): number {
  let stat
  try {
    stat = statSync(path)
  } catch {
    return 0
  }
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue
    newest = Math.max(newest, newestMtime(join(path, entry)))
  }
  return newest
}

/** True when `<builtIndex>` is missing or older than any file among `sources` (files or folders). */
export function rendererIsStale(builtIndex: string, sources: string[]): boolean {
  let built: number
  try {
    built = statSync(builtIndex).mtimeMs
  } catch {
    return true
  }
  return sources.some((source) => newestMtime(source) > built)
}
