import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { AppFailure, type AppError } from '@contract/errors'
import { createAccountClient } from './client'
import type { AccountClientOptions, AuthCredential } from './options'
import { json, startTestServer, type TestServer } from './test-server'

const CANARY = 'canary-7f3a9c1e-secret'
let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.seen.length = 0
})

const upcoming = { data: [] as unknown[] }
const target = {
  data: { id: 'tgt-001', type: 'target', attributes: { name: 'Web', address: '10.0.0.1' } },
}

function client(over: Partial<AccountClientOptions> = {}) {
  return createAccountClient({
    baseUrl: server.baseUrl,
    apiKey: `key-${CANARY}`,
    getAuth: (): AuthCredential => ({ scheme: 'Bearer', token: `tok-${CANARY}` }),
    release: 'latest',
    limits: { backoffBaseMs: 5, backoffMaxMs: 20, deadlineMs: 5_000, idleMs: 2_000 },
    ...over,
  })
}

async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p
  } catch (err) {
    expect(err).toBeInstanceOf(AppFailure)
    const error = (err as AppFailure).error
    expect(JSON.stringify(error)).not.toContain(CANARY)
    expect((err as Error).message).not.toContain(CANARY)
    return error
  }
  throw new Error('expected the call to fail')
}

describe('sending a request', () => {
  it('sends x-api-key and the Bearer token to the catalog path with the checked query', async () => {
    server.handle((_req, res) => json(res, 200, upcoming))
    const data = await client().call('scans.upcoming', { query: { limit: '5' } })
    expect(data).toEqual(upcoming)
    expect(server.seen).toHaveLength(1)
    const seen = server.seen[0]
    expect(seen.method).toBe('GET')
    expect(seen.url).toBe('/v2/scans/upcoming_scans?limit=5')
    expect(seen.headers['x-api-key']).toBe(`key-${CANARY}`)
    expect(seen.headers.authorization).toBe(`Bearer tok-${CANARY}`)
  })

  it('uses Basic for access-token accounts and keeps a base path', async () => {
    server.handle((_req, res) => json(res, 200, target))
    const c = client({
      baseUrl: `${server.baseUrl}/api`,
      getAuth: () => ({ scheme: 'Basic', token: 'acc' }),
    })
    await c.call('targets.show', { path: { id: 'tgt-001' } })
    expect(server.seen[0].url).toBe('/api/v2/targets/tgt-001')
    expect(server.seen[0].headers.authorization).toBe('Basic acc')
  })

  it('refuses to send a user operation when the account is not signed in', async () => {
    const error = await failure(client({ getAuth: () => null }).call('scans.upcoming'))
    expect(error.code).toBe('NOT_SIGNED_IN')
    expect(server.seen).toHaveLength(0)
  })
})

describe('checking input before sending', () => {
  it.each([
    ['an absolute URL', { path: { id: 'http://evil.example/x' } }],
    ['a path traversal', { path: { id: '../users' } }],
    ['a slash', { path: { id: 'a/b' } }],
    ['a wrong type', { path: { id: 42 } }],
  ])('refuses %s in a path parameter with VALIDATION', async (_name, input) => {
    const error = await failure(client().call('targets.show', input))
    expect(error.code).toBe('VALIDATION')
    expect(error.fieldErrors?.id?.length).toBeGreaterThan(0)
    expect(server.seen).toHaveLength(0)
  })

  it('refuses an extra query parameter and an extra body field', async () => {
    const q = await failure(client().call('scans.upcoming', { query: { bogus: 1 } }))
    expect(q.code).toBe('VALIDATION')
    const b = await failure(
      client().call('targets.create', { body: { name: 'x', address: '10.0.0.1', admin: true } }),
    )
    expect(b.code).toBe('VALIDATION')
    expect(server.seen).toHaveLength(0)
  })

  it('refuses a body on an operation that takes none', async () => {
    const error = await failure(client().call('scans.upcoming', { body: {} }))
    expect(error.fieldErrors).toEqual({ body: ['is not accepted by this operation'] })
  })

  it('refuses an unknown operation and one outside the account’s release', async () => {
    expect((await failure(client().call('scans.nope'))).code).toBe('UNKNOWN_OPERATION')
    const error = await failure(
      client({ release: '5.3.0' }).call('targets.calculate_hosts', {
        body: { address: '1.2.3.4' },
      }),
    )
    expect(error.code).toBe('NOT_IN_RELEASE')
    expect(error.message).toContain('5.3.0')
    expect(server.seen).toHaveLength(0)
  })
})

describe('reading answers', () => {
  it.each([
    ['malformed JSON', 'application/json', '{"data": ['],
    ['an HTML page', 'text/html', '<!doctype html><html><body>Proxy login</body></html>'],
    ['an empty body', 'application/json', ''],
    ['the wrong shape', 'application/json', '{"data": "nope"}'],
  ])('turns %s into BAD_RESPONSE', async (_name, type, body) => {
    server.handle((_req, res) => res.writeHead(200, { 'content-type': type }).end(body))
    const error = await failure(client().call('scans.upcoming'))
    expect(error.code).toBe('BAD_RESPONSE')
    expect(error.message).not.toContain('Proxy login')
  })

  it.each([
    ['no content type', null],
    ['text/plain', 'text/plain; charset=utf-8'],
    ['application/octet-stream', 'application/octet-stream'],
    ['text/javascript', 'text/javascript'],
  ])('refuses valid JSON data labelled with %s', async (_name, type) => {
    server.handle((_req, res) =>
      res.writeHead(200, type ? { 'content-type': type } : {}).end(JSON.stringify(upcoming)),
    )
    const error = await failure(client().call('scans.upcoming'))
    expect(error.code).toBe('BAD_RESPONSE')
    expect(error.message).toMatch(/not labelled as JSON/)
  })

  it.each(['application/json', 'application/json; charset=utf-8', 'application/vnd.api+json'])(
    'reads data labelled %s',
    async (type) => {
      server.handle((_req, res) =>
        res.writeHead(200, { 'content-type': type }).end(JSON.stringify(upcoming)),
      )
      await expect(client().call('scans.upcoming')).resolves.toEqual(upcoming)
    },
  )

  it('still tells a web page labelled as JSON or as text by its first tag', async () => {
    for (const type of ['application/json', 'text/plain']) {
      server.handle((_req, res) =>
        res.writeHead(200, { 'content-type': type }).end('<!DOCTYPE html><p>Proxy login</p>'),
      )
      const error = await failure(client().call('scans.upcoming'))
      expect(error.code).toBe('BAD_RESPONSE')
      expect(error.message).toMatch(/web page/)
    }
  })

  it('refuses an answer above the size cap with TOO_LARGE', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(`{"data":"${'x'.repeat(300_000)}"}`)
    })
    const error = await failure(
      client({ limits: { maxContentLength: 100_000 } }).call('scans.upcoming'),
    )
    expect(error.code).toBe('TOO_LARGE')
  })

  it('refuses a redirect without following it', async () => {
    let hits = 0
    server.handle((req, res) => {
      hits++
      res.writeHead(302, { location: 'http://127.0.0.2:1/steal' }).end()
    })
    const error = await failure(client().call('scans.upcoming'))
    expect(error.code).toBe('REDIRECT_REFUSED')
    expect(hits).toBe(1)
  })
})

describe('mapping error answers', () => {
  it.each([
    [401, 'UNAUTHORIZED'],
    [403, 'FORBIDDEN'],
    [404, 'NOT_FOUND'],
    [409, 'CONFLICT'],
    [500, 'SERVER'],
    [400, 'BAD_REQUEST'],
  ])('maps status %i to %s without echoing secrets', async (status, code) => {
    server.handle((_req, res) =>
      json(res, status, { errors: [{ detail: `bad key key-${CANARY} and tok-${CANARY}` }] }),
    )
    const error = await failure(client().call('targets.delete', { path: { id: 'tgt-001' } }))
    expect(error.code).toBe(code)
    expect(error.status).toBe(status)
  })

  it.each([
    ['a field map', { errors: { name: ['is taken'], address: 'is invalid' } }],
    ['a fields map', { fields: { name: ['is taken'], address: ['is invalid'] } }],
    [
      'an errors array with pointers',
      {
        errors: [
          { source: { pointer: '/data/attributes/name' }, detail: 'is taken' },
          { source: { pointer: '/address' }, detail: 'is invalid' },
        ],
      },
    ],
    [
      'a fields map and an errors array saying the same (each message once)',
      {
        fields: { name: ['is taken'], address: ['is invalid'] },
        errors: [
          { source: { pointer: '/data/attributes/name' }, detail: 'name is taken' },
          { source: { pointer: '/address' }, detail: 'address is invalid' },
        ],
      },
    ],
  ])('reads field errors from %s', async (_name, body) => {
    server.handle((_req, res) => json(res, 422, body))
    const error = await failure(
      client().call('targets.create', { body: { name: 'x', address: '10.0.0.1' } }),
    )
    expect(error.code).toBe('VALIDATION')
    expect(error.fieldErrors).toEqual({ name: ['is taken'], address: ['is invalid'] })
  })

  it('reads field errors from an error answer whatever its label (tolerant of gateways)', async () => {
    for (const type of ['text/plain', 'application/problem+json']) {
      server.handle((_req, res) =>
        res.writeHead(422, { 'content-type': type }).end('{"errors":{"name":["is taken"]}}'),
      )
      const error = await failure(
        client().call('targets.create', { body: { name: 'x', address: '10.0.0.1' } }),
      )
      expect(error.code).toBe('VALIDATION')
      expect(error.fieldErrors).toEqual({ name: ['is taken'] })
    }
  })

  it('recognises an HTML error page by its first tag even when labelled as text', async () => {
    server.handle((_req, res) =>
      res
        .writeHead(404, { 'content-type': 'text/plain' })
        .end('<html><body>Not here</body></html>'),
    )
    expect((await failure(client().call('scans.upcoming'))).code).toBe('BAD_RESPONSE')
  })

  it('treats an HTML 404 from a gateway as BAD_RESPONSE', async () => {
    server.handle((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<html/>'))
    expect((await failure(client().call('scans.upcoming'))).code).toBe('BAD_RESPONSE')
  })

  it('reports OFFLINE when nothing listens', async () => {
    const c = client({ baseUrl: 'http://127.0.0.1:9', limits: { retries: 0 } })
    const error = await failure(c.call('scans.upcoming'))
    expect(error.code).toBe('OFFLINE')
    expect(error.message).toContain('127.0.0.1:9')
  })
})

describe('retrying', () => {
  it('retries an idempotent GET on 503 and succeeds', async () => {
    let n = 0
    server.handle((_req, res) => (++n < 3 ? json(res, 503, {}) : json(res, 200, upcoming)))
    await expect(client().call('scans.upcoming')).resolves.toEqual(upcoming)
    expect(server.seen).toHaveLength(3)
  })

  it('gives up after three retries', async () => {
    server.handle((_req, res) => json(res, 503, {}))
    expect((await failure(client().call('scans.upcoming'))).code).toBe('SERVER')
    expect(server.seen).toHaveLength(4)
  })

  it('never retries a non-idempotent POST', async () => {
    server.handle((_req, res) => json(res, 503, {}))
    const error = await failure(
      client().call('targets.create', { body: { name: 'x', address: '10.0.0.1' } }),
    )
    expect(error.code).toBe('SERVER')
    expect(server.seen).toHaveLength(1)
  })

  it('honours Retry-After before retrying and reports it when it gives up', async () => {
    const times: number[] = []
    server.handle((_req, res) => {
      times.push(Date.now())
      json(res, 429, {}, { 'retry-after': '1' })
    })
    const error = await failure(client({ limits: { retries: 1 } }).call('scans.upcoming'))
    expect(error.code).toBe('RATE_LIMITED')
    expect(error.retryAfterMs).toBe(1000)
    expect(times).toHaveLength(2)
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(900)
  })
})

describe('cancelling and deadlines', () => {
  it('answers CANCELLED when the caller aborts', async () => {
    server.handle(() => undefined) // never answers
    const controller = new AbortController()
    const p = client().call('scans.upcoming', {}, { signal: controller.signal })
    setTimeout(() => controller.abort(), 50)
    expect((await failure(p)).code).toBe('CANCELLED')
  })

  it('answers TIMEOUT when the total deadline passes', async () => {
    server.handle(() => undefined)
    const p = client().call('scans.upcoming', {}, { deadlineMs: 150 })
    expect((await failure(p)).code).toBe('TIMEOUT')
  })

  it('answers TIMEOUT when the socket stays idle', async () => {
    server.handle(() => undefined)
    const c = client({ limits: { idleMs: 150, retries: 0 } })
    expect((await failure(c.call('scans.upcoming'))).code).toBe('TIMEOUT')
  })
})
