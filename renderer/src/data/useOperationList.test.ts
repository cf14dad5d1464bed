import { flushPromises } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { apiCalls, listAnswer, mountComposable, useTwoAccounts } from '@/test/composables'
import { SEARCH_DEBOUNCE_MS, useOperationList } from './useOperationList'

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
})
const fake = useTwoAccounts()
beforeEach(() => fake.handle('api.call', () => listAnswer('T', 3, 60)))
afterEach(() => {
  vi.useRealTimers()
})

const searches = () =>
  apiCalls(fake).map((c) => (c.input as { query?: { search?: string; page?: number } }).query)

describe('searching a list', () => {
  it('asks the service once typing pauses, for what was typed last, from page 1', async () => {
    const { result } = mountComposable(() => useOperationList('targets.list'))
    await flushPromises()
    result.setPage(3)
    await flushPromises()
    result.setSearch('we')
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 50)
    result.setSearch(' web ')
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 50)
    expect(searches().map((q) => q?.search)).toEqual([undefined, undefined])
    expect(result.search.value).toBe(' web ')
    await vi.advanceTimersByTimeAsync(50)
    await flushPromises()
    expect(searches().at(-1)).toMatchObject({ search: 'web', page: 1 })
    expect(searches()).toHaveLength(3)
    expect(result.page.value).toBe(1)
    expect(result.total.value).toBe(60)
  })

  it('asks nothing for a search typed just before the list left the screen', async () => {
    const { result, unmount } = mountComposable(() => useOperationList('targets.list'))
    await flushPromises()
    result.setSearch('web')
    unmount()
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS * 2)
    await flushPromises()
    expect(searches()).toHaveLength(1)
  })
})
