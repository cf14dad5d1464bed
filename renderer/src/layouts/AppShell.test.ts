import { flushPromises } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent } from 'vue'
import { createMemoryHistory, createRouter, type Router } from 'vue-router'
import { GROUP_NAV } from '@/navigation'
import { syncWindowTitle, windowTitle } from '@/router'
import { useAccountsStore } from '@/stores/accounts'
import { useFakeApp } from '@/test/fakeApp'
import { theTestId } from '@/test/dom'
import { emptyCache } from '@/test/fakeScandesk'
import { account, settingsOf } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import AppShell from './AppShell.vue'

let wrapper: ReturnType<typeof mountWithApp> | null = null
let router: Router

const list = () => [
  account('acct-aaaa', { label: 'Acme (latest)', color: '#ff0000' }),
  account('acct-bbbb', { label: 'Old Co', color: '#00aa00', release: '5.0.0-beta1' }),
]

const Page = defineComponent({ template: '<div data-testid="page" />' })

const fake = useFakeApp({
  accounts: list,
  switchable: true,
  store: 'app',
  setup: (fake) => fake.handle('exports.list', () => []),
})

beforeEach(async () => {
  router = createRouter({
    history: createMemoryHistory(),
    routes: [
      {
        path: '/',
        component: AppShell,
        children: [
          { path: 'dashboard', name: 'dashboard', component: Page, meta: { title: 'Dashboard' } },
          ...GROUP_NAV.map((g) => ({
            path: g.path.slice(1),
            name: g.group,
            component: Page,
            meta: { title: g.label },
          })),
        ],
      },
    ],
  })
  await router.push('/dashboard')
  wrapper = mountWithApp({ template: '<router-view />' }, { global: { plugins: [router] } })
  await flushPromises()
})
afterEach(() => {
  wrapper?.unmount()
  wrapper = null
})

const strip = () => document.querySelector<HTMLElement>('.app-shell')!
const groupsShown = () =>
  [...document.querySelectorAll<HTMLElement>('[data-testid="nav-group"]')].map(
    (el) => el.dataset.group,
  )

describe('the app shell', () => {
  it('carries the account’s colour along the top and follows a switch', async () => {
    expect(document.querySelector('[data-testid="account-strip"]')).not.toBeNull()
    expect(strip().style.getPropertyValue('--account-color')).toBe('#ff0000')
    await useAccountsStore().setActive('acct-bbbb')
    await flushPromises()
    expect(strip().style.getPropertyValue('--account-color')).toBe('#00aa00')
  })

  it('hides the groups the account’s release lacks, and leaves a screen that is gone', async () => {
    expect(groupsShown()).toContain('advanced_reports')
    await router.push('/advanced-reports')
    await flushPromises()
    expect(router.currentRoute.value.name).toBe('advanced_reports')
    await useAccountsStore().setActive('acct-bbbb')
    await flushPromises()
    expect(groupsShown()).not.toContain('advanced_reports')
    expect(groupsShown()).toContain('scans')
    expect(router.currentRoute.value.name).toBe('dashboard')
  })

  it('shows the re-authentication prompt main asks for', async () => {
    fake.emit('accounts.reauthRequired', {
      accountId: 'acct-aaaa',
      label: 'Acme (latest)',
      username: 'analyst@example.com',
      waiting: 2,
      reason: 'The session ended.',
    })
    await flushPromises()
    expect(document.querySelector('[data-testid="reauth-message"]')?.textContent).toContain(
      'Acme (latest)',
    )
  })

  it('names the window after the account', async () => {
    const stop = syncWindowTitle(router)
    expect(document.title).toBe('Acme (latest) — ScanDesk')
    await useAccountsStore().setActive('acct-bbbb')
    await flushPromises()
    expect(document.title).toBe('Old Co — ScanDesk')
    stop()
    expect(windowTitle(null, 'Welcome')).toBe('Welcome · ScanDesk')
  })

  it('opens each of the top bar’s settings in its own dialog', async () => {
    fake.handle('settings.get', () => settingsOf())
    fake.handle('files.getFolder', () => ({ folder: null }))
    fake.handle('cache.status', (p: { accountId: string }) => emptyCache(p.accountId))
    const dialog = (id: string) => document.querySelector(`[data-testid="${id}"]`)
    expect(dialog('download-settings')).toBeNull()
    theTestId('download-settings-button').click()
    await vi.dynamicImportSettled()
    await flushPromises()
    expect(dialog('download-settings')).not.toBeNull()
    expect(dialog('offline-settings')).toBeNull()
    theTestId('offline-settings-button').click()
    await vi.dynamicImportSettled()
    await flushPromises()
    expect(dialog('offline-settings')).not.toBeNull()
  })
})
