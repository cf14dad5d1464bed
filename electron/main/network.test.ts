import { afterEach, describe, expect, it, vi } from 'vitest'
import { watchNetwork } from './network'

afterEach(() => vi.useRealTimers())

function fakes(initial: boolean) {
  const state = { online: initial, resume: [] as (() => void)[] }
  const calls: string[] = []
  const sources = {
    net: { isOnline: () => state.online },
    powerMonitor: { on: (_event: 'resume', fn: () => void) => state.resume.push(fn) },
  }
  const core = {
    setNetwork: (online: boolean | null) => void calls.push(`network ${online}`),
    resumed: () => void calls.push('resumed'),
  }
  return { state, calls, sources, core }
}

describe('watching the OS network', () => {
  it('reports the state at start and each change, not every poll', () => {
    vi.useFakeTimers()
    const { state, calls, sources, core } = fakes(true)
    const stop = watchNetwork(sources, core, 1_000)
    vi.advanceTimersByTime(3_000)
    state.online = false
    vi.advanceTimersByTime(1_000)
    vi.advanceTimersByTime(2_000)
    state.online = true
    vi.advanceTimersByTime(1_000)
    stop()
    state.online = false
    vi.advanceTimersByTime(5_000)
    expect(calls).toEqual(['network true', 'network false', 'network true'])
  })

  it('re-checks everything after the computer wakes up', () => {
    const { state, calls, sources, core } = fakes(false)
    const stop = watchNetwork(sources, core, 60_000)
    state.online = true
    state.resume.forEach((fn) => fn())
    stop()
    expect(calls).toEqual(['network false', 'network true', 'resumed'])
  })
})
