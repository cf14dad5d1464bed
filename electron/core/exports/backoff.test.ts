import { afterEach, describe, expect, it, vi } from 'vitest'
import { backoffDelay, sleep } from './backoff'

describe('the poll backoff', () => {
  const exact = { baseMs: 500, maxMs: 8_000, jitter: 0 }

  it('doubles from the base and stops at the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => backoffDelay(n, exact))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ])
  })

  it('spreads each wait by at most the jitter fraction and never beyond the cap', () => {
    const options = { baseMs: 500, maxMs: 8_000, jitter: 0.2 }
    expect(backoffDelay(0, options, () => 0)).toBe(400)
    expect(backoffDelay(0, options, () => 0.999999)).toBe(600)
    expect(backoffDelay(10, options, () => 0.999999)).toBe(8000)
    expect(backoffDelay(10, options, () => 0)).toBe(6400)
  })

  it('does not overflow for very late attempts', () => {
    expect(backoffDelay(5000, exact)).toBe(8000)
  })
})

describe('waiting between polls', () => {
  afterEach(() => vi.useRealTimers())

  it('resolves after the wait', async () => {
    vi.useFakeTimers()
    let done = false
    const p = sleep(1000).then(() => (done = true))
    await vi.advanceTimersByTimeAsync(999)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await p
    expect(done).toBe(true)
  })

  it('rejects at once when cancelled', async () => {
    vi.useFakeTimers()
    const controller = new AbortController()
    const p = sleep(60_000, controller.signal)
    controller.abort(new Error('stop'))
    await expect(p).rejects.toThrow('stop')
    expect(vi.getTimerCount()).toBe(0)
  })
})
