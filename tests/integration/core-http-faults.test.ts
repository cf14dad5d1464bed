// Faults a real deployment (or a proxy in front of it) can produce, served by a tiny loopback
// server behind a real core: retries, malformed answers, huge answers, a vanished service.
import type http from 'node:http'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { Connectivity } from '@contract/channels'
import {
  json,
  startTestServer,
  type SeenRequest,
  type TestServer,
} from '../../electron/core/http/test-server'
import { addAnalyst, startTestCore, type TestCore } from './core-helpers'

const API_KEY = 'fault-server-key'
let server: TestServer
let t: TestCore
let account: AccountView
let route: (req: SeenRequest, res: http.ServerResponse) => void

beforeAll(async () => {
  server = await startTestServer()
  server.handle((req, res) => {
    if (req.url === '/auth/sign_in') return json(res, 200, { token: 'fault-session' })
    route(req, res)
  })
})
afterAll(() => server.close())
beforeEach(async () => {
  route = (_req, res) => json(res, 200, { data: [] })
  t = await startTestCore()
  account = await addAnalyst(t, { baseUrl: server.baseUrl, apiKey: API_KEY })
  server.seen.length = 0
})
afterEach(() => t.close())

const list = () => ({ accountId: account.id, op: 'targets.list' })
const create = () => ({
  accountId: account.id,
  op: 'targets.create',
  input: { body: { name: 'Edge', address: '10.1.1.1' } },
})

describe('retrying through the core', () => {
  it('retries a GET that answered 503 and returns the later answer', async () => {
    let n = 0
    route = (_req, res) => (++n <= 2 ? json(res, 503, {}) : json(res, 200, { data: [] }))
    await t.ok('api.call', list())
    expect(server.seen.map((r) => r.method)).toEqual(['GET', 'GET', 'GET'])
  })

  it('sends a POST once even when it answered 503', async () => {
    route = (_req, res) => json(res, 503, {})
    const error = await t.err('api.call', create())
    expect(error).toMatchObject({ code: 'SERVER', status: 503 })
    expect(server.seen).toHaveLength(1)
  })
})

describe('answers that are not what was due', () => {
  it.each([
    ['malformed JSON', 200, 'application/json', '{"data": [', 'BAD_RESPONSE'],
    [
      'an HTML error page',
      200,
      'text/html',
      '<!DOCTYPE html><h1>Gateway login</h1>',
      'BAD_RESPONSE',
    ],
    ['an HTML 403 from a proxy', 403, 'text/html', '<html><b>Blocked</b></html>', 'BAD_RESPONSE'],
    ['an empty body', 200, 'application/json', '', 'BAD_RESPONSE'],
  ])('turns %s into %s and keeps working', async (_n, status, type, body, code) => {
    route = (_req, res) => res.writeHead(status, { 'content-type': type }).end(body)
    const error = await t.err('api.call', list())
    expect(error.code).toBe(code)
    expect(error.message).not.toMatch(/Gateway login|Blocked|<|\{/)
    route = (_req, res) => json(res, 200, { data: [] })
    await t.ok('api.call', list())
  })

  it('refuses an answer nested 100,000 deep as BAD_RESPONSE, not INTERNAL, and keeps working', async () => {
    const depth = 100_000
    for (const body of [
      `{"data":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      `{"data":[${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}]}`,
    ]) {
      route = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body)
      expect(await t.err('api.call', list())).toMatchObject({
        code: 'BAD_RESPONSE',
        message:
          'The service sent an answer nested more than 64 levels deep; ScanDesk does not read it.',
      })
    }
    route = (_req, res) => json(res, 200, { data: [] })
    await t.ok('api.call', list())
  })

  it('refuses an answer whose ids break the id rule, and keeps none of it in the copy', async () => {
    const row = (over: object) => ({
      id: 'tgt-1',
      type: 'target',
      attributes: { name: 'Edge', address: '10.1.1.1', ...over },
    })
    for (const [data, where] of [
      [[{ ...row({}), id: 't1\u202E' }], 'data.0.id'],
      [[row({ organization_id: '../admin' })], 'data.0.attributes.organization_id'],
      [[row({ tag_ids: ['ok', 'a b'] })], 'data.0.attributes.tag_ids.1'],
    ] as const) {
      route = (_req, res) => json(res, 200, { data })
      expect(await t.err('api.call', list())).toMatchObject({
        code: 'BAD_RESPONSE',
        message: `The service’s answer holds an id ScanDesk does not accept (at ${where}): ids are 1–64 letters, digits, “_” or “-”.`,
      })
    }
    // Nothing of the refused answers was kept: offline, the list was never opened.
    await t.ok('connectivity.setWorkOffline', { on: true })
    expect((await t.err('api.call', list())).code).toBe('OFFLINE')
  })

  it('refuses a request nested deeper than any real one with VALIDATION, not a 500', async () => {
    const nested = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown
    for (const depth of [65, 1_500, 5_000, 100_000])
      expect(
        await t.err('drafts.save', {
          accountId: account.id,
          kind: 'saq',
          key: 'deep',
          data: { answers: nested(depth) },
        }),
      ).toMatchObject({ code: 'VALIDATION', message: /nested more than 64 levels deep/ })
    await t.ok('drafts.save', {
      accountId: account.id,
      kind: 'saq',
      key: 'deep',
      data: { answers: nested(60) },
    })
  })

  it('refuses a 50 MiB answer with TOO_LARGE and keeps working', async () => {
    route = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      const chunk = Buffer.alloc(1024 * 1024, 0x61)
      let sent = 0
      const pump = () => {
        while (sent < 50) {
          sent++
          if (!res.write(chunk)) return void res.once('drain', pump)
        }
        res.end()
      }
      res.on('error', () => undefined)
      res.write('{"data":"')
      pump()
    }
    const error = await t.err('api.call', list())
    expect(error.code).toBe('TOO_LARGE')
    expect(error.message).toContain('32 MiB')
    route = (_req, res) => json(res, 200, { data: [] })
    await t.ok('api.call', list())
  })
})

describe('connectivity', () => {
  it('reports offline when the service drops connections and online when it answers again', async () => {
    route = (req, res) => res.socket?.destroy()
    const error = await t.err('api.call', list())
    expect(error.code).toBe('OFFLINE')
    route = (_req, res) => json(res, 200, { data: [] })
    await t.ok('api.call', list())
    await t.ok('api.call', list())
    const events = t.events
      .filter((e) => e.name === 'connectivity')
      .map((e) => e.payload as Connectivity)
    expect(events.map((e) => [e.accountId, e.online])).toEqual([
      [account.id, false],
      [account.id, true],
    ])
  })
})
