import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { twoAccounts, useFakeApp } from '@/test/fakeApp'
import { deferred } from '@/test/fakeScandesk'
import { mountWithApp } from '@/test/mountApp'
import UserAccountView from './UserAccountView.vue'
import {
  byTestId,
  callsOf,
  inputOf,
  serveUserApi,
  typeInto,
  userResource,
  type ApiPayload,
} from './userTestKit'

const fake = useFakeApp({ accounts: twoAccounts })
const USERS: Record<string, ReturnType<typeof userResource>> = {
  'acct-aaaa': userResource({ email: 'ada@a.example', first_name: 'Ada' }, 'usr-a'),
  'acct-bbbb': userResource({ email: 'bob@b.example', first_name: 'Bob' }, 'usr-b'),
}

describe('switching the active account on My account', () => {
  it('rebuilds the view for the new account and drops what was typed for the old one', async () => {
    serveUserApi(fake, { 'user.show': (p: ApiPayload) => ({ data: USERS[p.accountId] }) })
    mountWithApp(UserAccountView, { props: { tab: 'security' } })
    await flushPromises()
    expect(byTestId('user-account-who')[0].textContent).toContain('ada@a.example')
    await typeInto('user-password-current', 'typed-for-ada')

    fake.activate('acct-bbbb')
    await flushPromises()
    expect(callsOf(fake, 'user.show').map((c) => c.accountId)).toEqual(['acct-aaaa', 'acct-bbbb'])
    expect(byTestId('user-account-who')[0].textContent).toContain('bob@b.example')
    expect(document.body.textContent).not.toContain('ada@a.example')
    expect(inputOf('user-password-current').value).toBe('')
  })

  it('never shows an answer for the previous account that lands after the switch', async () => {
    const lateA = deferred<unknown>()
    serveUserApi(fake, {
      'user.show': (p: ApiPayload) =>
        p.accountId === 'acct-aaaa' ? lateA.promise : { data: USERS['acct-bbbb'] },
      'user.token_validity': (p: ApiPayload) => ({
        data: {
          valid: true,
          via: p.accountId === 'acct-aaaa' ? 'access_token' : 'session',
          expires_at: null,
        },
      }),
    })
    mountWithApp(UserAccountView, { props: { tab: 'profile' } })
    await flushPromises()
    fake.activate('acct-bbbb')
    await flushPromises()
    lateA.resolve({ data: USERS['acct-aaaa'] })
    await flushPromises()
    expect(inputOf('user-profile-first-name').value).toBe('Bob')
    expect(document.body.textContent).not.toContain('ada@a.example')
  })
})

describe('the permissions tab', () => {
  it('lists each permission of the role in a table', async () => {
    serveUserApi(fake, {
      'user.permissions': () => ({
        data: { role: 'manager', permissions: ['scans.run', 'exceptions.approve', 'impersonate'] },
      }),
    })
    mountWithApp(UserAccountView, { props: { tab: 'permissions' } })
    await flushPromises()
    expect(byTestId('user-permissions-role')[0].textContent).toContain('manager')
    const table = byTestId('user-permissions-table')[0].textContent!
    for (const text of ['scans.run', 'exceptions.approve', 'impersonate', 'approve'])
      expect(table).toContain(text)
  })
})
