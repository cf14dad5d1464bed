import { afterEach, describe, expect, it, vi } from 'vitest'
import { twoAccounts, useFakeApp } from '@/test/fakeApp'
import { deferred, Fail } from '@/test/fakeScandesk'
import { upcomingAnswer } from '@/test/fixtures'
import { useAccountsStore } from './accounts'
import { useUpcomingScansStore } from './upcomingScans'

const fake = useFakeApp({
  accounts: twoAccounts,
  switchable: true,
  setup: (fake) => fake.handle('api.cancel', () => ({ cancelled: true })),
})
afterEach(() => {
  vi.useRealTimers()
})

const apiCalls = () => fake.calls.filter((c) => c.channel === 'api.call')

describe('loading upcoming scans', () => {
  it('asks for the active account with the chosen limit', async () => {
    fake.handle('api.call', () => upcomingAnswer('A', 3))
    const store = useUpcomingScansStore()
    await store.setLimit(25)
    expect(apiCalls()[0].payload).toMatchObject({
      accountId: 'acct-aaaa',
      op: 'scans.upcoming',
      input: { query: { limit: 25 } },
    })
    expect(store.current.rows?.map((r) => r.name)).toEqual(['A scan 1', 'A scan 2', 'A scan 3'])
  })

  it('reuses the request in flight for concurrent callers', async () => {
    const answer = deferred<unknown>()
    fake.handle('api.call', () => answer.promise)
    const store = useUpcomingScansStore()
    const first = store.load()
    const second = store.load()
    answer.resolve(upcomingAnswer('A', 2))
    await Promise.all([first, second])
    expect(apiCalls()).toHaveLength(1)
    expect(store.current.rows).toHaveLength(2)
  })

  it('drops an answer for the previous account after a switch', async () => {
    const answers = new Map([
      ['acct-aaaa', deferred<unknown>()],
      ['acct-bbbb', deferred<unknown>()],
    ])
    fake.handle('api.call', (p: { accountId: string }) => answers.get(p.accountId)!.promise)
    const accounts = useAccountsStore()
    const store = useUpcomingScansStore()
    const forA = store.load()
    await accounts.setActive('acct-bbbb')
    const forB = store.load()
    answers.get('acct-bbbb')!.resolve(upcomingAnswer('B', 1))
    await forB
    answers.get('acct-aaaa')!.resolve(upcomingAnswer('A', 4))
    await forA
    expect(store.current.rows?.map((r) => r.name)).toEqual(['B scan 1'])
    expect(fake.calls.some((c) => c.channel === 'api.cancel')).toBe(true)
  })

  it('drops A’s late answer even after switching back to A', async () => {
    const slowA = deferred<unknown>()
    let callsForA = 0
    fake.handle('api.call', (p: { accountId: string }) =>
      p.accountId === 'acct-aaaa' && ++callsForA === 1 ? slowA.promise : upcomingAnswer('B', 1),
    )
    const accounts = useAccountsStore()
    const store = useUpcomingScansStore()
    const first = store.load()
    await accounts.setActive('acct-bbbb')
    await accounts.setActive('acct-aaaa')
    expect(store.current.loading).toBe(false)
    slowA.resolve(upcomingAnswer('old A', 3))
    await first
    expect(store.current.rows).toBeNull()
  })

  it('never shows one account’s scans under another', async () => {
    fake.handle('api.call', () => upcomingAnswer('A', 2))
    const accounts = useAccountsStore()
    const store = useUpcomingScansStore()
    await store.load()
    expect(store.current.rows).toHaveLength(2)
    const switching = accounts.setActive('acct-bbbb')
    // Cleared at once, before main even answers the switch.
    expect(store.current.rows).toBeNull()
    await switching
    expect(store.current.rows).toBeNull()
  })

  it('keeps the error of a failed load and clears it on a successful retry', async () => {
    fake.handle(
      'api.call',
      () => new Fail({ code: 'OFFLINE', message: 'The service cannot be reached.' }),
    )
    const store = useUpcomingScansStore()
    await store.load()
    expect(store.current.error?.message).toBe('The service cannot be reached.')
    fake.handle('api.call', () => upcomingAnswer('A', 1))
    await store.load()
    expect(store.current.error).toBeNull()
    expect(store.current.rows).toHaveLength(1)
  })

  it('shows the loading flag only when the answer takes longer than 100 ms', async () => {
    vi.useFakeTimers()
    const answer = deferred<unknown>()
    fake.handle('api.call', () => answer.promise)
    const store = useUpcomingScansStore()
    const pending = store.load()
    await vi.advanceTimersByTimeAsync(50)
    expect(store.current.loading).toBe(true)
    expect(store.showLoading).toBe(false)
    await vi.advanceTimersByTimeAsync(60)
    expect(store.showLoading).toBe(true)
    answer.resolve(upcomingAnswer('A', 1))
    await pending
    await vi.advanceTimersByTimeAsync(0)
    expect(store.showLoading).toBe(false)
  })
})
