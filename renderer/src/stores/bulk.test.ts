import { flushPromises } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { BulkRunView } from '@contract/bulk'
import { useFakeApp } from '@/test/fakeApp'
import { bulkRun } from '@/test/fixtures'
import { useBulkStore } from './bulk'

// The lists a run changes are read again through the data layer's invalidation: counted here.
const invalidated: [string, readonly string[]][] = []
vi.mock('@/data/invalidation', () => ({
  useInvalidation: () => (accountId: string, groups: readonly string[]) => {
    invalidated.push([accountId, groups])
    return Promise.resolve()
  },
}))

const RUN_ID = '1b4e28ba-2fa1-41d2-883f-0016d3cca427'
const run = (done: number) => bulkRun(done, 5000, { id: RUN_ID })

const fake = useFakeApp({
  store: 'app',
  setup: (fake) => fake.handle('bulk.start', () => run(0)),
})
beforeEach(() => {
  invalidated.length = 0
  vi.useFakeTimers({ toFake: ['Date'] })
})
afterEach(() => vi.useRealTimers())

describe('the bulk store following a run', () => {
  it('reads the changed lists again when the service made something, at most every 5 s, and at the end', async () => {
    const bulk = useBulkStore()
    await bulk.start({
      accountId: 'acct-aaaa',
      action: 'exceptions.activate',
      items: [{ id: 'exc-1' }],
    })
    // Started: nothing made yet, the list beneath is not read again.
    expect(invalidated).toEqual([])

    fake.emit('bulk.changed', run(10))
    expect(invalidated).toEqual([['acct-aaaa', ['exceptions', 'vulnerabilities']]])
    for (const done of [20, 30, 40]) {
      vi.advanceTimersByTime(1000)
      fake.emit('bulk.changed', run(done))
    }
    expect(invalidated).toHaveLength(1)
    expect(bulk.runs[RUN_ID].counts.done).toBe(40)

    vi.advanceTimersByTime(2000)
    fake.emit('bulk.changed', run(50))
    expect(invalidated).toHaveLength(2)
    // No progress: nothing to read again, however late.
    vi.advanceTimersByTime(10_000)
    fake.emit('bulk.changed', run(50))
    expect(invalidated).toHaveLength(2)

    // The end always reads them again, even right after another.
    fake.emit('bulk.changed', run(5000))
    expect(invalidated).toHaveLength(3)
    await flushPromises()
  })
})

describe('the bulk store keeping the newest view of a run', () => {
  const at = (done: number, updatedAt: string, extra: Partial<BulkRunView> = {}) =>
    bulkRun(done, 3, { id: RUN_ID, updatedAt, ...extra })

  it('keeps the last event when an answer read before it arrives after it', async () => {
    const bulk = useBulkStore()
    let answer: (value: unknown) => void = () => {}
    fake.handle('bulk.get', () => new Promise((resolve) => (answer = resolve)))
    const reading = bulk.get(RUN_ID)
    // the run's last event, then the answer main read when one write was done
    fake.emit('bulk.changed', at(3, '2026-11-27T10:00:02.000Z'))
    answer({ ...at(1, '2026-11-27T10:00:01.000Z'), items: [], matching: 0 })
    await reading
    expect(bulk.runs[RUN_ID].counts.done).toBe(3)
    expect(bulk.runs[RUN_ID].state).toBe('finished')
  })

  it('drops an event older than the view it has, and orders views of one millisecond by the writes ended', () => {
    const bulk = useBulkStore()
    bulk.follow()
    fake.emit('bulk.changed', at(2, '2026-11-27T10:00:02.000Z'))
    fake.emit('bulk.changed', at(1, '2026-11-27T10:00:01.000Z'))
    expect(bulk.runs[RUN_ID].counts.done).toBe(2)
    fake.emit('bulk.changed', at(1, '2026-11-27T10:00:02.000Z'))
    expect(bulk.runs[RUN_ID].counts.done).toBe(2)
    fake.emit('bulk.changed', at(3, '2026-11-27T10:00:02.000Z'))
    expect(bulk.runs[RUN_ID].counts.done).toBe(3)
  })

  it('takes a later view with fewer writes ended (Retry puts failed writes back)', () => {
    const bulk = useBulkStore()
    bulk.follow()
    const failed = {
      counts: { queued: 0, sending: 0, done: 1, skipped: 0, failed: 2, cancelled: 0, total: 3 },
      state: 'finished' as const,
    }
    fake.emit('bulk.changed', at(1, '2026-11-27T10:00:02.000Z', failed))
    expect(bulk.runs[RUN_ID].counts.failed).toBe(2)
    const retried = {
      counts: { ...failed.counts, failed: 0, queued: 2 },
      state: 'running' as const,
    }
    fake.emit('bulk.changed', at(1, '2026-11-27T10:00:03.000Z', retried))
    expect(bulk.runs[RUN_ID].counts.queued).toBe(2)
    expect(bulk.runs[RUN_ID].state).toBe('running')
  })
})
