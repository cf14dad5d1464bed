import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { ConnectionTest } from '@contract/sessions'
import { useAccountsStore } from '@/stores/accounts'
import { useFakeBridge } from '@/test/fakeApp'
import { Fail } from '@/test/fakeScandesk'
import { account as baseAccount } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import AccountSettingsDialog from './AccountSettingsDialog.vue'
import { click, submitWith, theTestId, typeInto } from '@/test/dom'

const fake = useFakeBridge(() => useAccountsStore())
let wrapper: ReturnType<typeof mountWithApp> | null = null
let current: AccountView

const account = (extra: Partial<AccountView> = {}) =>
  baseAccount('acct-aaaa', {
    label: 'Production',
    impersonating: null,
    rememberPassword: false,
    hasCaBundle: false,
    awaitingReauth: false,
    ...extra,
  })
const payloadsOf = (channel: string) =>
  fake.calls.filter((c) => c.channel === channel).map((c) => c.payload)

function start(extra: Partial<AccountView> = {}) {
  current = account(extra)
  fake.handle('accounts.list', () => ({ accounts: [current], activeId: current.id }))
  fake.emit('accounts.changed', { accounts: [current], activeId: current.id })
  wrapper = mountWithApp(AccountSettingsDialog, {
    props: { accountId: 'acct-aaaa', modelValue: true },
  })
  return flushPromises()
}

afterEach(() => {
  wrapper?.unmount()
  wrapper = null
})

describe('account settings', () => {
  it('sends only what changed and takes main’s view of the account', async () => {
    await start()
    expect(theTestId('account-settings-dialog').textContent).toContain('Settings of Production')
    fake.handle('accounts.update', (p: { label?: string }) => ({ ...current, label: p.label! }))
    await typeInto('settings-label', 'Production EU')
    await typeInto('settings-api-key', 'new-key-123')
    await submitWith('settings-save')
    expect(payloadsOf('accounts.update')).toEqual([
      { accountId: 'acct-aaaa', label: 'Production EU', apiKey: 'new-key-123' },
    ])
    expect(useAccountsStore().accounts[0].label).toBe('Production EU')
  })

  it('shows the service’s base URL and the user, and says the key is never shown', async () => {
    await start({ baseUrl: 'http://127.0.0.1:4010', username: 'demo@sandbox.test' })
    expect(theTestId('settings-base-url').textContent?.trim()).toBe('http://127.0.0.1:4010')
    expect(theTestId('settings-user').textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'Signed in as demo@sandbox.test. The API key stays in the keychain and is never shown.',
    )
  })

  it('removes a CA bundle that is set', async () => {
    await start({ hasCaBundle: true })
    fake.handle('accounts.update', () => ({ ...current, hasCaBundle: false }))
    await click('ca-bundle-remove-existing')
    await submitWith('settings-save')
    expect(payloadsOf('accounts.update')).toEqual([{ accountId: 'acct-aaaa', caBundle: null }])
  })

  it('shows a field error from main beside the field and keeps the dialog open', async () => {
    await start()
    fake.handle(
      'accounts.update',
      () =>
        new Fail({
          code: 'VALIDATION',
          message: 'Check the highlighted fields.',
          fieldErrors: { label: ['is already used by another account'] },
        }),
    )
    await typeInto('settings-label', 'Staging')
    await submitWith('settings-save')
    await new Promise((r) => setTimeout(r, 150))
    await flushPromises()
    expect(document.body.textContent).toContain('is already used by another account')
    expect(wrapper?.emitted('update:modelValue')).toBeUndefined()
  })

  it('tests the connection and shows each finding', async () => {
    await start()
    const answer: ConnectionTest = {
      reachable: true,
      apiKeyAccepted: true,
      session: 'expired',
      latencyMs: 42,
      detectedRelease: '5.4.2',
      message: 'The service answers; sign in again.',
      checkedAt: '2030-01-01T00:00:00Z',
    }
    fake.handle('accounts.test', () => answer)
    await click('account-test')
    const text = theTestId('account-test-result').textContent?.replace(/\s+/g, ' ') ?? ''
    expect(text).toContain('Service reachable: yes')
    expect(text).toContain('API key accepted: yes')
    expect(text).toContain('Session: expired')
    expect(text).toContain('Answer time: 42 ms')
    expect(text).toContain('Release the service shows: 5.4.2')
    expect(text).toContain('The service answers; sign in again.')
    expect(theTestId('account-test-result').querySelectorAll('.is-bad')).toHaveLength(2)
  })

  it('switches a signed-in password account to an access token', async () => {
    await start()
    fake.handle('accounts.accessToken', () => {
      current = { ...current, authMethod: 'access_token' }
      return { accountId: 'acct-aaaa', inUse: true, valid: true, checkedAt: null }
    })
    expect(document.body.textContent).toContain('never expires')
    await click('access-token-generate')
    expect(payloadsOf('accounts.accessToken')).toEqual([
      { accountId: 'acct-aaaa', action: 'generate' },
    ])
    expect(useAccountsStore().accounts[0].authMethod).toBe('access_token')
    expect(theTestId('access-token-state').textContent).toContain('The token is valid.')
    expect(document.querySelector('[data-testid="access-token-revoke"]')).not.toBeNull()
  })

  it('asks for the password before remembering it, and forgets it in one step', async () => {
    await start()
    fake.handle('accounts.setRemember', (p: { remember: boolean }) => ({
      ...current,
      rememberPassword: p.remember,
    }))
    await click('remember-toggle')
    expect(payloadsOf('accounts.setRemember')).toEqual([])
    await click('remember-submit')
    expect(payloadsOf('accounts.setRemember')).toEqual([])
    expect(document.body.textContent).toContain('Enter the password.')
    await typeInto('remember-password', 'sandbox-password')
    await click('remember-submit')
    expect(payloadsOf('accounts.setRemember')).toEqual([
      { accountId: 'acct-aaaa', remember: true, password: 'sandbox-password' },
    ])
    expect(useAccountsStore().accounts[0].rememberPassword).toBe(true)
    await click('remember-toggle')
    expect(payloadsOf('accounts.setRemember').at(-1)).toEqual({
      accountId: 'acct-aaaa',
      remember: false,
    })
  })
})
