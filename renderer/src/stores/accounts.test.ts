import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { deferred, Fail, installFakeScandesk, type FakeScandesk } from '@/test/fakeScandesk'
import { account } from '@/test/fixtures'
import { useAccountsStore } from './accounts'

let fake: FakeScandesk

beforeEach(() => {
  fake = installFakeScandesk()
  setActivePinia(createPinia())
})
afterEach(() => {
  delete window.scandesk
})

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

describe('adding an account', () => {
  it('makes the new account active', async () => {
    fake.handle('accounts.add', () => account('acct-new1', { label: 'Prod' }))
    fake.handle('accounts.setActive', (p: { accountId: string }) => ({
      accounts: [account('acct-new1', { label: 'Prod' })],
      activeId: p.accountId,
    }))
    const store = useAccountsStore()
    const result = await store.add({
      label: 'Prod',
      baseUrl: 'https://scanner.example.com',
      apiKey: 'k',
      username: 'u',
      password: 'p',
      release: 'latest',
      color: '#112233',
    })
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
    const result = await store.add({
      label: 'Prod',
      baseUrl: 'https://scanner.example.com',
      apiKey: 'k',
      username: 'u',
      password: 'bad',
      release: 'latest',
      color: '#112233',
    })
    expect(result).toEqual({
      ok: false,
      error: { code: 'UNAUTHORIZED', message: 'The password is wrong.' },
    })
    expect(store.accounts).toEqual([])
    expect(fake.calls.some((c) => c.channel === 'accounts.setActive')).toBe(false)
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
