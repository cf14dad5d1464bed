import { describe, expect, it, vi } from 'vitest'
import { createLimiter } from './data/backgroundReads'
import { GROUP_NAV } from './navigation'
import {
  GROUP_VIEWS,
  RESOURCE_DETAIL_VIEW,
  RESOURCE_LIST_VIEW,
  loadWhenIdle,
  PREFETCH_FIRST,
  screensToPrefetch,
} from './screens'

const settle = () => new Promise((r) => setTimeout(r, 0))

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

describe('loading screens when idle, as background work', () => {
  it('waits while the limiter is held (a screen being opened), then loads', async () => {
    const clock = manualIdle()
    const limiter = createLimiter(2)
    const load = vi.fn(async () => ({}))
    const release = limiter.hold()
    loadWhenIdle([load], clock.idle, limiter)
    await clock.slot()
    expect(load).not.toHaveBeenCalled()
    expect(limiter.waiting).toBe(1)
    release()
    await settle()
    expect(load).toHaveBeenCalledTimes(1)
  })
})

describe('the screens loaded when idle', () => {
  it('are the analyst’s first lists, then the others in the sidebar order, each once, then the generic detail', () => {
    const loaders = screensToPrefetch()
    expect(new Set(loaders).size).toBe(loaders.length)
    expect(loaders.at(-1)).toBe(RESOURCE_DETAIL_VIEW)
    const at = (l: unknown) => loaders.indexOf(l as never)
    for (const group of Object.keys(GROUP_VIEWS) as (keyof typeof GROUP_VIEWS)[])
      expect(at(GROUP_VIEWS[group]), group).toBeGreaterThanOrEqual(0)
    // the triage workbench, then the generic list (Targets'), then the sidebar's order: Reports'
    // own screen (before Vulnerabilities in the sidebar) comes after both
    expect(PREFETCH_FIRST).toEqual(['vulnerabilities', 'targets'])
    expect(at(GROUP_VIEWS.vulnerabilities)).toBe(0)
    expect(at(RESOURCE_LIST_VIEW)).toBe(1)
    const order = GROUP_NAV.map((g) => g.group)
    expect(order.indexOf('reports')).toBeLessThan(order.indexOf('vulnerabilities'))
    expect(at(GROUP_VIEWS.reports)).toBeGreaterThan(1)
  })
})
