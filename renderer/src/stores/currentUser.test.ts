import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { useOperation } from '@/data/useOperation'
import { useOperationCall } from '@/data/useOperationCall'
import { mountComposable } from '@/test/composables'
import { twoAccounts, useFakeApp } from '@/test/fakeApp'
import { deferred } from '@/test/fakeScandesk'
import { callsOf, serveUserApi, userResource, type ApiPayload } from '@/views/user/userTestKit'
import { useCurrentUserStore } from './currentUser'

const fake = useFakeApp({ accounts: twoAccounts })

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
    fake.activate('acct-bbbb')
    expect(store.user).toBeNull()
    expect(store.permissions).toBeNull()
    expect(store.can('scans.run')).toBe(false)
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

    fake.activate('acct-bbbb')
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

  it('forgets a deletion at the service when another account becomes active', async () => {
    serveUserApi(fake)
    const store = useCurrentUserStore()
    await store.load()
    store.markDeleted()
    expect(store.deletedAtService).toBe(true)
    fake.activate('acct-bbbb')
    expect(store.deletedAtService).toBe(false)
  })
})

describe('the store on the data layer', () => {
  it('shares its entries with views: setUser is what a view reading user.show sees', async () => {
    serveUserApi(fake)
    const store = useCurrentUserStore()
    await store.load()
    const { result } = mountComposable(() => useOperation('user.show'))
    await flushPromises()
    expect(callsOf(fake, 'user.show')).toHaveLength(1)
    store.setUser(userResource({ last_name: 'King' }))
    expect(result.data.value?.data.attributes.last_name).toBe('King')
    expect(store.user?.attributes.last_name).toBe('King')
  })

  it('while followed, follows the account and is refreshed by a write to the user group', async () => {
    let lastName = 'Lovelace'
    serveUserApi(fake, {
      'user.show': (p: ApiPayload) => ({
        data: userResource(
          { last_name: lastName },
          p.accountId === 'acct-aaaa' ? 'usr-a' : 'usr-b',
        ),
      }),
      'user.update': () => {
        lastName = 'King'
        return { data: userResource({ last_name: lastName }) }
      },
    })
    const store = useCurrentUserStore()
    const follower = mountComposable(() => store.follow())
    const writer = mountComposable(() => useOperationCall())
    await flushPromises()
    expect(store.user?.id).toBe('usr-a')

    await writer.result.run('user.update', { body: { last_name: 'King' } })
    await flushPromises()
    expect(callsOf(fake, 'user.show')).toHaveLength(2)
    expect(store.user?.attributes.last_name).toBe('King')

    fake.activate('acct-bbbb')
    await flushPromises()
    expect(store.user?.id).toBe('usr-b')
    expect(callsOf(fake, 'user.show')).toHaveLength(3)

    // Nobody shows the user any more: a write marks it stale but asks nothing.
    follower.unmount()
    await writer.result.run('user.update', { body: { last_name: 'King' } })
    await flushPromises()
    expect(callsOf(fake, 'user.show')).toHaveLength(3)
    await store.ensureLoaded()
    expect(callsOf(fake, 'user.show')).toHaveLength(4)
  })

  it('asks nothing more once the user deleted their account, and cancels what is in flight', async () => {
    const held = deferred<unknown>()
    serveUserApi(fake, { 'user.permissions': () => held.promise })
    const store = useCurrentUserStore()
    mountComposable(() => store.follow())
    await flushPromises()
    const pending = callsOf(fake, 'user.permissions')[0]
    store.markDeleted()
    const cancelled = fake.calls.filter((c) => c.channel === 'api.cancel')
    expect(cancelled.map((c) => (c.payload as { requestId: string }).requestId)).toEqual([
      pending.requestId,
    ])
    await store.load()
    expect(callsOf(fake, 'user.show')).toHaveLength(1)
    expect(store.user?.attributes.email).toBe('ada@example.com')

    // Another account's user is asked for at once; nothing more for the deleted one.
    fake.activate('acct-bbbb')
    await flushPromises()
    expect(callsOf(fake, 'user.show').map((c) => c.accountId)).toEqual(['acct-aaaa', 'acct-bbbb'])
    expect(fake.calls.filter((c) => c.channel === 'api.cancel')).toHaveLength(1)
  })
})
