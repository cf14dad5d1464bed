import type { AxiosError } from 'axios'
import { describe, expect, it } from 'vitest'
import { retryAfterMs } from './retry-after'
import { isRetryable, retryDelay } from './retry'

const o = { baseMs: 100, maxMs: 1_000, retryAfterCapMs: 10_000 }
const withHeader = (value: string) =>
  ({ response: { status: 429, headers: { 'retry-after': value } } }) as unknown as AxiosError

describe('the delay before a retry', () => {
  it('draws full jitter below an exponential ceiling', () => {
    expect(retryDelay(1, undefined, { ...o, random: () => 0.999 })).toBe(99)
    expect(retryDelay(3, undefined, { ...o, random: () => 0.5 })).toBe(200)
    expect(retryDelay(10, undefined, { ...o, random: () => 0.999 })).toBe(999)
    expect(retryDelay(2, undefined, { ...o, random: () => 0 })).toBe(0)
  })

  it('waits as long as Retry-After says, but not longer than the cap', () => {
    expect(retryDelay(1, withHeader('2'), o)).toBe(2_000)
    expect(retryDelay(1, withHeader('3600'), o)).toBe(10_000)
    const date = new Date(Date.now() + 5_000).toUTCString()
    expect(retryAfterMs(date)).toBeGreaterThan(3_000)
    expect(retryAfterMs('soon')).toBeUndefined()
  })
})

describe('which failures are retried', () => {
  const status = (s: number) => ({ response: { status: s }, config: {} }) as unknown as AxiosError
  it.each([408, 429, 502, 503, 504])('retries status %i', (s) =>
    expect(isRetryable(status(s))).toBe(true),
  )
  it.each([400, 401, 404, 409, 422, 500, 501])('does not retry status %i', (s) =>
    expect(isRetryable(status(s))).toBe(false),
  )
  it('retries a reset connection but not a cancelled call', () => {
    expect(isRetryable({ code: 'ECONNRESET', config: {} } as AxiosError)).toBe(true)
    expect(isRetryable({ code: 'ERR_CANCELED', config: {} } as AxiosError)).toBe(false)
  })
})
