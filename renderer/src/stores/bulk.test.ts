import { flushPromises } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
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
