import { flushPromises } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import type { AccountView } from '@contract/accounts'
import { useAccountsStore } from '@/stores/accounts'
import { useAppStore } from '@/stores/app'
import { byTestId, click, formSettled, inputOf, shown, theTestId, typeInto } from '@/test/dom'
import { useFakeBridge } from '@/test/fakeApp'
import { account } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import AccountSwitcher from './AccountSwitcher.vue'
import AddAccountDialog from './AddAccountDialog.vue'

// The demo service's account: its base URL and release are what the new user's form starts from.
const DEMO = account('acct-demo0001', {
  label: 'Demo service',
  baseUrl: 'http://127.0.0.1:4010',
  release: '5.5.x',
  username: 'demo@sandbox.test',
  isDemo: true,
})
const MANAGER: AccountView = {
  ...account('acct-mngr0001'),
  label: 'Demo manager',
  baseUrl: DEMO.baseUrl,
  username: 'manager@sandbox.test',
}

/** What main says of the demo service: its address and other users (never their password). */
const DIRECTORY = {
  baseUrl: DEMO.baseUrl,
  users: [
    { username: 'manager@sandbox.test', about: 'manager of Acme Payments', twoFactor: 'none' },
    { username: 'admin@sandbox.test', about: 'administrator', twoFactor: 'app' },
  ],
}

const fake = useFakeBridge((fake) => {
  fake.handle('accounts.add', () => ({ status: 'signedIn', account: MANAGER }))
  fake.handle('demo.users', () => DIRECTORY)
  fake.handle('demo.addUser', () => ({ status: 'signedIn', account: MANAGER }))
  fake.handle('accounts.setActive', (p: { accountId: string }) => ({
    accounts: [DEMO, MANAGER],
    activeId: p.accountId,
  }))
  useAccountsStore()
  useAppStore()
  fake.emit('accounts.changed', { accounts: [DEMO], activeId: DEMO.id })
})

const adds = () => fake.calls.filter((c) => c.channel === 'accounts.add').map((c) => c.payload)
const title = () =>
  document.querySelector('[data-testid="add-account-dialog"] .el-dialog__title')?.textContent

async function openFor(from: string) {
  const wrapper = mountWithApp(AddAccountDialog, { props: { modelValue: true, from } })
  await flushPromises()
  return wrapper
}

async function fillUser(): Promise<void> {
  await typeInto('field-label', 'Demo manager')
  await typeInto('field-username', 'manager@sandbox.test')
  await typeInto('field-password', 'sandbox-password')
}

async function submit(): Promise<void> {
  theTestId('add-account-submit').click()
  await formSettled()
}

describe('adding another user of a service', () => {
  it('starts from its URL and release and reuses its key by naming the account only', async () => {
    await openFor(DEMO.id)
    expect(title()).toBe('Add another user of Demo service')
    expect(theTestId('add-account-base-url-fixed').textContent?.trim()).toBe(DEMO.baseUrl)
    expect(inputOf('field-reuse-key').checked).toBe(true)
    // The key is never shown, nor asked for; the connection settings are the account's.
    expect(shown('field-api-key')).toBe(false)
    expect(shown('field-allow-insecure-http')).toBe(false)
    await fillUser()
    await submit()
    expect(adds()).toEqual([
      {
        label: 'Demo manager',
        baseUrl: DEMO.baseUrl,
        apiKeyFrom: DEMO.id,
        authMethod: 'password',
        username: 'manager@sandbox.test',
        password: 'sandbox-password',
        rememberPassword: false,
        release: '5.5.x',
        color: expect.stringMatching(/^#/),
      },
    ])
    expect(useAccountsStore().activeId).toBe(MANAGER.id)
  })

  it('takes a typed key instead when the stored one is not to be reused', async () => {
    await openFor(DEMO.id)
    inputOf('field-reuse-key').click()
    await flushPromises()
    expect(inputOf('field-base-url').value).toBe(DEMO.baseUrl)
    await fillUser()
    await typeInto('field-api-key', 'another-key')
    await submit()
    expect(adds()).toHaveLength(1)
    expect(adds()[0]).toMatchObject({ baseUrl: DEMO.baseUrl, apiKey: 'another-key' })
    expect(adds()[0]).not.toHaveProperty('apiKeyFrom')
  })

  it('is offered in the account menu of the switcher', async () => {
    const wrapper = mountWithApp(AccountSwitcher)
    await flushPromises()
    await click('account-switcher')
    await click(`account-menu-${DEMO.id}`)
    await click('account-add-user')
    await flushPromises()
    await flushPromises()
    expect(title()).toBe('Add another user of Demo service')
    wrapper.unmount()
  })

  it('shows the demo service’s address and its other users in the account panel, each one click away', async () => {
    const wrapper = mountWithApp(AccountSwitcher)
    await flushPromises()
    await click('account-switcher')
    await flushPromises()
    // no ⋯ menu to open: the demo account's row says it
    expect(theTestId('demo-note-url').textContent?.trim()).toBe(DEMO.baseUrl)
    const users = byTestId('demo-note-user')
    expect(users.map((u) => u.dataset.user)).toEqual(DIRECTORY.users.map((u) => u.username))
    expect(users[1].textContent).toContain('authenticator app')
    // the password stays in main: nothing here says or sends it
    expect(theTestId('demo-note').textContent).not.toContain('sandbox-password')
    users[0].querySelector<HTMLElement>('[data-testid="demo-note-add"]')!.click()
    await flushPromises()
    expect(fake.calls.filter((c) => c.channel === 'demo.addUser').map((c) => c.payload)).toEqual([
      { username: 'manager@sandbox.test' },
    ])
    expect(useAccountsStore().activeId).toBe(MANAGER.id)
    wrapper.unmount()
  })

  it('goes on to the second step for a demo user who has one, and says who is added already', async () => {
    fake.handle('demo.addUser', () => ({
      status: 'challenge',
      challenge: {
        challengeId: 'chl-1',
        accountId: null,
        label: 'Demo admin',
        username: 'admin@sandbox.test',
        methods: ['app'],
        defaultMethod: 'app',
        phoneHint: null,
        smsResendAt: null,
        expiresAt: '2099-01-01T00:00:00Z',
      },
    }))
    fake.emit('accounts.changed', { accounts: [DEMO, MANAGER], activeId: DEMO.id })
    const wrapper = mountWithApp(AccountSwitcher)
    await flushPromises()
    await click('account-switcher')
    await flushPromises()
    const [manager, admin] = byTestId('demo-note-user')
    expect(manager.textContent).toContain('added')
    expect(manager.querySelector('[data-testid="demo-note-add"]')).toBeNull()
    admin.querySelector<HTMLElement>('[data-testid="demo-note-add"]')!.click()
    await vi.waitFor(() =>
      expect(theTestId('demo-user-challenge').textContent).toContain('admin@sandbox.test'),
    )
    wrapper.unmount()
  })
})
