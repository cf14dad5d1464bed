import { afterEach, describe, expect, it, vi } from 'vitest'
import { warmUpLater } from './warm-up'

afterEach(() => {
  vi.useRealTimers()
})

describe('loading deferred modules after the start', () => {
  it('loads each module once, only after the delay, and a failing load does not stop the others', async () => {
    vi.useFakeTimers()
    const order: string[] = []
    warmUpLater(
      [
        async () => order.push('a'),
        () => Promise.reject(new Error('no module')),
        async () => order.push('b'),
      ],
      1000,
    )
    await vi.advanceTimersByTimeAsync(999)
    expect(order).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(order).toEqual(['a', 'b'])
    await vi.advanceTimersByTimeAsync(10_000)
    expect(order).toEqual(['a', 'b'])
  })

  it('loads nothing once cancelled (the core closed first)', async () => {
    vi.useFakeTimers()
    const load = vi.fn(async () => undefined)
    const cancel = warmUpLater([load], 1000)
    cancel()
    await vi.advanceTimersByTimeAsync(5000)
    expect(load).not.toHaveBeenCalled()
  })

  it('does not keep the process alive', () => {
    const spy = vi.spyOn(globalThis, 'setTimeout')
    warmUpLater([async () => undefined], 1000)()
    const timer = spy.mock.results[0].value as NodeJS.Timeout
    expect(timer.hasRef()).toBe(false)
    spy.mockRestore()
  })
})
