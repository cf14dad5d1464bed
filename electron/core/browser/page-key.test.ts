// Issue 23, weakness 1: browsers do not scope cookies by port, so another server on 127.0.0.1
// that the browser visits receives browser mode's session cookie. Replayed alone (no Origin, or
// the page's own), it must not open the bridge: the page key the page's script holds is needed too.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CoreEvents } from '../events'
import { startBrowserServer, type RunningBrowserServer } from './server'
import { exchange, send } from './test-http'

const dispatched: string[] = []
const events = new CoreEvents()
const core = {
  events,
  async dispatch(channel: string) {
    dispatched.push(channel)
    return JSON.stringify({ ok: true, data: { channel } })
  },
}

let root: string
let server: RunningBrowserServer
let mine: { cookie: string; key: string }
let other: { cookie: string; key: string }

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'scandesk-page-key-'))
  mkdirSync(join(root, 'assets'))
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>ScanDesk</title>')
  writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)')
  server = await startBrowserServer({ core, rendererDir: root })
  mine = await exchange(server)
  other = await exchange(server)
})

afterAll(async () => {
  await server.close()
  rmSync(root, { recursive: true, force: true })
})

const own = () => `http://127.0.0.1:${server.port}`
const call = (headers: Record<string, string>, path = '/bridge/call/accounts.list') =>
  send(server.port, path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: '{}',
  })
const stream = (path: string, headers: Record<string, string>) =>
  send(server.port, path, { headers: { ...headers, Connection: 'close' } }).catch(() => null)

describe('the bridge with the session cookie alone', () => {
  it('refuses a call replayed with the cookie, with no Origin or the page’s own', async () => {
    for (const origin of [undefined, own()]) {
      const answer = await call({ Cookie: mine.cookie, ...(origin ? { Origin: origin } : {}) })
      expect(answer.status).toBe(401)
      expect(answer.body).toMatch(/This tab has no key for ScanDesk’s bridge/)
    }
    expect(dispatched).toEqual([])
  })

  it('refuses the event stream with the cookie alone, and subscribes nothing', async () => {
    const emitter = (events as unknown as { emitter: NodeJS.EventEmitter }).emitter
    const before = emitter.listenerCount('connectivity')
    const answer = await stream('/bridge/events', { Cookie: mine.cookie })
    expect(answer?.status).toBe(401)
    expect(answer?.headers['content-type']).toMatch(/^text\/plain/)
    expect(emitter.listenerCount('connectivity')).toBe(before)
  })

  it('still serves the app’s own files, which hold nothing of the user’s', async () => {
    expect((await send(server.port, '/', { headers: { Cookie: mine.cookie } })).status).toBe(200)
    const script = await send(server.port, '/assets/app.js', { headers: { Cookie: mine.cookie } })
    expect(script.status).toBe(200)
    expect(script.body).not.toContain(mine.key)
  })
})

describe('the page key', () => {
  it('with its cookie opens the bridge: calls in a header, the event stream in its query', async () => {
    const answer = await call({ Cookie: mine.cookie, 'X-ScanDesk-Key': mine.key, Origin: own() })
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toEqual({ ok: true, data: { channel: 'accounts.list' } })
    expect(dispatched).toEqual(['accounts.list'])
    const streamStatus = await new Promise<number>((resolve, reject) => {
      // the stream never ends: its status line is all this needs
      const req = request(
        {
          host: '127.0.0.1',
          port: server.port,
          path: `/bridge/events?key=${mine.key}`,
          headers: { Host: `127.0.0.1:${server.port}`, Cookie: mine.cookie },
        },
        (res) => {
          resolve(res.statusCode ?? 0)
          req.destroy()
        },
      )
      req.on('error', (err) => {
        if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(err)
      })
      req.end()
    })
    expect(streamStatus).toBe(200)
  })

  it('is bound to its own session: another session’s key, or the cookie’s value, is refused', async () => {
    const before = dispatched.length
    const value = mine.cookie.slice(mine.cookie.indexOf('=') + 1)
    for (const [cookie, key] of [
      [mine.cookie, other.key],
      [other.cookie, mine.key],
      [mine.cookie, value],
      [mine.cookie, `${mine.key}x`],
      [mine.cookie, ''],
    ])
      expect((await call({ Cookie: cookie, 'X-ScanDesk-Key': key })).status).toBe(401)
    // the key without any cookie is refused before it is even looked at
    expect((await call({ 'X-ScanDesk-Key': mine.key })).status).toBe(401)
    expect(dispatched.length).toBe(before)
  })

  it('is taken from the query on the event stream only', async () => {
    const before = dispatched.length
    const answer = await call({ Cookie: mine.cookie }, `/bridge/call/accounts.list?key=${mine.key}`)
    expect(answer.status).toBe(401)
    expect(dispatched.length).toBe(before)
    const wrong = await stream(`/bridge/events?key=${other.key}`, { Cookie: mine.cookie })
    expect(wrong?.status).toBe(401)
  })
})
