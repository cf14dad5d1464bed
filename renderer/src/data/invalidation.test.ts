import { useQueryCache } from '@pinia/colada'
import { flushPromises } from '@vue/test-utils'
import { beforeEach, describe, expect, it } from 'vitest'
import {
  apiCalls,
  listAnswer,
  mountComposable,
  switchAccount,
  useTwoAccounts,
} from '@/test/composables'
import { account } from '@/test/fixtures'
import { useInvalidation } from './invalidation'
import { catalog, type OperationId } from '@contract/catalog'
import { accountKey, groupKey, groupOf, operationKey, parseKey } from './keys'
import { useOperation } from './useOperation'

const fake = useTwoAccounts()
beforeEach(() => fake.handle('api.call', (p: { op: string }) => listAnswer(p.op, 1)))

const callsFor = (op: string) => apiCalls(fake).filter((c) => c.op === op)

describe('query keys', () => {
  it('run from the account to the group, the operation and the input', () => {
    const key = operationKey('acct-aaaa', 'scans.hosts', {
      path: { id: 'scn-1' },
      query: { search: '', page: 2 },
    })
    expect(key).toEqual([
      'op',
      'acct-aaaa',
      'scans',
      'scans.hosts',
      { path: { id: 'scn-1' }, query: { page: 2 } },
    ])
    expect(key.slice(0, 3)).toEqual(groupKey('acct-aaaa', 'scans'))
    expect(key.slice(0, 2)).toEqual(accountKey('acct-aaaa'))
    expect(parseKey(key)).toEqual({
      accountId: 'acct-aaaa',
      group: 'scans',
      op: 'scans.hosts',
      input: { path: { id: 'scn-1' }, query: { page: 2 } },
    })
  })

  it('are told apart from other entries', () => {
    expect(parseKey(['other', 'acct-aaaa', 'scans', 'scans.list', {}])).toBeNull()
    expect(parseKey(['op', 'acct-aaaa', 'scans', 'no.such_op', {}])).toBeNull()
    expect(parseKey(['op', 'acct-aaaa', 'targets', 'scans.list', {}])).toBeNull()
  })

  it("name each operation's group as the catalog does, without loading it", () => {
    for (const [op, def] of Object.entries(catalog))
      expect(groupOf(op as OperationId), op).toBe(def.group)
  })
})

describe('a write invalidating its groups', () => {
  it('asks again the reads of those groups for that account, and only those', async () => {
    mountComposable(() => useOperation('targets.list', {}))
    mountComposable(() => useOperation('targets.show', { path: { id: 'tgt-1' } }))
    mountComposable(() => useOperation('scans.list', {}))
    const { result: invalidate } = mountComposable(() => useInvalidation())
    await flushPromises()
    await invalidate('acct-aaaa', ['targets', 'targets'])
    await flushPromises()
    expect(callsFor('targets.list')).toHaveLength(2)
    expect(callsFor('targets.show')).toHaveLength(2)
    expect(callsFor('scans.list')).toHaveLength(1)
  })

  it('leaves another account’s reads of the same group fresh', async () => {
    const { result: cache } = mountComposable(() => useQueryCache())
    mountComposable(() => useOperation('targets.list', {}))
    const { result: invalidate } = mountComposable(() => useInvalidation())
    await flushPromises()
    await switchAccount('acct-bbbb')
    await invalidate('acct-bbbb', ['targets'])
    await flushPromises()
    expect(cache.get(operationKey('acct-aaaa', 'targets.list', {}))?.stale).toBe(false)
    expect(cache.get(operationKey('acct-bbbb', 'targets.list', {}))?.stale).toBe(false)
    await invalidate('acct-aaaa', ['targets'])
    expect(cache.get(operationKey('acct-aaaa', 'targets.list', {}))?.stale).toBe(true)
    expect(callsFor('targets.list').map((c) => c.accountId)).toEqual([
      'acct-aaaa',
      'acct-bbbb',
      'acct-bbbb',
    ])
  })
})

describe('removing an account', () => {
  it('drops every entry of that account from memory and keeps the others', async () => {
    const { result: cache } = mountComposable(() => useQueryCache())
    mountComposable(() => useOperation('targets.list', {}))
    mountComposable(() => useOperation('scans.list', {}))
    await flushPromises()
    await switchAccount('acct-bbbb')
    expect(cache.getEntries({ key: accountKey('acct-aaaa') })).toHaveLength(2)
    fake.emit('accounts.changed', { accounts: [account('acct-bbbb')], activeId: 'acct-bbbb' })
    await flushPromises()
    expect(cache.getEntries({ key: accountKey('acct-aaaa') })).toHaveLength(0)
    expect(cache.getEntries({ key: accountKey('acct-bbbb') })).toHaveLength(2)
  })
})
