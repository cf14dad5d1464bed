// Issue 12, weakness 7, against the sandbox: a storm of 429s (every request, `Retry-After: 1`)
// spends the account's retry budget, after which calls fail at once with RATE_LIMITED and the
// wait instead of retrying; nothing but idempotent reads is repeated.
import { describe, expect, it } from 'vitest'
import { useSandboxAndCore } from './fixture'

const s = useSandboxAndCore({
  each: 'analyst',
  core: { httpLimits: { backoffBaseMs: 5, backoffMaxMs: 10, retryBudgetPerMinute: 3 } },
})

const list = () => ({ accountId: s.account.id, op: 'targets.list' })
const targetLines = (from: number) =>
  s.sandbox.lines.slice(from).filter((l) => /^(GET|POST) \/v2\/targets/.test(l.line))

describe('a 429 storm from the sandbox', () => {
  it('spends the retry budget, then every call fails fast with RATE_LIMITED and the wait', async () => {
    s.sandbox.setFaults({ rateLimitEvery: 1 })
    const from = s.sandbox.lines.length
    const errors = await Promise.all([1, 2, 3].map(() => s.t.err('api.call', list())))
    for (const e of errors)
      expect(e).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryAfterMs: 1_000 })
    expect(errors[0].message).toBe('The service asks to wait 1 s before trying again.')
    expect(targetLines(from)).toHaveLength(3 + 3) // three first attempts, three retries
    const later = s.sandbox.lines.length
    const started = Date.now()
    expect(await s.t.err('api.call', list())).toMatchObject({ code: 'RATE_LIMITED' })
    expect(Date.now() - started).toBeLessThan(900) // no wait: the budget is spent
    expect(targetLines(later)).toHaveLength(1)
  })

  it('never repeats a write, even with budget left', async () => {
    s.sandbox.setFaults({ rateLimitEvery: 1 })
    const from = s.sandbox.lines.length
    const error = await s.t.err('api.call', {
      accountId: s.account.id,
      op: 'targets.create',
      input: { body: { name: 'Storm', address: '10.9.9.9' } },
    })
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429 })
    expect(targetLines(from).map((l) => l.line.split(' (')[0])).toEqual(['POST /v2/targets → 429'])
  })
})
