import { spawn, type ChildProcess } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CoreEvents } from '../events'
import type { SpawnFn } from './host'
import {
  launchOpenCommand,
  launchPageHtml,
  openWithLaunchFile,
  writeLaunchFile,
} from './launch-file'
import { startBrowserServer, type RunningBrowserServer } from './server'

const dir = mkdtempSync(join(tmpdir(), 'scandesk-launch-test-'))
const core = { events: new CoreEvents(), dispatch: async () => '{"ok":true}' }
let server: RunningBrowserServer

beforeAll(async () => {
  const rendererDir = join(dir, 'renderer')
  mkdirSync(rendererDir)
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>ScanDesk</title>')
  server = await startBrowserServer({ core, rendererDir })
})

afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

/** GET on the server as a browser would after following the launch page. */
function get(path: string): Promise<{ status: number; cookie: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path, headers: { Host: `127.0.0.1:${server.port}` } },
      (res) => {
        res.resume()
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, cookie: res.headers['set-cookie'] !== undefined }),
        )
      },
    )
    req.on('error', reject)
    req.end()
  })
}

/** A spawn that records what it was asked to start and runs `true` instead. */
function recordingSpawn(): { spawn: SpawnFn; started: { command: string; args: string[] }[] } {
  const started: { command: string; args: string[] }[] = []
  return {
    started,
    spawn: (command, args, options): ChildProcess => {
      started.push({ command, args })
      return spawn('true', [], options)
    },
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

describe('the launch page', () => {
  it('is written with mode 0600 in a new private folder and removed with it', () => {
    const url = 'http://127.0.0.1:1234/?token=abc_DEF-123'
    const file = writeLaunchFile(url, dir)
    expect(statSync(file.path).mode & 0o777).toBe(0o600)
    expect(statSync(dirname(file.path)).mode & 0o777).toBe(0o700)
    expect(readFileSync(file.path, 'utf8')).toBe(launchPageHtml(url))
    file.remove()
    expect(existsSync(dirname(file.path))).toBe(false)
    file.remove() // a second removal is harmless
  })

  it('sends the browser on to the address at once, escaped, without a referrer', () => {
    const html = launchPageHtml('http://127.0.0.1:1/?token=a"><script>')
    expect(html).toContain(
      '<meta http-equiv="refresh" content="0;url=http://127.0.0.1:1/?token=a&#34;&#62;&#60;script&#62;">',
    )
    expect(html).toContain('<meta name="referrer" content="no-referrer">')
    expect(html).not.toContain('<script>')
  })
})

describe('the command that opens the browser', () => {
  it.each(['linux', 'darwin', 'win32'] as const)(
    'on %s names the launch file, never the address or its token',
    (platform) => {
      const launch = server.newLaunch()
      const file = writeLaunchFile(launch.url, dir)
      try {
        const cmd = launchOpenCommand(platform, file.path)
        expect(cmd.args).toEqual([file.path])
        const line = [cmd.command, ...cmd.args].join(' ')
        expect(line).not.toContain(launch.token)
        expect(line).not.toContain('token=')
        expect(line).not.toContain('http')
      } finally {
        file.remove()
      }
    },
  )
})

describe('opening the browser through the launch page', () => {
  it('starts the opener on the file and removes the file once its token is exchanged', async () => {
    const launch = server.newLaunch()
    const rec = recordingSpawn()
    const file = openWithLaunchFile(launch, { platform: 'linux', spawn: rec.spawn, parent: dir })
    expect(rec.started).toEqual([{ command: 'xdg-open', args: [file.path] }])
    expect(rec.started[0].args.join(' ')).not.toContain(launch.token)

    // the browser reads the page and follows it to the token address
    const html = readFileSync(file.path, 'utf8')
    const target = new URL(/content="0;url=([^"]+)"/.exec(html)![1])
    expect(target.searchParams.get('token')).toBe(launch.token)
    const first = await get(target.pathname + target.search)
    expect(first).toEqual({ status: 200, cookie: true })
    expect(await launch.settled).toBe('exchanged')
    await settle()
    expect(existsSync(file.path)).toBe(false)
    expect(existsSync(dirname(file.path))).toBe(false)

    // and the address it held works no more
    expect(await get(target.pathname + target.search)).toEqual({ status: 401, cookie: false })
  })

  it('removes the file when its token expires unused', async () => {
    const quick = await startBrowserServer({ core, rendererDir: dir, launchTtlMs: 30 })
    try {
      const launch = quick.newLaunch()
      const file = openWithLaunchFile(launch, {
        platform: 'linux',
        spawn: recordingSpawn().spawn,
        parent: dir,
      })
      expect(existsSync(file.path)).toBe(true)
      expect(await launch.settled).toBe('expired')
      await settle()
      expect(existsSync(file.path)).toBe(false)
    } finally {
      await quick.close()
    }
  })

  it('removes the file and says so when no opener can be started', async () => {
    const launch = server.newLaunch()
    let failed = 0
    const file = openWithLaunchFile(launch, {
      platform: 'linux',
      parent: dir,
      spawn: (_command, args, options) => spawn(join(dir, 'no-such-opener'), args, options),
      onOpenFailed: () => failed++,
    })
    await expect.poll(() => failed).toBe(1)
    expect(existsSync(file.path)).toBe(false)
  })

  it('removes the file when the opener exits with an error', async () => {
    const launch = server.newLaunch()
    let failed = 0
    const file = openWithLaunchFile(launch, {
      platform: 'linux',
      parent: dir,
      spawn: (_command, _args, options) => spawn('false', [], options),
      onOpenFailed: () => failed++,
    })
    await expect.poll(() => failed).toBe(1)
    expect(existsSync(file.path)).toBe(false)
  })
})
