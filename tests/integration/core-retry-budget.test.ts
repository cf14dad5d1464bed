// Issue 12, weakness 7, through a real core: a long Retry-After is honoured (RATE_LIMITED with
// the wait), a 429 storm spends one account's retry budget and not another's, and signing out
// aborts the account's running calls. A loopback server plays the service (the sandbox's fault
// injection only sends `Retry-After: 1`).
import type http from 'node:http'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import {
  json,
  startTestServer,
  type SeenRequest,
  type TestServer,
} from '../../electron/core/http/test-server'
import { addAnalyst, startTestCore, type TestCore } from './core-helpers'

let server: TestServer
let t: TestCore
let route: (req: SeenRequest, res: http.ServerResponse) => void

beforeAll(async () => {
  server = await startTestServer()
  server.handle((req, res) => {
    if (req.url.includes('/auth/sign_in')) return json(res, 200, { token: 'budget-session' })
    if (req.url.includes('/auth/sign_out')) return json(res, 200, {})
    route(req, res)
  })
})
afterAll(() => server.close())
beforeEach(async () => {
  route = (_req, res) => json(res, 200, { data: [] })
  t = await startTestCore({
    httpLimits: { backoffBaseMs: 5, backoffMaxMs: 10, retries: 3, retryBudgetPerMinute: 4 },
  })
})
afterEach(() => t.close())

const add = (apiKey: string, label: string) =>
  addAnalyst(t, { baseUrl: server.baseUrl, apiKey }, { label, username: `${label}@example.test` })
const list = (account: AccountView) => ({ accountId: account.id, op: 'targets.list' })
const listsBy = (key: string) =>
  server.seen.filter((r) => r.headers['x-api-key'] === key && r.url.includes('/targets')).length

describe('a long Retry-After', () => {
  it('answers RATE_LIMITED with the wait, after one request', async () => {
    const account = await add('key-long', 'Long')
    route = (_req, res) => json(res, 429, {}, { 'retry-after': '120' })
    const error = await t.err('api.call', list(account))
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryAfterMs: 120_000 })
    expect(error.message).toBe('The service asks to wait 2 min before trying again.')
    expect(listsBy('key-long')).toBe(1)
  })
})

describe('a 429 storm without Retry-After', () => {
  it('spends the storming account’s budget, then fails fast; another account still retries', async () => {
    const storming = await add('key-storm', 'Storm')
    const calm = await add('key-calm', 'Calm')
    let calmFailed = false
    route = (req, res) => {
      if (req.headers['x-api-key'] === 'key-storm') return json(res, 429, {})
      if (calmFailed) return json(res, 200, { data: [] })
      calmFailed = true
      json(res, 429, {})
    }
    const errors = await Promise.all(
      Array.from({ length: 6 }, () => t.err('api.call', list(storming))),
    )
    for (const e of errors) expect(e).toMatchObject({ code: 'RATE_LIMITED', status: 429 })
    expect(listsBy('key-storm')).toBe(6 + 4) // six first attempts, four retries of the budget
    expect(await t.ok('api.call', list(calm))).toMatchObject({ data: { data: [] } })
    expect(listsBy('key-calm')).toBe(2)
  })
})

describe('signing out', () => {
  it('aborts the account’s running calls: CANCELLED', async () => {
    const account = await add('key-out', 'Out')
    route = () => undefined // never answers
    const running = t.err('api.call', list(account))
    await new Promise((r) => setTimeout(r, 100))
    await t.ok('accounts.signOut', { accountId: account.id })
    expect((await running).code).toBe('CANCELLED')
  })
})
