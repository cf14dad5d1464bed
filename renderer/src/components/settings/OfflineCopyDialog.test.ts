import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import type { Settings } from '@contract/channels'
import type { CacheStatus } from '@contract/offline'
import { mountScreen } from '@/test/composables'
import { byTestId, click, inputOf, theTestId } from '@/test/dom'
import { twoAccounts, useFakeApp } from '@/test/fakeApp'
import { emptyCache } from '@/test/fakeScandesk'
import { settingsOf } from '@/test/fixtures'
import OfflineCopyDialog from './OfflineCopyDialog.vue'

const MIB = 1024 ** 2
const settings = settingsOf()
const kept = (accountId: string): CacheStatus => ({
  ...emptyCache(accountId),
  entries: 42,
  bytes: 3_500_000,
  oldest: new Date(Date.now() - 3 * 3600e3).toISOString(),
  newest: new Date(Date.now() - 5 * 60e3).toISOString(),
})

const fake = useFakeApp({
  accounts: twoAccounts,
  store: 'app',
  setup: (fake) => {
    fake.handle('settings.get', () => settings)
    fake.handle('settings.set', (p: Partial<Settings>) => ({ ...settings, ...p }))
    fake.handle('api.call', () => ({
      data: { data: { id: 'org-1', attributes: { name: 'Acme' } } },
      fetchedAt: '',
      fromCache: false,
    }))
    fake.handle('cache.status', (p: { accountId: string }) =>
      p.accountId === 'acct-aaaa'
        ? kept(p.accountId)
        : {
            ...emptyCache(p.accountId),
            persisted: false,
            message: 'The keychain is unavailable: nothing is stored on disk for this account.',
          },
    )
  },
})
afterEach(() => {
  document.body.innerHTML = ''
})

const row = (id: string) => byTestId('offline-account').find((el) => el.dataset.accountId === id)!

async function openDialog() {
  const wrapper = mountScreen(OfflineCopyDialog, { props: { modelValue: true } })
  await flushPromises()
  return wrapper
}

describe('the offline copy settings', () => {
  it('shows the cap in MiB and saves a new one in bytes', async () => {
    await openDialog()
    const input = inputOf('settings-cache-max')
    expect(input.value).toBe('512')
    input.value = '1024'
    input.dispatchEvent(new Event('input'))
    input.dispatchEvent(new Event('change'))
    await flushPromises()
    expect(fake.calls.filter((c) => c.channel === 'settings.set').map((c) => c.payload)).toEqual([
      { cacheMaxBytes: 1024 * MIB },
    ])
  })

  it('says what each account keeps, and why nothing is kept on disk', async () => {
    await openDialog()
    const facts = row('acct-aaaa').querySelector('[data-testid="offline-facts"]')!.textContent!
    expect(facts.replace(/\s+/g, ' ')).toContain('42 answers · 3.5 MB of 536.9 MB')
    expect(facts).toContain('oldest 3 hours ago')
    expect(facts).toContain('newest 5 minutes ago')
    expect(
      row('acct-bbbb').querySelector('[data-testid="offline-message"]')?.textContent,
    ).toContain('The keychain is unavailable')
    expect(row('acct-aaaa').querySelector('[data-testid="offline-message"]')).toBeNull()
  })

  it('clears an account’s copy only after a confirmation naming the account', async () => {
    await openDialog()
    row('acct-aaaa').querySelector<HTMLElement>('[data-testid="offline-clear"]')!.click()
    await flushPromises()
    expect(theTestId('offline-clear-confirm-text').textContent).toContain(
      'Clear the offline copy of “Account acct-aaaa”?',
    )
    await click('offline-clear-confirm')
    expect(fake.calls.filter((c) => c.channel === 'cache.clear').map((c) => c.payload)).toEqual([
      { accountId: 'acct-aaaa' },
    ])
    expect(row('acct-aaaa').textContent).toContain('0 answers')
  })
})
