import { describe, expect, it } from 'vitest'
import { useFakeBridge } from '@/test/fakeApp'
import { deferred, Fail } from '@/test/fakeScandesk'
import { account } from '@/test/fixtures'
import { useAccountsStore } from './accounts'

const fake = useFakeBridge()

describe('loading accounts', () => {
  it('shares one request between concurrent callers', async () => {
    const answer = deferred<unknown>()
    fake.handle('accounts.list', () => answer.promise)
    const store = useAccountsStore()
    const a = store.load()
    const b = store.load()
    await Promise.resolve()
    expect(fake.calls.filter((c) => c.channel === 'accounts.list')).toHaveLength(1)
    answer.resolve({ accounts: [account('acct-aaaa')], activeId: 'acct-aaaa' })
    await Promise.all([a, b])
    expect(fake.calls.filter((c) => c.channel === 'accounts.list')).toHaveLength(1)
    expect(store.active?.id).toBe('acct-aaaa')
  })

  it('follows accounts.changed pushed by main', async () => {
    const store = useAccountsStore()
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa'), account('acct-bbbb')],
      activeId: 'acct-bbbb',
    })
    expect(store.accounts.map((a) => a.id)).toEqual(['acct-aaaa', 'acct-bbbb'])
    expect(store.activeId).toBe('acct-bbbb')
  })
})

const prod = () => account('acct-new1', { label: 'Prod' })

/** Main makes the added account acct-new1 (Prod) the only and active one. */
function answerSetActiveWithProd(): void {
  fake.handle('accounts.setActive', (p: { accountId: string }) => ({
    accounts: [prod()],
    activeId: p.accountId,
  }))
}

/** What the add-account form sends for a Prod account. */
const addInput = (username: string, password: string) => ({
  label: 'Prod',
  baseUrl: 'https://scanner.example.com',
  apiKey: 'k',
  username,
  password,
  release: 'latest' as const,
  color: '#112233',
})

describe('adding an account', () => {
  it('makes the new account active', async () => {
    fake.handle('accounts.add', () => ({
      status: 'signedIn',
      account: prod(),
    }))
    answerSetActiveWithProd()
    const store = useAccountsStore()
    const result = await store.add(addInput('u', 'p'))
    expect(result.ok).toBe(true)
    expect(store.activeId).toBe('acct-new1')
    expect(store.active?.label).toBe('Prod')
  })

  it('returns the server error and changes nothing', async () => {
    fake.handle(
      'accounts.add',
      () => new Fail({ code: 'UNAUTHORIZED', message: 'The password is wrong.' }),
    )
    const store = useAccountsStore()
    const result = await store.add(addInput('u', 'bad'))
    expect(result).toEqual({
      ok: false,
      error: { code: 'UNAUTHORIZED', message: 'The password is wrong.' },
    })
    expect(store.accounts).toEqual([])
    expect(fake.calls.some((c) => c.channel === 'accounts.setActive')).toBe(false)
  })
})

describe('a sign-in that needs a second factor', () => {
  const challenge = {
    challengeId: 'chal-0000000000000001',
    accountId: null,
    label: 'Prod',
    username: 'admin@example.com',
    methods: ['app'],
    defaultMethod: 'app',
    expiresAt: '2030-01-01T00:05:00Z',
    phoneHint: null,
    smsResendAt: null,
  }

  it('adds nothing until the code is accepted, then adds the account and makes it active', async () => {
    fake.handle('accounts.add', () => ({ status: 'challenge', challenge }))
    fake.handle('accounts.secondFactor', () => ({
      status: 'signedIn',
      account: prod(),
    }))
    answerSetActiveWithProd()
    const store = useAccountsStore()
    const first = await store.add(addInput('admin@example.com', 'p'))
    expect(first.ok && first.data.status).toBe('challenge')
    expect(store.accounts).toEqual([])
    expect(fake.calls.some((c) => c.channel === 'accounts.setActive')).toBe(false)

    await store.secondFactor(
      { challengeId: challenge.challengeId, method: 'app', code: '123456' },
      true,
    )
    expect(store.accounts.map((a) => a.id)).toEqual(['acct-new1'])
    expect(store.activeId).toBe('acct-new1')
  })

  it('signs an existing account in without switching to it', async () => {
    fake.handle('accounts.signIn', (p: { accountId: string }) => ({
      status: 'signedIn',
      account: account(p.accountId, { signedIn: true }),
    }))
    const store = useAccountsStore()
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa'), account('acct-bbbb', { signedIn: false })],
      activeId: 'acct-aaaa',
    })
    await store.signIn('acct-bbbb', 'pw', true)
    expect(fake.calls.at(-1)?.payload).toEqual({
      accountId: 'acct-bbbb',
      password: 'pw',
      remember: true,
    })
    expect(store.accounts.map((a) => a.signedIn)).toEqual([true, true])
    expect(store.activeId).toBe('acct-aaaa')
  })
})

describe('switching accounts', () => {
  it('goes back to the previous account when main refuses', async () => {
    fake.handle('accounts.setActive', () => new Fail({ code: 'UNKNOWN_ACCOUNT', message: 'gone' }))
    const store = useAccountsStore()
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa'), account('acct-bbbb')],
      activeId: 'acct-aaaa',
    })
    const result = await store.setActive('acct-bbbb')
    expect(result.ok).toBe(false)
    expect(store.activeId).toBe('acct-aaaa')
  })

  it('keeps the chosen account while main is asked, whatever list main sent before it', async () => {
    const answer = deferred<unknown>()
    fake.handle('accounts.setActive', () => answer.promise)
    const store = useAccountsStore()
    const both = [account('acct-aaaa'), account('acct-bbbb')]
    fake.emit('accounts.changed', { accounts: both, activeId: 'acct-aaaa', revision: 1 })
    const switching = store.setActive('acct-bbbb')
    // a list main read before the switch (an event on its way) arrives meanwhile
    fake.emit('accounts.changed', { accounts: both, activeId: 'acct-aaaa', revision: 2 })
    expect(store.activeId).toBe('acct-bbbb')
    answer.resolve({ accounts: both, activeId: 'acct-bbbb', revision: 3 })
    await switching
    expect(store.activeId).toBe('acct-bbbb')
  })

  it('does not apply a list main read before the one it already applied', () => {
    const store = useAccountsStore()
    const both = [account('acct-aaaa'), account('acct-bbbb')]
    fake.emit('accounts.changed', { accounts: both, activeId: 'acct-bbbb', revision: 5 })
    fake.emit('accounts.changed', { accounts: [both[0]!], activeId: 'acct-aaaa', revision: 4 })
    expect(store.activeId).toBe('acct-bbbb')
    expect(store.accounts.map((a) => a.id)).toEqual(['acct-aaaa', 'acct-bbbb'])
    fake.emit('accounts.changed', { accounts: [both[0]!], activeId: 'acct-aaaa', revision: 6 })
    expect(store.accounts.map((a) => a.id)).toEqual(['acct-aaaa'])
  })
})

describe('signing out', () => {
  it('updates only that account', async () => {
    fake.handle('accounts.signOut', (p: { accountId: string }) =>
      account(p.accountId, { signedIn: false }),
    )
    const store = useAccountsStore()
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa'), account('acct-bbbb')],
      activeId: 'acct-aaaa',
    })
    await store.signOut('acct-bbbb')
    expect(store.accounts.map((a) => a.signedIn)).toEqual([true, false])
  })
})

describe('the demo service', () => {
  it('starts the demo and makes its account active', async () => {
    const demo = account('acct-demo', { label: 'Demo service', isDemo: true })
    fake.handle('demo.start', () => demo)
    fake.handle('accounts.setActive', () => ({ accounts: [demo], activeId: 'acct-demo' }))
    const store = useAccountsStore()
    expect((await store.startDemo()).ok).toBe(true)
    expect(store.active?.isDemo).toBe(true)
  })
})

describe('account settings', () => {
  it('saves the changes and puts main’s answer into the list', async () => {
    fake.handle('accounts.update', (p: { accountId: string; label: string }) =>
      account(p.accountId, { label: p.label }),
    )
    const store = useAccountsStore()
    fake.emit('accounts.changed', { accounts: [account('acct-aaaa')], activeId: 'acct-aaaa' })
    const result = await store.update({ accountId: 'acct-aaaa', label: 'Staging' })
    expect(result.ok).toBe(true)
    expect(fake.calls.at(-1)).toEqual({
      channel: 'accounts.update',
      payload: { accountId: 'acct-aaaa', label: 'Staging' },
    })
    expect(store.accounts[0]?.label).toBe('Staging')
  })

  it('reloads the accounts after a token is generated or revoked, not checked', async () => {
    const state = { hasToken: true }
    fake.handle('accounts.accessToken', () => state)
    fake.handle('accounts.list', () => ({
      accounts: [account('acct-aaaa')],
      activeId: 'acct-aaaa',
    }))
    const store = useAccountsStore()
    const lists = () => fake.calls.filter((c) => c.channel === 'accounts.list').length
    expect((await store.accessToken('acct-aaaa', 'check')).ok).toBe(true)
    expect(lists()).toBe(0)
    await store.accessToken('acct-aaaa', 'generate')
    expect(lists()).toBe(1)
    expect(fake.calls.find((c) => c.channel === 'accounts.accessToken')?.payload).toEqual({
      accountId: 'acct-aaaa',
      action: 'check',
    })
  })

  it('reloads nothing when main refuses the access token', async () => {
    fake.handle('accounts.accessToken', () => new Fail({ code: 'FORBIDDEN', message: 'no' }))
    const store = useAccountsStore()
    const result = await store.accessToken('acct-aaaa', 'revoke')
    expect(result.ok).toBe(false)
    expect(fake.calls.some((c) => c.channel === 'accounts.list')).toBe(false)
  })
})

describe('acting as another user', () => {
  const acting = { userId: 'usr-005', email: 'analyst@sandbox.test', since: '2030-01-01T10:00:00Z' }

  it('lists the users of the account it is asked for', async () => {
    fake.handle('api.call', () => ({ status: 200, data: { data: [] } }))
    const store = useAccountsStore()
    await store.listUsers('acct-bbbb')
    expect(fake.calls.at(-1)).toEqual({
      channel: 'api.call',
      payload: { accountId: 'acct-bbbb', op: 'users.list', input: { query: { per_page: 100 } } },
    })
  })

  it('starts and stops, taking main’s view of the account each time', async () => {
    fake.handle('accounts.impersonate', (p: { accountId: string }) =>
      account(p.accountId, { impersonating: acting }),
    )
    fake.handle('accounts.stopImpersonation', (p: { accountId: string }) =>
      account(p.accountId, { impersonating: null }),
    )
    const store = useAccountsStore()
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa'), account('acct-bbbb')],
      activeId: 'acct-aaaa',
    })
    await store.impersonate('acct-bbbb', 'usr-005')
    expect(fake.calls.at(-1)?.payload).toEqual({ accountId: 'acct-bbbb', userId: 'usr-005' })
    expect(store.accounts.map((a) => a.impersonating?.email ?? null)).toEqual([
      null,
      'analyst@sandbox.test',
    ])
    await store.stopImpersonation('acct-bbbb')
    expect(store.accounts[1]?.impersonating).toBeNull()
  })

  it('changes nothing when main refuses', async () => {
    fake.handle('accounts.stopImpersonation', () => new Fail({ code: 'INTERNAL', message: 'no' }))
    const store = useAccountsStore()
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa', { impersonating: acting })],
      activeId: 'acct-aaaa',
    })
    expect((await store.stopImpersonation('acct-aaaa')).ok).toBe(false)
    expect(store.accounts[0]?.impersonating?.userId).toBe('usr-005')
  })
})
