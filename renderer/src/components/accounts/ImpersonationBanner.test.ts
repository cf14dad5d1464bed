import { flushPromises } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import { useAccountsStore } from '@/stores/accounts'
import { useAppStore } from '@/stores/app'
import { useFakeBridge } from '@/test/fakeApp'
import { Fail } from '@/test/fakeScandesk'
import { account as baseAccount } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import ImpersonateDialog from './ImpersonateDialog.vue'
import ImpersonationBanner from './ImpersonationBanner.vue'
import { click, typeInto } from '@/test/dom'

const fake = useFakeBridge(() => useAppStore())
let wrapper: { unmount(): void } | null = null

const account = (id: string, extra: Partial<AccountView> = {}) =>
  baseAccount(id, {
    label: 'Production',
    color: '#cc3300',
    impersonating: null,
    rememberPassword: false,
    hasCaBundle: false,
    awaitingReauth: false,
    ...extra,
  })
const acting = {
  userId: 'usr-005',
  email: 'analyst@sandbox.test',
  since: '2030-01-01T10:00:00Z',
}

afterEach(() => {
  wrapper?.unmount()
  wrapper = null
})

const banner = () => document.querySelector<HTMLElement>('[data-testid="impersonation-banner"]')

describe('the impersonation banner', () => {
  it('says who the administrator acts as, in the account’s colour', async () => {
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa', { impersonating: acting })],
      activeId: 'acct-aaaa',
    })
    wrapper = mountWithApp(ImpersonationBanner)
    await flushPromises()
    const text = banner()?.textContent?.replace(/\s+/g, ' ') ?? ''
    expect(text).toContain('You are acting as analyst@sandbox.test in Production since')
    expect(banner()?.style.background).toMatch(/#cc3300|rgb\(204, 51, 0\)/i)
  })

  it('is absent while nobody is impersonated, and after switching to another account', async () => {
    fake.handle('accounts.setActive', (p: { accountId: string }) => ({
      accounts: [account('acct-aaaa', { impersonating: acting }), account('acct-bbbb')],
      activeId: p.accountId,
    }))
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa', { impersonating: acting }), account('acct-bbbb')],
      activeId: 'acct-aaaa',
    })
    wrapper = mountWithApp(ImpersonationBanner)
    await flushPromises()
    expect(banner()).not.toBeNull()
    await useAccountsStore().setActive('acct-bbbb')
    await flushPromises()
    expect(banner()).toBeNull()
  })

  it('stops the impersonation with one click', async () => {
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa', { impersonating: acting })],
      activeId: 'acct-aaaa',
    })
    fake.handle('accounts.stopImpersonation', () => account('acct-aaaa'))
    wrapper = mountWithApp(ImpersonationBanner)
    await flushPromises()
    await click('impersonation-stop')
    expect(fake.calls.find((c) => c.channel === 'accounts.stopImpersonation')?.payload).toEqual({
      accountId: 'acct-aaaa',
    })
    expect(banner()).toBeNull()
  })
})

describe('acting as a user', () => {
  const usersAnswer = {
    data: {
      data: [
        {
          id: 'usr-001',
          type: 'user',
          attributes: { email: 'admin@x.test', role: 'administrator' },
        },
        { id: 'usr-005', type: 'user', attributes: { email: 'analyst@x.test', role: 'analyst' } },
      ],
    },
    fetchedAt: '2030-01-01T00:00:00Z',
    fromCache: false,
  }

  beforeEach(() => {
    fake.emit('accounts.changed', { accounts: [account('acct-aaaa')], activeId: 'acct-aaaa' })
  })

  async function openDialog() {
    wrapper = mountWithApp(ImpersonateDialog, {
      props: { accountId: 'acct-aaaa', modelValue: true },
    })
    await flushPromises()
  }

  async function choose(text: string): Promise<void> {
    await typeInto('impersonate-user', text)
  }

  it('lists users from users.list and starts acting as the chosen one', async () => {
    fake.handle('api.call', () => usersAnswer)
    fake.handle('accounts.impersonate', () =>
      account('acct-aaaa', { impersonating: { ...acting, email: 'analyst@x.test' } }),
    )
    await openDialog()
    const listCall = fake.calls.find((c) => c.channel === 'api.call')
    expect(listCall?.payload).toMatchObject({ accountId: 'acct-aaaa', op: 'users.list' })
    const choices = [
      ...document.querySelectorAll<HTMLButtonElement>('[data-testid="impersonate-choice"]'),
    ]
    expect(choices.map((b) => b.disabled)).toEqual([true, false]) // administrators cannot be
    choices[1].click()
    await flushPromises()
    await click('impersonate-submit')
    expect(fake.calls.find((c) => c.channel === 'accounts.impersonate')?.payload).toEqual({
      accountId: 'acct-aaaa',
      userId: 'usr-005',
    })
    expect(useAccountsStore().active?.impersonating?.email).toBe('analyst@x.test')
  })

  it('says so when the user is not an administrator, and shows main’s refusal', async () => {
    fake.handle('api.call', () => new Fail({ code: 'FORBIDDEN', message: 'forbidden' }))
    fake.handle(
      'accounts.impersonate',
      () => new Fail({ code: 'FORBIDDEN', message: 'Only administrators can impersonate users.' }),
    )
    await openDialog()
    expect(document.body.textContent).toContain('Only administrators can act as another user.')
    await choose('usr-009')
    await click('impersonate-submit')
    expect(fake.calls.find((c) => c.channel === 'accounts.impersonate')?.payload).toEqual({
      accountId: 'acct-aaaa',
      userId: 'usr-009',
    })
    expect(document.body.textContent).toContain('Only administrators can impersonate users.')
  })

  it('takes a typed e-mail of a listed user', async () => {
    fake.handle('api.call', () => usersAnswer)
    fake.handle('accounts.impersonate', () => account('acct-aaaa', { impersonating: acting }))
    await openDialog()
    await choose('ANALYST@x.test')
    await click('impersonate-submit')
    expect(fake.calls.find((c) => c.channel === 'accounts.impersonate')?.payload).toEqual({
      accountId: 'acct-aaaa',
      userId: 'usr-005',
    })
  })

  it('refuses to send something that is neither a listed user nor a user id', async () => {
    fake.handle('api.call', () => usersAnswer)
    await openDialog()
    await choose('not an id!')
    expect(document.querySelectorAll('[data-testid="impersonate-choice"]')).toHaveLength(0)
    await click('impersonate-submit')
    expect(fake.calls.some((c) => c.channel === 'accounts.impersonate')).toBe(false)
    expect(document.body.textContent).toContain('Pick a user from the list')
  })
})
