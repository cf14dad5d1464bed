import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import type { SinceAnswer } from '@contract/since'
import { useAppStore } from '@/stores/app'
import { useTwoAccounts } from '@/test/composables'
import { byTestId, theTestId } from '@/test/dom'
import { account } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import AllAccountsPanel from './AllAccountsPanel.vue'

const zero = { value: 0, atLeast: false, note: null, fromCache: false }
const answerFor = (accountId: string): SinceAnswer => ({
  accountId,
  since: '2026-11-01T00:00:00Z',
  until: '2026-11-02T08:00:00.000Z',
  firstVisit: accountId === 'acct-bbbb',
  newCritical: { ...zero, value: accountId === 'acct-aaaa' ? 3 : 7 },
  newHigh: zero,
  fixed: { ...zero, value: null, note: 'No snapshots.', scanIds: [] },
  scansCompleted: { ...zero, fromCache: accountId === 'acct-bbbb' },
  expiring: zero,
})

let mounted: { unmount: () => void }[] = []
afterEach(() => {
  for (const w of mounted) w.unmount()
  mounted = []
})
const fake = useTwoAccounts((f) => {
  f.handle('since.counts', (p: { accountId: string }) => answerFor(p.accountId))
})

async function mountPanel() {
  const page = { template: '<div />' }
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/dashboard', name: 'dashboard', component: page },
      { path: '/vulnerabilities', name: 'vulnerabilities', component: page },
    ],
  })
  await router.push('/dashboard')
  const wrapper = mountWithApp(AllAccountsPanel, { global: { plugins: [router] } })
  mounted.push(wrapper)
  await flushPromises()
  return router
}

describe('All accounts', () => {
  it('puts each signed-in account’s counts in a row of its own colour', async () => {
    await mountPanel()
    const row = theTestId('all-accounts-row-acct-bbbb')
    expect(row.textContent).toContain('Account acct-bbbb')
    expect(row.textContent).toContain('first visit: last 7 days')
    expect(row.textContent).toContain('offline copy')
    expect(row.getAttribute('style')).toContain('--account-color: #3366ff')
    expect(byTestId('all-accounts-newCritical-link').map((b) => b.textContent?.trim())).toEqual([
      '3',
      '7',
    ])
    // A count that is not known is a "?" with the reason, not a link.
    expect(row.querySelector('[data-testid="all-accounts-fixed"]')!.textContent?.trim()).toBe('?')
  })

  it('a count opens its filtered list in that account', async () => {
    const router = await mountPanel()
    const link = theTestId('all-accounts-row-acct-bbbb').querySelector<HTMLElement>(
      '[data-testid="all-accounts-newCritical-link"]',
    )!
    link.click()
    await flushPromises()
    expect(router.currentRoute.value).toMatchObject({
      name: 'vulnerabilities',
      query: { severity: 'critical', first_seen_after: '2026-11-01T00:00:00Z' },
    })
    expect(useAppStore().accountId).toBe('acct-bbbb')
    // No visit is recorded from the overview.
    expect(fake.calls.some((c) => c.channel === 'since.left')).toBe(false)
  })

  it('is not shown while only one account is signed in', async () => {
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa'), account('acct-bbbb', { signedIn: false })],
      activeId: 'acct-aaaa',
    })
    await mountPanel()
    expect(byTestId('all-accounts-panel')).toHaveLength(0)
  })
})
