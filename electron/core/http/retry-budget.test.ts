import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { AppFailure, type AppError } from '@contract/errors'
import { createAccountClient } from './client'
import type { AccountClientOptions } from './options'
import { waitText } from './errors'
import { RetryBudget } from './retry'
import { json, startTestServer, type TestServer } from './test-server'

// Issue 12, weakness 7: a long Retry-After is honoured, a per-account budget stops retry
// storms, and aborting an account's signal cancels its running calls (even between retries).

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.seen.length = 0
})

function client(over: Partial<AccountClientOptions> = {}) {
  return createAccountClient({
    baseUrl: server.baseUrl,
    apiKey: 'key-1',
    getAuth: () => ({ scheme: 'Bearer', token: 'tok-1' }),
    release: 'latest',
    ...over,
    limits: {
      backoffBaseMs: 5,
      backoffMaxMs: 20,
      deadlineMs: 5_000,
      idleMs: 2_000,
      ...over.limits,
    },
  })
}

async function failure(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => {
      throw new Error('expected the call to fail')
    },
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(AppFailure)
  return (err as AppFailure).error
}

describe('a Retry-After longer than the retry ceiling', () => {
  it('is not shortened and retried: a 429 fails at once with RATE_LIMITED and the wait', async () => {
    server.handle((_req, res) => json(res, 429, {}, { 'retry-after': '120' }))
    const started = Date.now()
    const error = await failure(client().call('scans.upcoming'))
    expect(Date.now() - started).toBeLessThan(1_000)
    expect(server.seen).toHaveLength(1)
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryAfterMs: 120_000 })
    expect(error.message).toBe('The service asks to wait 2 min before trying again.')
  })

  it('a 503 asking for longer than the ceiling is RATE_LIMITED too, without a retry', async () => {
    server.handle((_req, res) => json(res, 503, {}, { 'retry-after': '60' }))
    const error = await failure(
      client({ limits: { retryAfterCapMs: 2_000 } }).call('scans.upcoming'),
    )
    expect(server.seen).toHaveLength(1)
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 503, retryAfterMs: 60_000 })
    expect(error.message).toContain('wait 1 min')
  })

  it('a short Retry-After within the ceiling is waited out and the call succeeds', async () => {
    let n = 0
    server.handle((_req, res) =>
      n++ === 0 ? json(res, 503, {}, { 'retry-after': '1' }) : json(res, 200, { data: [] }),
    )
    const started = Date.now()
    expect(await client().call('scans.upcoming')).toEqual({ data: [] })
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
    expect(server.seen).toHaveLength(2)
  })

  it('says the wait in words', () => {
    expect(waitText(1)).toBe('1 s')
    expect(waitText(45_000)).toBe('45 s')
    expect(waitText(120_000)).toBe('2 min')
    expect(waitText(3 * 3_600_000)).toBe('3 h')
    expect(waitText(24 * 3_600_000)).toBe('24 h')
    // A junk Retry-After (999999999 s) is not "277778 h"
    expect(waitText(999_999_999_000)).toBe('over a day')
  })
})

describe('the retry budget', () => {
  it('refills over time and never holds more than its size', () => {
    let now = 0
    const budget = new RetryBudget(2, () => now)
    expect([budget.take(), budget.take(), budget.take()]).toEqual([true, true, false])
    now += 30_000
    expect([budget.take(), budget.take()]).toEqual([true, false])
    now += 10 * 60_000
    expect([budget.take(), budget.take(), budget.take()]).toEqual([true, true, false])
  })

  it('once spent, calls fail fast with their last error instead of retrying', async () => {
    server.handle((_req, res) => json(res, 503, {}))
    const c = client({ limits: { retries: 3, retryBudgetPerMinute: 2 } })
    expect((await failure(c.call('scans.upcoming'))).code).toBe('SERVER')
    expect(server.seen).toHaveLength(3) // the first attempt and the 2 retries the budget held
    server.seen.length = 0
    const error = await failure(c.call('scans.upcoming'))
    expect(error).toMatchObject({ code: 'SERVER', status: 503 })
    expect(server.seen).toHaveLength(1)
    c.close()
  })

  it('a budget shared by two clients of one account is spent by both', async () => {
    server.handle((_req, res) => json(res, 503, {}))
    const budget = new RetryBudget(1)
    const a = client({ retryBudget: budget })
    const b = client({ retryBudget: budget })
    await failure(a.call('scans.upcoming'))
    expect(server.seen).toHaveLength(2)
    server.seen.length = 0
    await failure(b.call('scans.upcoming'))
    expect(server.seen).toHaveLength(1)
    a.close()
    b.close()
  })
})

describe('the account signal', () => {
  it('aborting it cancels a running call: CANCELLED', async () => {
    server.handle(() => undefined) // never answers
    const account = new AbortController()
    const p = client({ accountSignal: () => account.signal }).call('scans.upcoming')
    setTimeout(() => account.abort(), 50)
    expect((await failure(p)).code).toBe('CANCELLED')
  })

  it('aborting it ends the wait between retries at once', async () => {
    server.handle((_req, res) => json(res, 429, {}, { 'retry-after': '5' }))
    const account = new AbortController()
    const started = Date.now()
    const p = client({ accountSignal: () => account.signal }).call('scans.upcoming')
    setTimeout(() => account.abort(), 100)
    expect((await failure(p)).code).toBe('CANCELLED')
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(server.seen).toHaveLength(1)
  })

  it('a call made after the abort with a fresh signal runs normally', async () => {
    server.handle((_req, res) => json(res, 200, { data: [] }))
    let account = new AbortController()
    const c = client({ accountSignal: () => account.signal })
    account.abort()
    expect((await failure(c.call('scans.upcoming'))).code).toBe('CANCELLED')
    account = new AbortController()
    expect(await c.call('scans.upcoming')).toEqual({ data: [] })
    c.close()
  })
})
