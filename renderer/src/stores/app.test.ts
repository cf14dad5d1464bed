import { BRIDGE_KEY_STORAGE } from '@contract/browser-bridge'
import { createPinia, defineStore, setActivePinia } from 'pinia'
import { watch } from 'vue'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { ConnectivityState } from '@contract/offline'
import { useFakeBridge } from '@/test/fakeApp'
import { account as baseAccount, appInfo, connectivity, upcomingAnswer } from '@/test/fixtures'
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
    fake.emit('connectivity', reach('acct-aaaa', 'unreachable'))
    fake.emit('connectivity', reach('acct-bbbb', 'online'))
    fake.emit('connectivity', reach('acct-cccc', 'checking'))
    expect(store.isOnline('acct-aaaa')).toBe(false)
    expect(store.isOnline('acct-bbbb')).toBe(true)
    expect(store.isOnline('acct-cccc')).toBeNull()
    expect(store.connectivityOf('acct-aaaa').message).toBe('acct-aaaa is unreachable')
  })
})

/** What main reports about one account's service. */
const reach = (accountId: string, state: ConnectivityState, checkedAt = '2030-01-01T00:00:00Z') =>
  connectivity(state, {
    accountId,
    checkedAt,
    message: state === 'online' ? null : `${accountId} is ${state}`,
  })

describe('connectivity', () => {
  it('loads the overview at start, then follows events and the work-offline switch', async () => {
    fake.handle('app.info', () => appInfo('electron'))
    fake.handle('connectivity.get', () => ({
      workOffline: false,
      network: true,
      accounts: [reach('acct-aaaa', 'online')],
    }))
    const store = useAppStore()
    expect(store.connectivityOf('acct-aaaa').state).toBe('checking')
    await store.load()
    expect(store.network).toBe(true)
    expect(store.connectivityOf('acct-aaaa').state).toBe('online')
    fake.emit('connectivity', reach('acct-aaaa', 'offline', '2030-01-01T00:01:00Z'))
    expect(store.connectivityOf('acct-aaaa').state).toBe('offline')
    fake.emit('connectivity.mode', { workOffline: true, network: false })
    expect(store.workOffline).toBe(true)
    expect(store.connectivityOf('acct-aaaa').state).toBe('work-offline')
    expect(store.isOnline('acct-aaaa')).toBe(false)
    await store.setWorkOffline(false)
    expect(callsTo('connectivity.setWorkOffline').map((c) => c.payload)).toEqual([{ on: false }])
    expect(store.workOffline).toBe(false)
  })

  it('keeps a later event over an older overview answer', async () => {
    fake.handle('connectivity.get', () => ({
      workOffline: false,
      network: null,
      accounts: [reach('acct-aaaa', 'unreachable', '2030-01-01T00:00:00Z')],
    }))
    const store = useAppStore()
    const loading = store.load()
    fake.emit('connectivity', reach('acct-aaaa', 'online', '2030-01-01T00:05:00Z'))
    await loading
    expect(store.connectivityOf('acct-aaaa').state).toBe('online')
  })

  it('says a signed-out account is signed out', () => {
    const store = useAppStore()
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa', { signedIn: false })],
      activeId: 'acct-aaaa',
    })
    expect(store.connectivityOf('acct-aaaa').state).toBe('signed-out')
  })

  it('checks an account now and keeps the answer', async () => {
    fake.handle('connectivity.check', (p: { accountId: string }) => reach(p.accountId, 'online'))
    const store = useAppStore()
    await store.checkNow('acct-aaaa')
    expect(callsTo('connectivity.check').map((c) => c.payload)).toEqual([
      { accountId: 'acct-aaaa' },
    ])
    expect(store.isOnline('acct-aaaa')).toBe(true)
  })
})

describe('in a browser', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    sessionStorage.clear()
  })

  it('reports the page’s network state at start and on every change', async () => {
    delete window.scandesk
    // the page key the launch exchange leaves in the tab (browser mode sends nothing without it)
    sessionStorage.setItem(BRIDGE_KEY_STORAGE, 'k'.repeat(43))
    const sent: unknown[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: { body: string }) => {
        if (url.endsWith('/connectivity.network')) sent.push(JSON.parse(init.body))
        const online = url.endsWith('/connectivity.network') && JSON.parse(init.body).online
        return new Response(
          JSON.stringify({ ok: true, data: { workOffline: false, network: online, accounts: [] } }),
        )
      }),
    )
    const store = useAppStore()
    void store.load()
    window.dispatchEvent(new Event('offline'))
    await vi.waitFor(() => expect(sent).toHaveLength(2))
    expect(sent).toEqual([{ online: navigator.onLine }, { online: false }])
    await vi.waitFor(() => expect(store.network).toBe(false))
  })

  it('leaves the network to Electron’s main', async () => {
    await useAppStore().load()
    expect(callsTo('connectivity.network')).toHaveLength(0)
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
