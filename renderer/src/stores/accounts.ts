import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { AccountView } from '@contract/accounts'
import type { AccountList, ChannelInput } from '@contract/channels'
import type { AppError, Result } from '@contract/errors'
import { on, request } from '@/bridge/bridge'
import { useDelayedFlag } from '@/composables/delayedFlag'

/** The accounts main knows, which one is active, and the actions on them. */
export const useAccountsStore = defineStore('accounts', () => {
  const accounts = ref<AccountView[]>([])
  const activeId = ref<string | null>(null)
  const loaded = ref(false)
  const loading = ref(false)
  const error = ref<AppError | null>(null)
  const showLoading = useDelayedFlag(() => loading.value)
  let inflight: Promise<void> | null = null

  const active = computed(() => accounts.value.find((a) => a.id === activeId.value) ?? null)
  const hasAccounts = computed(() => accounts.value.length > 0)

  function apply(list: AccountList): void {
    accounts.value = list.accounts
    activeId.value =
      list.activeId && list.accounts.some((a) => a.id === list.activeId)
        ? list.activeId
        : (list.accounts[0]?.id ?? null)
    loaded.value = true
  }

  /** Loads the list; concurrent callers share one request. */
  function load(): Promise<void> {
    inflight ??= (async () => {
      loading.value = true
      try {
        const result = await request('accounts.list', {})
        if (result.ok) {
          apply(result.data)
          error.value = null
        } else error.value = result.error
      } finally {
        loading.value = false
        inflight = null
      }
    })()
    return inflight
  }

  /** Loads the list once; later callers get the loaded state. */
  function ensureLoaded(): Promise<void> {
    return loaded.value ? Promise.resolve() : load()
  }

  async function afterAccountCreated(result: Result<AccountView>): Promise<Result<AccountView>> {
    if (!result.ok) return result
    const account = result.data
    if (!accounts.value.some((a) => a.id === account.id))
      accounts.value = [...accounts.value, account]
    await setActive(account.id)
    return result
  }

  /** Adds an account (main signs in to check the credentials) and makes it active. */
  async function add(input: ChannelInput<'accounts.add'>): Promise<Result<AccountView>> {
    return afterAccountCreated(await request('accounts.add', input))
  }

  /** Starts the embedded demo service, adds its account and makes it active. */
  async function startDemo(): Promise<Result<AccountView>> {
    return afterAccountCreated(await request('demo.start', {}))
  }

  function replace(account: AccountView): void {
    accounts.value = accounts.value.map((a) => (a.id === account.id ? account : a))
  }

  /** Signs in to a signed-out account again. */
  async function signIn(accountId: string, password: string): Promise<Result<AccountView>> {
    const result = await request('accounts.signIn', { accountId, password })
    if (result.ok) replace(result.data)
    return result
  }

  /** Signs out of an account (its session and secrets are dropped in main). */
  async function signOut(accountId: string): Promise<Result<AccountView>> {
    const result = await request('accounts.signOut', { accountId })
    if (result.ok) replace(result.data)
    return result
  }

  /** Removes an account and everything ScanDesk kept for it. */
  async function remove(accountId: string): Promise<Result<{ removed: true }>> {
    const result = await request('accounts.remove', { accountId })
    if (result.ok) await load()
    return result
  }

  /** Makes an account the active one. */
  async function setActive(accountId: string): Promise<Result<AccountList>> {
    const previous = activeId.value
    activeId.value = accountId
    const result = await request('accounts.setActive', { accountId })
    if (result.ok) apply(result.data)
    else activeId.value = previous
    return result
  }

  on('accounts.changed', apply)

  return {
    accounts,
    activeId,
    active,
    hasAccounts,
    loaded,
    loading,
    showLoading,
    error,
    load,
    ensureLoaded,
    add,
    startDemo,
    signIn,
    signOut,
    remove,
    setActive,
  }
})
