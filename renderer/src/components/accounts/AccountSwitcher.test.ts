import { flushPromises } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AccountView } from '@contract/accounts'
import { useAccountsStore } from '@/stores/accounts'
import { useAppStore } from '@/stores/app'
import { installFakeScandesk, type FakeScandesk } from '@/test/fakeScandesk'
import { account as baseAccount } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import AccountSwitcher from './AccountSwitcher.vue'
import { click, theTestId } from '@/test/dom'

let fake: FakeScandesk
let list: AccountView[]
let wrapper: ReturnType<typeof mountWithApp> | null = null

const account = (id: string, extra: Partial<AccountView> = {}) =>
  baseAccount(id, { label: `Label ${id}`, ...extra })

function start(pinTo?: string) {
  window.history.replaceState(null, '', pinTo ? `/?account=${pinTo}#/` : '/')
  fake = installFakeScandesk()
  setActivePinia(createPinia())
  list = [
    account('acct-aaaa', { color: '#ff0000' }),
    account('acct-bbbb', { color: '#00aa00' }),
    account('acct-cccc', { signedIn: false }),
  ]
  fake.handle('accounts.setActive', (p: { accountId: string }) => ({
    accounts: list,
    activeId: p.accountId,
  }))
  fake.handle('accounts.signOut', (p: { accountId: string }) => ({
    ...list.find((a) => a.id === p.accountId)!,
    signedIn: false,
  }))
  useAppStore()
  fake.emit('accounts.changed', { accounts: list, activeId: 'acct-aaaa' })
  wrapper = mountWithApp(AccountSwitcher)
  return wrapper
}

afterEach(() => {
  wrapper?.unmount()
  wrapper = null
  delete window.scandesk
  document.body.innerHTML = ''
  window.history.replaceState(null, '', '/')
  vi.restoreAllMocks()
})

const callsTo = (channel: string) => fake.calls.filter((c) => c.channel === channel)
const label = () => theTestId('account-switcher-label').textContent?.trim()
const press = (key: string, extra: KeyboardEventInit = {}) =>
  window.dispatchEvent(new KeyboardEvent('keydown', { key, ctrlKey: true, ...extra }))

describe('switching accounts', () => {
  beforeEach(() => {
    start()
  })

  it('switches with one click on the account', async () => {
    expect(label()).toBe('Label acct-aaaa')
    await click('account-switch-acct-bbbb')
    expect(callsTo('accounts.setActive').map((c) => c.payload)).toEqual([
      { accountId: 'acct-bbbb' },
    ])
    expect(label()).toBe('Label acct-bbbb')
  })

  it('switches to the n-th account with Ctrl+n', async () => {
    press('3')
    await flushPromises()
    expect(useAccountsStore().activeId).toBe('acct-cccc')
    press('9') // no ninth account: nothing happens
    await flushPromises()
    expect(callsTo('accounts.setActive')).toHaveLength(1)
  })

  it('opens the list with a click on the switcher and closes it after a switch', async () => {
    const panel = () => theTestId('account-switcher-panel').closest<HTMLElement>('.el-popper')
    await click('account-switcher')
    await new Promise((r) => setTimeout(r, 50))
    expect(panel()?.style.display).not.toBe('none')
    await click('account-switch-acct-bbbb')
    await new Promise((r) => setTimeout(r, 400))
    expect(panel()?.style.display).toBe('none')
  })

  it('tells assistive technology that the switcher opens a menu, and whether it is open', async () => {
    const button = () =>
      theTestId('account-switcher').closest('button') ?? theTestId('account-switcher')
    expect(button().getAttribute('aria-haspopup')).toBe('menu')
    expect(button().getAttribute('aria-expanded')).toBe('false')
    await click('account-switcher')
    await new Promise((r) => setTimeout(r, 50))
    expect(button().getAttribute('aria-expanded')).toBe('true')
  })

  it('opens the list with Ctrl+Shift+A', async () => {
    const panel = () => theTestId('account-switcher-panel').closest<HTMLElement>('.el-popper')
    expect(panel()?.style.display ?? 'none').toBe('none')
    press('A', { shiftKey: true })
    await flushPromises()
    await new Promise((r) => setTimeout(r, 50))
    expect(panel()?.style.display).not.toBe('none')
  })

  it('signs out from the account menu after asking, keeping the offline copy unless told', async () => {
    await click('account-menu-acct-bbbb')
    await click('sign-out-acct-bbbb')
    await vi.waitFor(() => theTestId('sign-out-submit'))
    expect(callsTo('accounts.signOut')).toEqual([])
    await click('sign-out-submit')
    expect(callsTo('accounts.signOut').map((c) => c.payload)).toEqual([
      { accountId: 'acct-bbbb', clearOfflineCopy: false },
    ])
    expect(useAccountsStore().accounts.find((a) => a.id === 'acct-bbbb')?.signedIn).toBe(false)
  })

  it('disables "Act as a user…" with the reason for an account whose user may not', async () => {
    fake.handle('api.call', (p: { accountId: string; op: string }) => ({
      data: {
        data:
          p.accountId === 'acct-bbbb'
            ? { role: 'analyst', permissions: ['scans.read', 'scans.write'] }
            : { role: 'administrator', permissions: ['scans.write', 'impersonate'] },
      },
      fetchedAt: '2030-01-01T00:00:00Z',
      fromCache: false,
    }))
    await click('account-menu-acct-bbbb')
    await flushPromises()
    const button = () => theTestId('impersonate-open') as HTMLButtonElement
    expect(button().disabled).toBe(true)
    expect(theTestId('impersonate-refused').textContent).toContain(
      'Your role (analyst) may not act as another user.',
    )
    await click('account-menu-acct-aaaa')
    await flushPromises()
    expect(button().disabled).toBe(false)
    expect(document.querySelector('[data-testid="impersonate-refused"]')).toBeNull()
    const asked = callsTo('api.call').map((c) => (c.payload as { accountId: string }).accountId)
    expect(asked).toEqual(['acct-bbbb', 'acct-aaaa'])
  })

  it('offers sign-in instead of sign-out for a signed-out account', async () => {
    await click('account-menu-acct-cccc')
    expect(document.querySelector('[data-testid="sign-in-acct-cccc"]')).not.toBeNull()
    expect(document.querySelector('[data-testid="sign-out-acct-cccc"]')).toBeNull()
  })

  it('opens an account in a new tab in browser mode', async () => {
    const opened = vi.spyOn(window, 'open').mockReturnValue(null)
    fake.handle('accounts.openWindow', (p: { accountId: string }) => ({
      opened: 'url',
      url: `/?account=${p.accountId}#/`,
    }))
    await click('account-menu-acct-bbbb')
    await click('account-window-open')
    expect(opened).toHaveBeenCalledWith('/?account=acct-bbbb#/', '_blank')
    // This window stays where it was.
    expect(useAccountsStore().activeId).toBe('acct-aaaa')
  })

  it('lets Electron open the window itself', async () => {
    const opened = vi.spyOn(window, 'open').mockReturnValue(null)
    fake.handle('accounts.openWindow', () => ({ opened: 'window' }))
    await click('account-menu-acct-bbbb')
    await click('account-window-open')
    expect(callsTo('accounts.openWindow')).toHaveLength(1)
    expect(opened).not.toHaveBeenCalled()
  })
})

describe('switching in a window pinned to one account', () => {
  it('moves only this window: main is not asked to change the active account', async () => {
    start('acct-bbbb')
    await flushPromises()
    expect(label()).toBe('Label acct-bbbb')
    await click('account-switch-acct-aaaa')
    expect(label()).toBe('Label acct-aaaa')
    press('3')
    await flushPromises()
    expect(label()).toBe('Label acct-cccc')
    expect(callsTo('accounts.setActive')).toHaveLength(0)
  })
})
