import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import type { SinceAnswer } from '@contract/since'
import { mountComposable, switchAccount, useTwoAccounts } from '@/test/composables'
import { connectivity } from '@/test/fixtures'
import { useAllAccountsSince, useSinceLastVisit } from './sinceLastVisit'

const zero = { value: 0, atLeast: false, note: null, fromCache: false }
const answerFor = (accountId: string): SinceAnswer => ({
  accountId,
  since: '2026-11-01T00:00:00Z',
  until: '2026-11-02T08:00:00.000Z',
  firstVisit: false,
  newCritical: { ...zero, value: accountId === 'acct-aaaa' ? 3 : 5 },
  newHigh: zero,
  fixed: { ...zero, scanIds: [] },
  scansCompleted: zero,
  expiring: zero,
})

const fake = useTwoAccounts()
const seen = () =>
  fake.calls
    .filter((c) => c.channel === 'since.left')
    .map((c) => (c.payload as { accountId: string }).accountId)

const left = () => fake.calls.filter((c) => c.channel === 'since.left').map((c) => c.payload)

describe('the visit the dashboard records', () => {
  it('records the account whose counts were on screen, on switching and on leaving', async () => {
    fake.handle('since.counts', (p: { accountId: string }) => answerFor(p.accountId))
    fake.handle('since.left', () => ({ since: '2026-11-01T00:00:00Z' }))
    const { result, unmount } = mountComposable(() => useSinceLastVisit())
    await flushPromises()
    expect(result.state.value.answer?.newCritical.value).toBe(3)
    expect(seen()).toEqual([])

    await switchAccount('acct-bbbb')
    expect(seen()).toEqual(['acct-aaaa'])
    expect(result.state.value.answer?.newCritical.value).toBe(5)

    unmount()
    // Leaving the dashboard records it a task later, once the next screen's reads are on their way.
    expect(seen()).toEqual(['acct-aaaa'])
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(seen()).toEqual(['acct-aaaa', 'acct-bbbb'])
  })

  it('records nothing when the user left before the counts were shown', async () => {
    fake.handle('since.counts', () => new Promise(() => {}))
    fake.handle('since.left', () => ({ since: '2026-11-01T00:00:00Z' }))
    const { unmount } = mountComposable(() => useSinceLastVisit())
    await flushPromises()
    unmount()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(seen()).toEqual([])
  })

  it('asks every signed-in account’s counts for the overview and records no visit', async () => {
    fake.handle('since.counts', (p: { accountId: string }) => answerFor(p.accountId))
    const { result, unmount } = mountComposable(() => useAllAccountsSince())
    await flushPromises()
    expect(result.states.value['acct-aaaa'].answer?.newCritical.value).toBe(3)
    expect(result.states.value['acct-bbbb'].answer?.newCritical.value).toBe(5)
    unmount()
    expect(seen()).toEqual([])
  })
})

describe('the digest moving on (issue 36 §1)', () => {
  it('tells main up to when the counts on screen ran when leaving, and moves only when reviewed', async () => {
    let since = '2026-11-01T00:00:00Z'
    fake.handle('since.counts', (p: { accountId: string }) => ({
      ...answerFor(p.accountId),
      since,
    }))
    fake.handle('since.left', () => ({ since }))
    fake.handle('since.reviewed', (p: { until: string }) => {
      since = p.until
      return { since }
    })
    const { result, unmount } = mountComposable(() => useSinceLastVisit())
    await flushPromises()
    expect(await result.markReviewed()).toBeNull()
    await flushPromises()
    const reviewed = fake.calls.filter((c) => c.channel === 'since.reviewed').map((c) => c.payload)
    expect(reviewed).toEqual([{ accountId: 'acct-aaaa', until: '2026-11-02T08:00:00.000Z' }])
    expect(result.state.value.answer?.since).toBe('2026-11-02T08:00:00.000Z')
    unmount()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(left()).toEqual([{ accountId: 'acct-aaaa', until: '2026-11-02T08:00:00.000Z' }])
  })

  it('counts again by itself once "Work offline" is switched off', async () => {
    fake.handle('since.counts', (p: { accountId: string }) => answerFor(p.accountId))
    fake.emit('connectivity', connectivity('online', { checkedAt: '2030-01-01T00:00:00Z' }))
    fake.emit('connectivity.mode', { workOffline: true, network: true })
    mountComposable(() => useSinceLastVisit())
    await flushPromises()
    const asked = () => fake.calls.filter((c) => c.channel === 'since.counts').length
    expect(asked()).toBe(1)
    fake.emit('connectivity.mode', { workOffline: false, network: true })
    await flushPromises()
    expect(asked()).toBe(2)
  })
})
