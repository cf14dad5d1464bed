import { flushPromises } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { deferred, installFakeScandesk, type FakeScandesk } from '@/test/fakeScandesk'
import { account } from '@/test/fixtures'
import { callsOf, serveUserApi, userResource, type ApiPayload } from '@/views/user/userTestKit'
import { useAccountsStore } from './accounts'
import { useCurrentUserStore } from './currentUser'

let fake: FakeScandesk

function activate(activeId: string): void {
  fake.emit('accounts.changed', {
    accounts: [account('acct-aaaa'), account('acct-bbbb')],
    activeId,
  })
}

beforeEach(() => {
  fake = installFakeScandesk()
  setActivePinia(createPinia())
  useAccountsStore()
  activate('acct-aaaa')
})
afterEach(() => {
  delete window.scandesk
})

describe('the current user', () => {
  it("loads the active account's profile and permissions and answers can()", async () => {
    serveUserApi(fake)
    const store = useCurrentUserStore()
    await store.load()
    expect(callsOf(fake, 'user.show')[0].accountId).toBe('acct-aaaa')
    expect(store.user?.attributes.email).toBe('ada@example.com')
    expect(store.can('scans.run')).toBe(true)
    expect(store.can('users.delete')).toBe(false)
  })

  it('knows no permission before the permissions are loaded or when they failed', async () => {
    serveUserApi(fake, {
      'user.permissions': () => ({ data: { role: 'analyst', permissions: [] } }),
    })
    const store = useCurrentUserStore()
    expect(store.can('scans.read')).toBe(false)
    await store.load()
    expect(store.can('scans.read')).toBe(false)
  })

  it('shares one request between concurrent loads', async () => {
    serveUserApi(fake)
    const store = useCurrentUserStore()
    await Promise.all([store.load(), store.load(), store.ensureLoaded()])
    expect(callsOf(fake, 'user.show')).toHaveLength(1)
    await store.ensureLoaded()
    expect(callsOf(fake, 'user.show')).toHaveLength(1)
  })
})

describe('switching the active account', () => {
  it("forgets the previous account's user and permissions at once", async () => {
    serveUserApi(fake)
    const store = useCurrentUserStore()
    await store.load()
    const before = store.epoch
    activate('acct-bbbb')
    expect(store.user).toBeNull()
    expect(store.permissions).toBeNull()
    expect(store.can('scans.run')).toBe(false)
    expect(store.epoch).toBe(before + 1)
  })

  it('drops an answer for the previous account and cancels its pending reads', async () => {
    const late = deferred<unknown>()
    serveUserApi(fake, {
      'user.show': (p: ApiPayload) =>
        p.accountId === 'acct-aaaa'
          ? late.promise
          : { data: userResource({ email: 'bob@example.com' }, 'usr-002') },
    })
    const store = useCurrentUserStore()
    const first = store.load()
    await flushPromises()
    const pending = callsOf(fake, 'user.show')[0]

    activate('acct-bbbb')
    const cancelled = fake.calls.filter((c) => c.channel === 'api.cancel')
    expect(cancelled.map((c) => (c.payload as { requestId: string }).requestId)).toContain(
      pending.requestId,
    )
    await store.load()
    expect(store.user?.attributes.email).toBe('bob@example.com')

    late.resolve({ data: userResource({ email: 'ada@example.com' }) })
    await first
    await flushPromises()
    expect(store.user?.attributes.email).toBe('bob@example.com')
  })

  it('resolves call() to null when the account changed before the answer came', async () => {
    const late = deferred<unknown>()
    serveUserApi(fake, { 'user.update': () => late.promise })
    const store = useCurrentUserStore()
    const pending = store.call('user.update', { body: { first_name: 'Ada' } })
    await flushPromises()
    activate('acct-bbbb')
    late.resolve({ data: userResource() })
    expect(await pending).toBeNull()
    // A write is not cancelled: it may already have reached the service.
    expect(fake.calls.some((c) => c.channel === 'api.cancel')).toBe(false)
  })
})
