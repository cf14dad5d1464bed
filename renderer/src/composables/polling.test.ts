import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { effectScope, nextTick, ref } from 'vue'
import { usePolling } from './polling'

let visibility: DocumentVisibilityState = 'visible'
function setVisibility(next: DocumentVisibilityState): void {
  visibility = next
  document.dispatchEvent(new Event('visibilitychange'))
}

beforeEach(() => {
  vi.useFakeTimers()
  visibility = 'visible'
  Object.defineProperty(document, 'visibilityState', {
    configurable: true,
    get: () => visibility,
  })
})
afterEach(() => {
  vi.useRealTimers()
  Reflect.deleteProperty(document, 'visibilityState')
})

/** Starts a poll whose answers are `changes` in turn (false once they run out). */
function start(changes: boolean[] = [], active = ref(true)) {
  const times: number[] = []
  const t0 = Date.now()
  const scope = effectScope()
  const poll = vi.fn(() => {
    times.push(Date.now() - t0)
    return Promise.resolve(changes.shift() ?? false)
  })
  const state = scope.run(() => usePolling(poll, { active }))!
  return { poll, times, state, active, stop: () => scope.stop() }
}

describe('usePolling', () => {
  it('backs off from 2 s to at most 30 s while nothing changes', async () => {
    const { times, stop } = start()
    await vi.advanceTimersByTimeAsync(2_000 + 4_000 + 8_000 + 16_000 + 30_000 + 30_000)
    expect(times).toEqual([2_000, 6_000, 14_000, 30_000, 60_000, 90_000])
    stop()
  })

  it('goes back to 2 s after an answer that changed something, and on reset', async () => {
    const { times, state, stop } = start([false, false, true])
    await vi.advanceTimersByTimeAsync(14_000)
    expect(times).toEqual([2_000, 6_000, 14_000])
    expect(state.delay.value).toBe(2_000)
    await vi.advanceTimersByTimeAsync(2_000)
    expect(times.at(-1)).toBe(16_000)
    expect(state.delay.value).toBe(4_000)
    state.reset()
    await vi.advanceTimersByTimeAsync(2_000)
    expect(times.at(-1)).toBe(18_000)
    stop()
  })

  it('stops when no longer active and starts again when active', async () => {
    const { poll, active, stop } = start()
    await vi.advanceTimersByTimeAsync(2_000)
    expect(poll).toHaveBeenCalledTimes(1)
    active.value = false
    await nextTick()
    await vi.advanceTimersByTimeAsync(120_000)
    expect(poll).toHaveBeenCalledTimes(1)
    active.value = true
    await nextTick()
    await vi.advanceTimersByTimeAsync(2_000)
    expect(poll).toHaveBeenCalledTimes(2)
    stop()
  })

  it('keeps polling while briefly hidden, pauses after a minute hidden, resumes when visible', async () => {
    const { poll, state, stop } = start()
    await vi.advanceTimersByTimeAsync(2_000)
    expect(poll).toHaveBeenCalledTimes(1)
    setVisibility('hidden')
    await vi.advanceTimersByTimeAsync(59_000)
    const beforePause = poll.mock.calls.length
    expect(beforePause).toBeGreaterThan(1)
    expect(state.paused.value).toBe(false)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(state.paused.value).toBe(true)
    const atPause = poll.mock.calls.length
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(poll).toHaveBeenCalledTimes(atPause)
    setVisibility('visible')
    await vi.advanceTimersByTimeAsync(0)
    expect(state.paused.value).toBe(false)
    expect(poll).toHaveBeenCalledTimes(atPause + 1)
    expect(state.delay.value).toBe(4_000)
    await vi.advanceTimersByTimeAsync(4_000)
    expect(poll).toHaveBeenCalledTimes(atPause + 2)
    stop()
  })

  it('does not pause when the window is shown again within the minute', async () => {
    const { state, stop } = start()
    setVisibility('hidden')
    await vi.advanceTimersByTimeAsync(30_000)
    setVisibility('visible')
    await vi.advanceTimersByTimeAsync(60_000)
    expect(state.paused.value).toBe(false)
    stop()
  })

  it('stops everything with its scope', async () => {
    const { poll, stop } = start()
    stop()
    await vi.advanceTimersByTimeAsync(120_000)
    expect(poll).not.toHaveBeenCalled()
  })

  it('treats a failed poll as unchanged and keeps going', async () => {
    const scope = effectScope()
    const poll = vi.fn(() => Promise.reject(new Error('offline')))
    const state = scope.run(() => usePolling(poll, { active: true }))!
    await vi.advanceTimersByTimeAsync(2_000 + 4_000)
    expect(poll).toHaveBeenCalledTimes(2)
    expect(state.delay.value).toBe(8_000)
    scope.stop()
  })
})
