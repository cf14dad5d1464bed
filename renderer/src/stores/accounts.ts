import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { AccountView } from '@contract/accounts'
import type { AccountList, ChannelInput, DemoDirectory } from '@contract/channels'
import type { AppError, Result } from '@contract/errors'
import type {
  AccessTokenState,
  ConnectionTest,
  OpenedWindow,
  ReleaseDetection,
  RemovalPlan,
  SignInOutcome,
} from '@contract/sessions'
import { callApi, on, request, type ApiAnswer } from '@/bridge/bridge'
import { useDelayedFlag } from '@/utils/delayedFlag'
import { useTrustStore } from './trust'

/** The accounts main knows, which one is active, and the actions on them. */
export const useAccountsStore = defineStore('accounts', () => {
  const accounts = ref<AccountView[]>([])
  const activeId = ref<string | null>(null)
  const loaded = ref(false)
  const loading = ref(false)
  const error = ref<AppError | null>(null)
  const showLoading = useDelayedFlag(() => loading.value)
  const trust = useTrustStore()
  let inflight: Promise<void> | null = null

  const active = computed(() => accounts.value.find((a) => a.id === activeId.value) ?? null)
  const hasAccounts = computed(() => accounts.value.length > 0)

  // The account a setActive still on its way to main makes active: a list main made before it
  // (an event sent while the request travels) does not switch the screen back meanwhile.
  let choosing: string | null = null

  let revision = 0

  function apply(list: AccountList): void {
    if (list.revision !== undefined) {
      if (list.revision < revision) return
      revision = list.revision
    }
    accounts.value = list.accounts
    const wanted = choosing ?? list.activeId
    activeId.value =
      wanted && list.accounts.some((a) => a.id === wanted) ? wanted : (list.accounts[0]?.id ?? null)
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

  /** Puts an account main answered into the list (replacing the one with its id, or appending). */
  function upsert(account: AccountView): void {
    if (accounts.value.some((a) => a.id === account.id))
      accounts.value = accounts.value.map((a) => (a.id === account.id ? account : a))
    else accounts.value = [...accounts.value, account]
  }

  async function afterAccountCreated(account: AccountView): Promise<void> {
    upsert(account)
    await setActive(account.id)
  }

  /**
   * Takes a sign-in outcome into the list: a signed-in account replaces its old view (or joins
   * the list); with `activate` (an account just added) it also becomes the active one. A
   * challenge changes nothing here: the second-factor step finishes it.
   */
  async function applyOutcome(outcome: SignInOutcome, activate = false): Promise<void> {
    if (outcome.status !== 'signedIn') return
    if (activate) await afterAccountCreated(outcome.account)
    else upsert(outcome.account)
  }

  async function withOutcome(
    pending: Promise<Result<SignInOutcome>>,
    activate: boolean,
  ): Promise<Result<SignInOutcome>> {
    const result = await pending
    if (result.ok) await applyOutcome(result.data, activate)
    return result
  }

  /**
   * Adds an account (main signs in to check the credentials). Signed in: the account joins the
   * list and becomes active. A challenge: nothing is stored until the second factor succeeds.
   */
  function add(input: ChannelInput<'accounts.add'>): Promise<Result<SignInOutcome>> {
    return withOutcome(
      trust.confirmed((trustConfirmation) =>
        request('accounts.add', { ...input, ...(trustConfirmation ? { trustConfirmation } : {}) }),
      ),
      true,
    )
  }

  /** Signs in to a signed-out account (or one whose session ended); may answer a challenge. */
  function signIn(
    accountId: string,
    password: string,
    remember?: boolean,
  ): Promise<Result<SignInOutcome>> {
    return withOutcome(
      request('accounts.signIn', {
        accountId,
        password,
        ...(remember === undefined ? {} : { remember }),
      }),
      false,
    )
  }

  /**
   * Answers a pending challenge with a one-time code; may finish a sign-in, or (`adding`: the
   * challenge had no account yet) an add, whose account then becomes active.
   */
  function secondFactor(
    input: ChannelInput<'accounts.secondFactor'>,
    adding = false,
  ): Promise<Result<SignInOutcome>> {
    return withOutcome(request('accounts.secondFactor', input), adding)
  }

  /** The demo service's address and its other users (null without a demo account). */
  function demoUsers(): Promise<Result<DemoDirectory | null>> {
    return request('demo.users', {})
  }

  /**
   * Adds another user of the demo service (main signs in with the demo's password, which stays
   * there): signed in, it joins the list and becomes active; a challenge is finished as any.
   */
  function addDemoUser(username: string): Promise<Result<SignInOutcome>> {
    return withOutcome(request('demo.addUser', { username }), true)
  }

  /** Starts the embedded demo service, adds its account and makes it active. */
  async function startDemo(): Promise<Result<AccountView>> {
    const result = await request('demo.start', {})
    if (result.ok) await afterAccountCreated(result.data)
    return result
  }

  /** Signs out of an account (its session is dropped in main), and removes its offline copy if asked. */
  async function signOut(
    accountId: string,
    clearOfflineCopy = false,
  ): Promise<Result<AccountView>> {
    const result = await request('accounts.signOut', { accountId, clearOfflineCopy })
    if (result.ok) upsert(result.data)
    return result
  }

  /** Turns the remembered password of an account on (with the password) or off. */
  async function setRemember(
    accountId: string,
    remember: boolean,
    password?: string,
  ): Promise<Result<AccountView>> {
    const result = await request('accounts.setRemember', {
      accountId,
      remember,
      ...(password ? { password } : {}),
    })
    if (result.ok) upsert(result.data)
    return result
  }

  /** Removes an account and everything ScanDesk kept for it. */
  async function remove(accountId: string): Promise<Result<{ removed: true }>> {
    const result = await request('accounts.remove', { accountId })
    // KEYCHAIN_UNAVAILABLE comes after the account was removed here (its secrets go at the next
    // start): the list changed either way.
    if (result.ok || result.error.code === 'KEYCHAIN_UNAVAILABLE') await load()
    return result
  }

  /** Makes an account the active one. */
  async function setActive(accountId: string): Promise<Result<AccountList>> {
    const previous = activeId.value
    activeId.value = accountId
    choosing = accountId
    let result: Result<AccountList>
    try {
      result = await request('accounts.setActive', { accountId })
    } finally {
      if (choosing === accountId) choosing = null
    }
    if (result.ok) apply(result.data)
    else activeId.value = previous
    return result
  }

  /** Saves an account's settings (label, colour, release, keys); the answer joins the list. */
  async function update(input: ChannelInput<'accounts.update'>): Promise<Result<AccountView>> {
    const result = await trust.confirmed((trustConfirmation) =>
      request('accounts.update', { ...input, ...(trustConfirmation ? { trustConfirmation } : {}) }),
    )
    if (result.ok) upsert(result.data)
    return result
  }

  /** Tests an account's connection: reachability, API key, session, answer time, release. */
  function testConnection(accountId: string): Promise<Result<ConnectionTest>> {
    return request('accounts.test', { accountId })
  }

  /** Asks the service which release it runs, with what an account form has so far. */
  function detectRelease(
    input: ChannelInput<'accounts.detectRelease'>,
  ): Promise<Result<ReleaseDetection>> {
    return trust.confirmed((trustConfirmation) =>
      request('accounts.detectRelease', {
        ...input,
        ...(trustConfirmation ? { trustConfirmation } : {}),
      }),
    )
  }

  /** Generates, revokes or checks an access token; after a change the list is reloaded. */
  async function accessToken(
    accountId: string,
    action: 'generate' | 'revoke' | 'check',
  ): Promise<Result<AccessTokenState>> {
    const result = await request('accounts.accessToken', { accountId, action })
    if (result.ok && action !== 'check') await load()
    return result
  }

  /** What removing an account would delete and keep (exact counts from main). */
  function removalPlan(accountId: string): Promise<Result<RemovalPlan>> {
    return request('accounts.removalPlan', { accountId })
  }

  /** Asks the service to send the account's user a password-reset e-mail. */
  function requestPasswordReset(
    accountId: string,
  ): Promise<Result<{ sent: true; message: string }>> {
    return request('accounts.requestPasswordReset', { accountId })
  }

  /** Opens an account in a new window (browser mode: main answers the page to open). */
  function openWindow(accountId: string): Promise<Result<OpenedWindow>> {
    return request('accounts.openWindow', { accountId })
  }

  /** Lists the first 100 users of a given account (not necessarily this window's one). */
  function listUsers(accountId: string): Promise<Result<ApiAnswer<'users.list'>>> {
    return callApi(accountId, 'users.list', { query: { per_page: 100 } })
  }

  /** Starts acting as another user in an account; the answer joins the list. */
  async function impersonate(accountId: string, userId: string): Promise<Result<AccountView>> {
    const result = await request('accounts.impersonate', { accountId, userId })
    if (result.ok) upsert(result.data)
    return result
  }

  /** Stops acting as another user in an account; the answer joins the list. */
  async function stopImpersonation(accountId: string): Promise<Result<AccountView>> {
    const result = await request('accounts.stopImpersonation', { accountId })
    if (result.ok) upsert(result.data)
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
    upsert,
    applyOutcome,
    add,
    startDemo,
    demoUsers,
    addDemoUser,
    signIn,
    secondFactor,
    signOut,
    setRemember,
    remove,
    setActive,
    update,
    testConnection,
    detectRelease,
    accessToken,
    removalPlan,
    requestPasswordReset,
    openWindow,
    listUsers,
    impersonate,
    stopImpersonation,
  }
})
