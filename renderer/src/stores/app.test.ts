import { createPinia, defineStore, setActivePinia } from 'pinia'
import { watch } from 'vue'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import { useFakeBridge } from '@/test/fakeApp'
import { account as baseAccount, upcomingAnswer } from '@/test/fixtures'
import { useAccountsStore } from './accounts'
import { pinFromLocation, useAppStore } from './app'
import { useUpcomingScansStore } from './upcomingScans'

const fake = useFakeBridge()
afterEach(() => {
  window.history.replaceState(null, '', '/')
})

const account = (id: string, extra: Partial<AccountView> = {}) =>
  baseAccount(id, { label: `Label ${id}`, ...extra })
const three = () => [account('acct-aaaa'), account('acct-bbbb'), account('acct-cccc')]
const callsTo = (channel: string) => fake.calls.filter((c) => c.channel === channel)

/** Opens this "window" as accounts.openWindow does: with ?account=<id>. */
function openPinnedTo(id: string): void {
  window.history.replaceState(null, '', `/?account=${id}#/dashboard`)
  setActivePinia(createPinia())
}

describe('what the app knows about itself', () => {
  it('reports an unavailable keychain from app.info and follows later changes', async () => {
    fake.handle('app.info', () => ({
      mode: 'browser',
      version: '0.1.0',
      keychain: { available: false, message: 'locked' },
    }))
    const store = useAppStore()
    await store.load()
    expect(store.info?.mode).toBe('browser')
    expect(store.keychainUnavailable).toBe(true)
    fake.emit('keychain.status', { available: true, message: null })
    expect(store.keychainUnavailable).toBe(false)
  })

  it('keeps connectivity per account', () => {
    const store = useAppStore()
    expect(store.isOnline('acct-aaaa')).toBeNull()
    fake.emit('connectivity', { accountId: 'acct-aaaa', online: false, checkedAt: 'x' })
    fake.emit('connectivity', { accountId: 'acct-bbbb', online: true, checkedAt: 'x' })
    expect(store.isOnline('acct-aaaa')).toBe(false)
    expect(store.isOnline('acct-bbbb')).toBe(true)
  })
})

describe('a window pinned to one account', () => {
  beforeEach(() => {
    fake.handle('accounts.setActive', (p: { accountId: string }) => ({
      accounts: three(),
      activeId: p.accountId,
    }))
  })

  it('shows its pinned account whatever main calls the active one', () => {
    openPinnedTo('acct-bbbb')
    const app = useAppStore()
    const accounts = useAccountsStore()
    fake.emit('accounts.changed', { accounts: three(), activeId: 'acct-aaaa' })
    expect(app.pinned).toBe(true)
    expect(app.accountId).toBe('acct-bbbb')
    expect(accounts.activeId).toBe('acct-bbbb')
    expect(accounts.active?.label).toBe('Label acct-bbbb')
  })

  it('keeps its stores when another window switches accounts', async () => {
    openPinnedTo('acct-bbbb')
    useAppStore()
    fake.emit('accounts.changed', { accounts: three(), activeId: 'acct-aaaa' })
    fake.handle('api.call', (p: { accountId: string }) =>
      upcomingAnswer(p.accountId === 'acct-bbbb' ? 'B' : 'other', 2),
    )
    const upcoming = useUpcomingScansStore()
    await upcoming.load()
    expect(upcoming.current.rows?.map((r) => r.name)).toEqual(['B scan 1', 'B scan 2'])
    fake.emit('accounts.changed', { accounts: three(), activeId: 'acct-cccc' })
    expect(useAccountsStore().activeId).toBe('acct-bbbb')
    expect(upcoming.current.rows?.map((r) => r.name)).toEqual(['B scan 1', 'B scan 2'])
    expect(callsTo('api.call')).toHaveLength(1)
  })

  it('never shows another window’s choice to stores that watch the accounts store', () => {
    openPinnedTo('acct-bbbb')
    useAppStore()
    fake.emit('accounts.changed', { accounts: three(), activeId: 'acct-aaaa' })
    // Like the stores of other domains: they follow useAccountsStore().activeId synchronously.
    const seen: (string | null)[] = []
    const useWatcher = defineStore('watcher', () => {
      const accounts = useAccountsStore()
      watch(
        () => accounts.activeId,
        (id) => seen.push(id),
        { flush: 'sync' },
      )
      return {}
    })
    useWatcher()
    fake.emit('accounts.changed', { accounts: three(), activeId: 'acct-cccc' })
    fake.emit('accounts.changed', { accounts: three(), activeId: 'acct-aaaa' })
    expect(seen).toEqual([])
  })

  it('switches only itself: its pin and URL move, main’s active account does not', async () => {
    openPinnedTo('acct-bbbb')
    const app = useAppStore()
    fake.emit('accounts.changed', { accounts: three(), activeId: 'acct-aaaa' })
    const result = await app.switchTo('acct-cccc')
    expect(result.ok).toBe(true)
    expect(callsTo('accounts.setActive')).toHaveLength(0)
    expect(app.accountId).toBe('acct-cccc')
    expect(useAccountsStore().activeId).toBe('acct-cccc')
    expect(new URLSearchParams(window.location.search).get('account')).toBe('acct-cccc')
    expect(window.location.hash).toBe('#/dashboard')
  })

  it('follows an account made active by an action in it (an account just added)', async () => {
    openPinnedTo('acct-bbbb')
    const app = useAppStore()
    const accounts = useAccountsStore()
    fake.emit('accounts.changed', { accounts: three(), activeId: 'acct-aaaa' })
    await accounts.setActive('acct-cccc')
    expect(app.accountId).toBe('acct-cccc')
    expect(accounts.activeId).toBe('acct-cccc')
  })

  it('follows the app again once its account is removed', () => {
    openPinnedTo('acct-bbbb')
    const app = useAppStore()
    fake.emit('accounts.changed', { accounts: three(), activeId: 'acct-aaaa' })
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa'), account('acct-cccc')],
      activeId: 'acct-aaaa',
    })
    expect(app.pinned).toBe(false)
    expect(app.pinnedId).toBeNull()
    expect(app.accountId).toBe('acct-aaaa')
    expect(window.location.search).toBe('')
  })

  it('reads only a well-formed account id from the URL', () => {
    expect(pinFromLocation('?account=acct-bbbb')).toBe('acct-bbbb')
    expect(pinFromLocation('?account=..%2Fetc')).toBeNull()
    expect(pinFromLocation('?other=1')).toBeNull()
  })
})

describe('the main window', () => {
  it('switches the app’s active account through main', async () => {
    fake.handle('accounts.setActive', (p: { accountId: string }) => ({
      accounts: three(),
      activeId: p.accountId,
    }))
    const app = useAppStore()
    fake.emit('accounts.changed', { accounts: three(), activeId: 'acct-aaaa' })
    expect(app.pinned).toBe(false)
    await app.switchTo('acct-cccc')
    expect(callsTo('accounts.setActive').map((c) => c.payload)).toEqual([
      { accountId: 'acct-cccc' },
    ])
    expect(app.accountId).toBe('acct-cccc')
    // Another window's switch reaches this one.
    fake.emit('accounts.changed', { accounts: three(), activeId: 'acct-bbbb' })
    expect(app.accountId).toBe('acct-bbbb')
  })
})
