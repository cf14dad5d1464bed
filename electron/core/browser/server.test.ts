import { createHash } from 'node:crypto'
import { request } from 'node:http'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CoreEvents } from '../events'
import type { CallContext } from '../handlers/dispatch'
import { startBrowserServer, type RunningBrowserServer } from './server'
import { exchange, pageKeyOf, send, signIn } from './test-http'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const calls: { channel: string; payload: unknown; ctx: CallContext }[] = []
const events = new CoreEvents()
const fakeCore = {
  events,
  async dispatch(channel: string, payload: unknown, ctx: CallContext) {
    calls.push({ channel, payload, ctx })
    return JSON.stringify({ ok: true, data: { echoed: channel, payload } })
  },
}

let root: string
let server: RunningBrowserServer
let cookie: string
let key: string

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'scandesk-browser-'))
  const rendererDir = join(root, 'renderer')
  mkdirSync(join(rendererDir, 'assets'), { recursive: true })
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>ScanDesk</title>')
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)')
  writeFileSync(join(rendererDir, 'assets', 'ResourceTable-CmNnM_-p.js'), 'console.log(2)')
  writeFileSync(join(root, 'package.json'), '{"secret": "outside the renderer"}')
  server = await startBrowserServer({ core: fakeCore, rendererDir })
  ;({ cookie, key } = await exchange(server))
})

afterAll(async () => {
  await server.close()
  rmSync(root, { recursive: true, force: true })
})

describe('the launch token', () => {
  it('is a one-time loopback address with a 256-bit random token', () => {
    const launch = server.newLaunch()
    expect(launch.url).toBe(`http://127.0.0.1:${server.port}/?token=${launch.token}`)
    expect(launch.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(server.newLaunch().token).not.toBe(launch.token)
  })

  it('is exchanged for an HttpOnly SameSite=Strict session cookie, a page key and a hop to /', async () => {
    const launch = server.newLaunch()
    const answer = await send(server.port, `/?token=${launch.token}`)
    expect(answer.status).toBe(200)
    // the page's script keeps the key in this tab's storage and replaces itself with `/`
    const pageKey = pageKeyOf(answer.body)
    const script = /<script>(.*)<\/script>/.exec(answer.body)![1]
    expect(script).toBe(
      `try{sessionStorage.setItem("scandesk-bridge-key","${pageKey}")}catch(e){}location.replace("/")`,
    )
    // only that script may run: the policy names its hash and nothing else
    const hash = createHash('sha256').update(script).digest('base64')
    expect(answer.headers['content-security-policy']).toBe(
      `default-src 'none'; script-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    )
    expect(answer.body).not.toContain(launch.token)
    expect(answer.headers['referrer-policy']).toBe('no-referrer')
    expect(answer.headers['cache-control']).toBe('no-store')
    const set = answer.headers['set-cookie'] ?? []
    expect(set).toHaveLength(1)
    const [pair, ...attributes] = set[0].split('; ')
    const [name, value] = pair.split('=')
    expect(name).toBe(server.cookieName)
    expect(attributes).toEqual(['HttpOnly', 'SameSite=Strict', 'Path=/'])
    // the session is its own random value, not the token, and the page key is another
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(value).not.toBe(launch.token)
    expect(pageKey).not.toBe(value)
    expect(pageKey).not.toBe(launch.token)
    expect(String(answer.headers['set-cookie'])).not.toContain(pageKey)
    expect(await launch.settled).toBe('exchanged')
    const page = await send(server.port, '/', { headers: { Cookie: pair } })
    expect(page.status).toBe(200)
    expect(page.body).toContain('<title>ScanDesk</title>')
  })

  it('works once: a second use is refused and sets no cookie', async () => {
    const { token } = server.newLaunch()
    expect((await send(server.port, `/?token=${token}`)).status).toBe(200)
    const again = await send(server.port, `/?token=${token}`, { headers: { Cookie: cookie } })
    expect(again.status).toBe(401)
    expect(again.headers['set-cookie']).toBeUndefined()
    expect(again.body).toMatch(/already used or has expired/)
  })

  it('is refused once expired and sets no cookie', async () => {
    const quick = await startBrowserServer({ core: fakeCore, rendererDir: root, launchTtlMs: 40 })
    try {
      const launch = quick.newLaunch()
      await sleep(80)
      expect(await launch.settled).toBe('expired')
      const answer = await send(quick.port, `/?token=${launch.token}`)
      expect(answer.status).toBe(401)
      expect(answer.headers['set-cookie']).toBeUndefined()
    } finally {
      await quick.close()
    }
  })

  it('is refused in the query of /bridge/call/* even with a valid cookie, and spent', async () => {
    const { token } = server.newLaunch()
    const before = calls.length
    const answer = await send(server.port, `/bridge/call/app.info?token=${token}`, {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/json' },
      body: '{}',
    })
    expect(answer.status).toBe(400)
    expect(answer.headers['set-cookie']).toBeUndefined()
    expect(calls.length).toBe(before)
    expect((await send(server.port, `/?token=${token}`)).status).toBe(401)
  })

  it.each([
    ['GET', '/bridge/events'],
    ['GET', '/assets/app.js'],
    ['GET', '/scans/running'],
    ['POST', '/'],
    ['HEAD', '/'],
  ])('is refused on %s %s with 400 and sets no cookie', async (method, path) => {
    const { token } = server.newLaunch()
    const answer = await send(server.port, `${path}?token=${token}`, { method })
    expect(answer.status).toBe(400)
    expect(answer.headers['set-cookie']).toBeUndefined()
  })

  it('answers 401 to a wrong token and sets no cookie', async () => {
    const answer = await send(server.port, '/?token=not-the-token')
    expect(answer.status).toBe(401)
    expect(answer.headers['set-cookie']).toBeUndefined()
  })
})

describe('the session cookie', () => {
  const sessionValue = () => cookie.slice(cookie.indexOf('=') + 1)

  it('is named for this run: the port and a random part', async () => {
    expect(server.cookieName).toMatch(new RegExp(`^scandesk-${server.port}-[0-9a-f]{16}$`))
    const other = await startBrowserServer({ core: fakeCore, rendererDir: root })
    try {
      expect(other.cookieName).toContain(`-${other.port}-`)
      expect(other.cookieName).not.toBe(server.cookieName)
    } finally {
      await other.close()
    }
  })

  it('is required: no cookie gets 401 and no page', async () => {
    const answer = await send(server.port, '/')
    expect(answer.status).toBe(401)
    expect(answer.body).not.toContain('ScanDesk</title>')
  })

  it('ignores a valid session value under another port’s cookie name', async () => {
    const otherPort = server.port === 65535 ? 1024 : server.port + 1
    const random = server.cookieName.split('-').pop()
    for (const name of [`scandesk-${otherPort}-${random}`, 'scandesk_token']) {
      const answer = await send(server.port, '/', {
        headers: { Cookie: `${name}=${sessionValue()}` },
      })
      expect(answer.status).toBe(401)
    }
  })

  it('refuses this run’s cookie name carrying another value', async () => {
    const answer = await send(server.port, '/', {
      headers: { Cookie: `${server.cookieName}=${'a'.repeat(43)}` },
    })
    expect(answer.status).toBe(401)
  })

  it('is accepted among other cookies', async () => {
    const answer = await send(server.port, '/', {
      headers: { Cookie: `other=1; ${cookie}; scandesk-1-x=y` },
    })
    expect(answer.status).toBe(200)
  })

  it('ends with the run', async () => {
    const brief = await startBrowserServer({ core: fakeCore, rendererDir: join(root, 'renderer') })
    const pending = brief.newLaunch()
    const own = await signIn(brief)
    expect((await send(brief.port, '/', { headers: { Cookie: own } })).status).toBe(200)
    await brief.close()
    expect(await pending.settled).toBe('closed')
  })
})

describe('browser-mode access control', () => {
  it('answers 403 to a foreign Host header (DNS rebinding)', async () => {
    const answer = await send(server.port, '/', {
      headers: { Host: `evil.example:${server.port}`, Cookie: cookie },
    })
    expect(answer.status).toBe(403)
  })

  it('accepts localhost:<port> as Host', async () => {
    const answer = await send(server.port, '/', {
      headers: { Host: `localhost:${server.port}`, Cookie: cookie },
    })
    expect(answer.status).toBe(200)
  })

  it('answers 403 to a foreign Origin even with the cookie', async () => {
    const answer = await send(server.port, '/bridge/call/app.info', {
      method: 'POST',
      headers: {
        Cookie: cookie,
        Origin: 'http://evil.example',
        'Content-Type': 'application/json',
      },
      body: '{}',
    })
    expect(answer.status).toBe(403)
    expect(calls.some((c) => c.channel === 'app.info')).toBe(false)
  })
})

describe('bridge calls', () => {
  const post = (path: string, body: string | Buffer, type = 'application/json') =>
    send(server.port, path, {
      method: 'POST',
      headers: {
        Cookie: cookie,
        'X-ScanDesk-Key': key,
        Origin: `http://127.0.0.1:${server.port}`,
        'Content-Type': type,
      },
      body,
    })

  it('hands the parsed payload to core.dispatch with origin browser and returns its text', async () => {
    const answer = await post('/bridge/call/settings.set', '{"theme":"dark"}')
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toMatch(/^application\/json/)
    expect(JSON.parse(answer.body)).toEqual({
      ok: true,
      data: { echoed: 'settings.set', payload: { theme: 'dark' } },
    })
    expect(calls.at(-1)).toEqual({
      channel: 'settings.set',
      payload: { theme: 'dark' },
      ctx: { origin: 'browser' },
    })
  })

  it('answers a body that is not JSON with a VALIDATION result and no dispatch', async () => {
    const before = calls.length
    const answer = await post('/bridge/call/settings.set', '{"theme":')
    expect(answer.status).toBe(200)
    const result = JSON.parse(answer.body)
    expect(result.ok).toBe(false)
    expect(result.error.code).toBe('VALIDATION')
    expect(calls.length).toBe(before)
  })

  it('answers 413 to a body over 1 MiB', async () => {
    const before = calls.length
    const big = Buffer.alloc(1024 * 1024 + 10, 0x20)
    const answer = await post('/bridge/call/settings.set', big)
    expect(answer.status).toBe(413)
    expect(calls.length).toBe(before)
  })

  it('refuses a body that is not declared as JSON (no form-post CSRF)', async () => {
    const answer = await post('/bridge/call/settings.get', '{}', 'text/plain')
    expect(answer.status).toBe(415)
  })

  it('answers 404 to an unknown channel and unknown bridge paths', async () => {
    expect((await post('/bridge/call/secrets.dump', '{}')).status).toBe(404)
    expect((await post('/bridge/other', '{}')).status).toBe(404)
  })
})

describe('bridge events', () => {
  it('delivers an emitted event over SSE and unsubscribes when the client disconnects', async () => {
    const listeners = () => (events as unknown as { emitter: NodeJS.EventEmitter }).emitter
    const before = listeners().listenerCount('connectivity')
    const received = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: server.port,
          // EventSource cannot send headers: the page key rides in the stream's query
          path: `/bridge/events?key=${key}`,
          headers: { Host: `127.0.0.1:${server.port}`, Cookie: cookie },
        },
        (res) => {
          expect(res.statusCode).toBe(200)
          expect(res.headers['content-type']).toMatch(/^text\/event-stream/)
          let text = ''
          res.on('data', (chunk: Buffer) => {
            text += chunk.toString()
            if (text.includes(': connected')) {
              if (!text.includes('event: connectivity')) {
                events.emit('connectivity', {
                  accountId: 'a1',
                  state: 'unreachable',
                  online: false,
                  checkedAt: '2024-01-01T00:00:00.000Z',
                  message: null,
                  nextCheckAt: null,
                })
              }
            }
            const end = text.indexOf('\n\n', text.indexOf('event: connectivity'))
            if (text.includes('event: connectivity') && end > 0) {
              req.destroy()
              resolve(text)
            }
          })
        },
      )
      req.on('error', (err) => {
        if (!(err as NodeJS.ErrnoException).code?.includes('ECONNRESET')) reject(err)
      })
      req.end()
    })
    expect(received).toContain(
      'event: connectivity\ndata: {"accountId":"a1","state":"unreachable","online":false,"checkedAt":"2024-01-01T00:00:00.000Z","message":null,"nextCheckAt":null}\n\n',
    )
    await expect.poll(() => listeners().listenerCount('connectivity')).toBe(before)
  })

  it('sends heartbeat comments', async () => {
    const quick = await startBrowserServer({ core: fakeCore, rendererDir: root, heartbeatMs: 20 })
    try {
      const { cookie: quickCookie, key: quickKey } = await exchange(quick)
      const text = await new Promise<string>((resolve) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: quick.port,
            path: '/bridge/events',
            headers: {
              Host: `127.0.0.1:${quick.port}`,
              Cookie: quickCookie,
              'X-ScanDesk-Key': quickKey,
            },
          },
          (res) => {
            let seen = ''
            res.on('data', (c: Buffer) => {
              seen += c.toString()
              if (seen.includes(': heartbeat')) {
                req.destroy()
                resolve(seen)
              }
            })
          },
        )
        req.on('error', () => {})
        req.end()
      })
      expect(text).toContain(': heartbeat\n\n')
    } finally {
      await quick.close()
    }
  })
})

describe('the content policy of every answer', () => {
  it('sends a policy with every kind of answer: files, calls, refusals, unknown paths', async () => {
    const none = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    const json = {
      Cookie: cookie,
      'X-ScanDesk-Key': key,
      Origin: `http://127.0.0.1:${server.port}`,
      'Content-Type': 'application/json',
    }
    const answers = {
      index: await send(server.port, '/', { headers: { Cookie: cookie } }),
      script: await send(server.port, '/assets/app.js', { headers: { Cookie: cookie } }),
      call: await send(server.port, '/bridge/call/app.info', {
        method: 'POST',
        headers: json,
        body: '{}',
      }),
      unknownChannel: await send(server.port, '/bridge/call/nope', {
        method: 'POST',
        headers: json,
        body: '{}',
      }),
      noCookie: await send(server.port, '/'),
      foreignHost: await send(server.port, '/', {
        headers: { Host: 'evil.example', Cookie: cookie },
      }),
      missing: await send(server.port, '/nowhere.js', { headers: { Cookie: cookie } }),
    }
    for (const [name, answer] of Object.entries(answers)) {
      const policy = String(answer.headers['content-security-policy'] ?? '')
      expect(policy, name).toMatch(/^default-src 'none'; /)
      expect(policy, name).toContain("form-action 'none'")
      expect(policy, name).toContain("frame-ancestors 'none'")
      if (name !== 'index' && name !== 'script') expect(policy, name).toBe(none)
    }
  })
})

describe('static files', () => {
  it('serves index.html with the strict CSP, nosniff, no-referrer and no-store', async () => {
    const answer = await send(server.port, '/', { headers: { Cookie: cookie } })
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(answer.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    )
    expect(answer.headers['x-content-type-options']).toBe('nosniff')
    expect(answer.headers['referrer-policy']).toBe('no-referrer')
    expect(answer.headers['cache-control']).toBe('no-store')
  })

  it('serves scripts as JavaScript', async () => {
    const answer = await send(server.port, '/assets/app.js', { headers: { Cookie: cookie } })
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(answer.body).toBe('console.log(1)')
  })

  it('lets the browser keep a built file named by its hash, and ask again for any other', async () => {
    const hashed = await send(server.port, '/assets/ResourceTable-CmNnM_-p.js', {
      headers: { Cookie: cookie },
    })
    expect(hashed.status).toBe(200)
    expect(hashed.body).toBe('console.log(2)')
    expect(hashed.headers['cache-control']).toBe('private, max-age=31536000, immutable')
    const plain = await send(server.port, '/assets/app.js', { headers: { Cookie: cookie } })
    expect(plain.headers['cache-control']).toBe('no-cache')
    const shell = await send(server.port, '/scans/running', { headers: { Cookie: cookie } })
    expect(shell.headers['cache-control']).toBe('no-store')
  })

  it('serves the app shell for history-mode routes', async () => {
    const answer = await send(server.port, '/scans/running', { headers: { Cookie: cookie } })
    expect(answer.status).toBe(200)
    expect(answer.body).toContain('<title>ScanDesk</title>')
  })

  it.each([
    '/../package.json',
    '/%2e%2e/package.json',
    '/assets/..%2f..%2fpackage.json',
    '/assets/%2e%2e/%2e%2e/package.json',
  ])('refuses the traversal %s', async (path) => {
    const answer = await send(server.port, path, { headers: { Cookie: cookie } })
    expect(answer.status).toBe(404)
    expect(answer.body).not.toContain('outside the renderer')
  })

  it('answers the unprompted favicon request with 204 rather than a 404', async () => {
    const answer = await send(server.port, '/favicon.ico', { headers: { Cookie: cookie } })
    expect(answer.status).toBe(204)
    expect(answer.body).toBe('')
  })

  it('answers 404 for a missing asset', async () => {
    const answer = await send(server.port, '/assets/missing.js', { headers: { Cookie: cookie } })
    expect(answer.status).toBe(404)
  })
})
