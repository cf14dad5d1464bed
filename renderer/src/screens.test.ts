import { describe, expect, it, vi } from 'vitest'
import { loadWhenIdle } from './screens'

/** An idle scheduler run by hand: `slot()` runs the next callback asked for. */
function manualIdle() {
  const waiting: (() => void)[] = []
  return {
    idle: (run: () => void) => void waiting.push(run),
    slot: async () => {
      waiting.shift()?.()
      await new Promise((r) => setTimeout(r, 0))
    },
    get asked() {
      return waiting.length
    },
  }
}

describe('loading screens when idle', () => {
  it('loads one screen per idle slot, in order, and nothing before the first slot', async () => {
    const clock = manualIdle()
    const log: string[] = []
    const loader = (name: string) =>
      vi.fn(async () => {
        log.push(name)
        return {}
      })
    const loaders = [loader('list'), loader('vulnerabilities'), loader('detail')]
    loadWhenIdle(loaders, clock.idle)
    expect(log).toEqual([])
    await clock.slot()
    expect(log).toEqual(['list'])
    await clock.slot()
    expect(log).toEqual(['list', 'vulnerabilities'])
    await clock.slot()
    expect(log).toEqual(['list', 'vulnerabilities', 'detail'])
    await clock.slot()
    expect(clock.asked).toBe(0)
    for (const l of loaders) expect(l).toHaveBeenCalledTimes(1)
  })

  it('a failed load does not stop the ones after it', async () => {
    const clock = manualIdle()
    const after = vi.fn(async () => ({}))
    loadWhenIdle([() => Promise.reject(new Error('chunk gone')), after], clock.idle)
    await clock.slot()
    await clock.slot()
    expect(after).toHaveBeenCalledTimes(1)
  })
})
