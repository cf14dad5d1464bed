import { describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { ApiCallOutput } from '@contract/channels'
import { addAnalyst, startTestCore } from './core-helpers'
import { useSandboxAndCore } from './fixture'
import { until } from './sessions-helpers'

const s = useSandboxAndCore({ each: 'analyst' })

function call(op: string, input?: unknown, requestId?: string) {
  return { accountId: s.account.id, op, input, ...(requestId ? { requestId } : {}) }
}

describe('refusing bad calls before any request', () => {
  it.each([
    ['an unknown operation', () => call('scans.teleport'), 'UNKNOWN_OPERATION'],
    ['an extra query parameter', () => call('targets.list', { query: { bogus: 1 } }), 'VALIDATION'],
    ['a wrong type', () => call('scans.upcoming', { query: { limit: 'many' } }), 'VALIDATION'],
    [
      'an absolute URL as id',
      () => call('targets.show', { path: { id: 'http://evil.test/' } }),
      'VALIDATION',
    ],
    ['a ../ in an id', () => call('targets.show', { path: { id: '../users' } }), 'VALIDATION'],
    [
      'an extra body field',
      () => call('targets.create', { body: { name: 'n', address: '10.0.0.9', owner: 'me' } }),
      'VALIDATION',
    ],
    [
      'an extra property of the call',
      () => ({ ...call('targets.list'), extra: true }),
      'VALIDATION',
    ],
  ])('refuses %s', async (_name, payload, code) => {
    const before = s.sandbox.requests.length
    const error = await s.t.err('api.call', payload())
    expect(error.code).toBe(code)
    if (code === 'VALIDATION')
      expect(Object.keys(error.fieldErrors ?? {}).length).toBeGreaterThan(0)
    expect(s.sandbox.requests.length).toBe(before)
  })

  it('refuses an operation outside the account’s release, naming the release', async () => {
    const other = await startTestCore()
    try {
      const v = await addAnalyst(other, s.sandbox, { release: '5.3.0' })
      const before = s.sandbox.requests.length
      const error = await other.err('api.call', {
        accountId: v.id,
        op: 'targets.calculate_hosts',
        input: { body: { address: '10.0.0.0/30' } },
      })
      expect(error.code).toBe('NOT_IN_RELEASE')
      expect(error.message).toContain('5.3.0')
      expect(s.sandbox.requests.length).toBe(before)
    } finally {
      await other.close()
    }
  })
})

describe('answers from the service', () => {
  it('returns checked data, and the service’s field errors for a refused write', async () => {
    const shown = await s.t.ok<ApiCallOutput>(
      'api.call',
      call('targets.show', { path: { id: 'tgt-001' } }),
    )
    expect((shown.data as { data: { id: string } }).data.id).toBe('tgt-001')
    const missing = await s.t.err('api.call', call('targets.show', { path: { id: 'tgt-999' } }))
    expect(missing).toMatchObject({ code: 'NOT_FOUND', status: 404 })
  })

  it('honours Retry-After from the sandbox and then succeeds', async () => {
    s.sandbox.setFaults({ rateLimitEvery: 2 })
    await s.t.ok('api.call', call('targets.list'))
    const from = s.sandbox.lines.length
    await s.t.ok('api.call', call('targets.list'))
    const lines = s.sandbox.lines.slice(from).filter((l) => l.line.startsWith('GET /v2/targets'))
    // The retry carries the ETag of the copy the first call left: the list is unchanged (304).
    expect(lines.map((l) => l.line.split(' (')[0])).toEqual([
      'GET /v2/targets → 429',
      'GET /v2/targets → 304',
    ])
    expect(lines[1].at - lines[0].at).toBeGreaterThanOrEqual(900)
  })

  it('cancels a running call by its request id', async () => {
    s.sandbox.setFaults({ latencyMs: 3_000 })
    const running = s.t.call('api.call', call('targets.list', undefined, 'req-cancel-0001'))
    await new Promise((r) => setTimeout(r, 100))
    expect(await s.t.ok('api.cancel', { requestId: 'req-cancel-0001' })).toEqual({
      cancelled: true,
    })
    const result = await running
    expect(result.ok ? null : result.error.code).toBe('CANCELLED')
    expect(await s.t.ok('api.cancel', { requestId: 'req-cancel-0001' })).toEqual({
      cancelled: false,
    })
  })

  it('pauses the account when the service stops accepting its session, until it is cancelled', async () => {
    s.sandbox.setFaults({ unauthorizedAfter: 1 })
    await s.t.ok('api.call', call('targets.list'))
    // scans.list was never read: once signed out there is no offline copy of it to show.
    const waiting = s.t.call('api.call', call('scans.list'))
    await until(() => s.t.events.some((e) => e.name === 'accounts.reauthRequired'))
    const last = s.t.events.filter((e) => e.name === 'accounts.changed').at(-1)
    expect((last?.payload as { accounts: AccountView[] }).accounts[0]).toMatchObject({
      signedIn: false,
      awaitingReauth: true,
    })
    s.sandbox.setFaults({ unauthorizedAfter: 0 })
    expect(await s.t.ok('accounts.cancelReauth', { accountId: s.account.id })).toEqual({
      cancelled: 1,
    })
    const result = await waiting
    expect(result.ok ? null : result.error).toEqual({
      code: 'NOT_SIGNED_IN',
      message: 'Signed out: sign in to Sandbox analyst again.',
    })
    expect((await s.t.err('api.call', call('scans.list'))).code).toBe('NOT_SIGNED_IN')
    // targets.list was: it is served from the copy, marked.
    expect((await s.t.ok<ApiCallOutput>('api.call', call('targets.list'))).fromCache).toBe(true)
  })

  it('refuses every operation that returns or consumes credentials', async () => {
    const before = s.sandbox.requests.length
    for (const op of ['auth.sign_in', 'auth.impersonate', 'user.generate_access_token']) {
      const error = await s.t.err('api.call', call(op, op === 'auth.sign_in' ? { body: {} } : {}))
      expect(error).toMatchObject({ code: 'FORBIDDEN' })
      expect(error.message).toMatch(/only through ScanDesk’s own sign-in screens/)
    }
    expect(s.sandbox.requests.length).toBe(before)
  })
})
