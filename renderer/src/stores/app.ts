import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import type { AccountView } from '@contract/accounts'
import type { AppInfo, KeychainStatus } from '@contract/channels'
import type { AppError, Result } from '@contract/errors'
import type { Connectivity, ConnectivityOverview, ConnectivityState } from '@contract/offline'
import { bridgeKind, on, request } from '@/bridge/bridge'
import { useAccountsStore } from './accounts'

/** The account a window was opened for (`?account=<id>`, set by accounts.openWindow), or null. */
export function pinFromLocation(search: string): string | null {
  const id = new URLSearchParams(search).get('account')
  return id && /^[a-z0-9-]{8,64}$/.test(id) ? id : null
}

function writePinToLocation(id: string | null): void {
  const url = new URL(window.location.href)
  if (id) url.searchParams.set('account', id)
  else url.searchParams.delete('account')
  // Keep the router's history state: only the query changes, the hash route stays.
  window.history.replaceState(window.history.state, '', url.toString())
}

/**
 * What the app knows about itself and this window: mode, version, keychain, connectivity per
 * account, and the window's account. A window opened with `?account=<id>` is pinned to that
 * account: it stays on it whatever other windows choose, and switching in it moves only its pin.
 * Must be created before the account-bound stores (main.ts does), so its correction of the
 * accounts store's active id runs before their watchers see another window's choice.
 */
export const useAppStore = defineStore('app', () => {
  const accounts = useAccountsStore()
  const info = ref<AppInfo | null>(null)
  const keychain = ref<KeychainStatus | null>(null)
  const connectivity = ref<Record<string, Connectivity>>({})
  /** "Work offline" is on: main makes no request at all. */
  const workOffline = ref(false)
  /** What the OS (or the browser) says about the network; null while unknown. */
  const network = ref<boolean | null>(null)
  const error = ref<AppError | null>(null)
  const pinnedId = ref<string | null>(pinFromLocation(window.location.search))
  let inflight: Promise<void> | null = null

  /** Electron or browser mode (known from the bridge before app.info answers). */
  const mode = computed(() => info.value?.mode ?? bridgeKind())
  const keychainUnavailable = computed(() => keychain.value?.available === false)
  // The warning dismissed for this session: it comes back only if the keychain recovers and fails
  // again.
  const keychainDismissed = ref(false)
  const keychainWarning = computed(() => keychainUnavailable.value && !keychainDismissed.value)
  /** Hides the keychain warning until ScanDesk quits (or the keychain fails anew). */
  function dismissKeychainWarning(): void {
    keychainDismissed.value = true
  }

  const pinValid = computed(
    () => pinnedId.value !== null && accounts.accounts.some((a) => a.id === pinnedId.value),
  )
  /** True when this window is pinned to one account (it does not follow other windows). */
  const pinned = computed(() => pinValid.value)
  /** This window's account: its pin, or the account active across the app. */
  const accountId = computed<string | null>(() =>
    pinValid.value ? pinnedId.value : accounts.activeId,
  )
  /** The view of this window's account. */
  const account = computed<AccountView | null>(
    () => accounts.accounts.find((a) => a.id === accountId.value) ?? null,
  )

  // A pinned window keeps the accounts store on its pin: main's lists name the app-wide account.
  watch(
    () => [pinValid.value, accounts.activeId] as const,
    ([valid, activeId]) => {
      if (valid && activeId !== pinnedId.value) accounts.activeId = pinnedId.value
    },
    { flush: 'sync', immediate: true },
  )
  // A pin to an account that was removed is dropped: the window follows the app again.
  watch(
    () => accounts.loaded && pinnedId.value !== null && !pinValid.value,
    (stale) => {
      if (!stale) return
      pinnedId.value = null
      writePinToLocation(null)
    },
    { flush: 'sync', immediate: true },
  )
  // Something else made an account active (an account just added here): a pinned window follows.
  accounts.$onAction(({ name, args }) => {
    if (name === 'setActive' && pinnedId.value !== null) pinTo(args[0] as string)
  })

  function pinTo(id: string): void {
    pinnedId.value = id
    writePinToLocation(id)
    if (accounts.activeId !== id) accounts.activeId = id
  }

  /**
   * Makes `id` this window's account. Pinned windows move their pin (other windows stay where
   * they are); the main window asks main to make it the app's active account.
   */
  async function switchTo(id: string): Promise<Result<unknown>> {
    if (id === accountId.value) return { ok: true, data: null }
    if (!accounts.accounts.some((a) => a.id === id))
      return { ok: false, error: { code: 'UNKNOWN_ACCOUNT', message: 'That account is gone.' } }
    if (pinnedId.value !== null) {
      pinTo(id)
      return { ok: true, data: null }
    }
    return accounts.setActive(id)
  }

  let watchingNetwork = false
  /**
   * In a browser only the page hears about the network (Electron's main watches the OS itself):
   * it is reported now and on every change, from the first load on.
   */
  function watchNetwork(): void {
    if (watchingNetwork || bridgeKind() !== 'browser') return
    watchingNetwork = true
    const report = async (online: boolean) => {
      const result = await request('connectivity.network', { online })
      if (result.ok) applyOverview(result.data)
    }
    void report(navigator.onLine)
    window.addEventListener('online', () => void report(true))
    window.addEventListener('offline', () => void report(false))
  }

  /**
   * Loads app.info and the connectivity overview (and starts reporting the page's network in a
   * browser); concurrent callers share one request.
   */
  function load(): Promise<void> {
    watchNetwork()
    inflight ??= (async () => {
      try {
        const [result, overview] = await Promise.all([
          request('app.info', {}),
          request('connectivity.get', {}),
        ])
        if (overview.ok) applyOverview(overview.data)
        if (result.ok) {
          info.value = result.data
          keychain.value = result.data.keychain
          error.value = null
        } else error.value = result.error
      } finally {
        inflight = null
      }
    })()
    return inflight
  }

  /** Keeps one account's state unless what is kept was decided later (an event overtook it). */
  function applyConnectivity(c: Connectivity): void {
    const kept = connectivity.value[c.accountId]
    if (kept && kept.checkedAt > c.checkedAt) return
    connectivity.value = { ...connectivity.value, [c.accountId]: c }
  }

  function applyOverview(overview: ConnectivityOverview): void {
    workOffline.value = overview.workOffline
    network.value = overview.network
    for (const c of overview.accounts) applyConnectivity(c)
  }

  /**
   * Where the account's service stands for the user: "Work offline" and a signed-out account
   * first (whatever was last probed), then what main reported, else `checking`.
   */
  function connectivityOf(id: string): Connectivity {
    const reported = connectivity.value[id]
    const signedOut = accounts.accounts.find((a) => a.id === id)?.signedIn === false
    const state: ConnectivityState = workOffline.value
      ? 'work-offline'
      : signedOut
        ? 'signed-out'
        : (reported?.state ?? 'checking')
    return {
      accountId: id,
      state,
      online: state === 'online',
      checkedAt: reported?.checkedAt ?? '',
      message: state === reported?.state ? reported.message : null,
      nextCheckAt: state === reported?.state ? reported.nextCheckAt : null,
    }
  }

  /** True only while the account's service answers; false when it does not; null while unknown. */
  function isOnline(accountId: string | null): boolean | null {
    if (!accountId) return null
    const state = connectivityOf(accountId).state
    return state === 'checking' ? null : state === 'online'
  }

  /** Switches "Work offline" on or off for the whole app. */
  async function setWorkOffline(on: boolean): Promise<Result<ConnectivityOverview>> {
    const result = await request('connectivity.setWorkOffline', { on })
    if (result.ok) applyOverview(result.data)
    return result
  }

  /** Asks main to probe the account's service now. */
  async function checkNow(id: string): Promise<Result<Connectivity>> {
    const result = await request('connectivity.check', { accountId: id })
    if (result.ok) applyConnectivity(result.data)
    return result
  }

  on('connectivity', applyConnectivity)
  on('connectivity.mode', (mode) => {
    workOffline.value = mode.workOffline
    network.value = mode.network
  })
  on('keychain.status', (status) => {
    if (status.available) keychainDismissed.value = false
    keychain.value = status
  })

  return {
    info,
    mode,
    keychain,
    keychainUnavailable,
    keychainWarning,
    dismissKeychainWarning,
    connectivity,
    workOffline,
    network,
    error,
    pinnedId,
    pinned,
    accountId,
    account,
    switchTo,
    load,
    connectivityOf,
    isOnline,
    setWorkOffline,
    checkNow,
  }
})
