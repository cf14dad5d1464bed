import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { listAnswer, mountComposable, switchAccount, useTwoAccounts } from '@/test/composables'
import { deferred } from '@/test/fakeScandesk'
import { useDynamicRecord, useRecord, useRows } from './useRecord'

const fake = useTwoAccounts()

const answer = (data: unknown, fromCache = false) => ({
  data: { data },
  fetchedAt: '2030-01-01T00:00:00.000Z',
  fromCache,
})
const target = (id: string, name: string) => ({
  id,
  type: 'target',
  attributes: { name, address: '192.0.2.1' },
})

describe('reading one record', () => {
  it('hands the screen the record and its attributes, with the read’s state', async () => {
    const held = deferred<unknown>()
    fake.handle('api.call', () => held.promise)
    const { result } = mountComposable(() => useRecord('targets.show', { path: { id: 'tgt-1' } }))
    await flushPromises()
    expect(result.record.value).toBeUndefined()
    expect(result.attributes.value).toBeUndefined()
    expect(result.loading.value).toBe(true)
    held.resolve(answer(target('tgt-1', 'Web shop'), true))
    await flushPromises()
    expect(result.record.value?.id).toBe('tgt-1')
    expect(result.attributes.value?.name).toBe('Web shop')
    expect(result.fromCache.value).toBe(true)
  })

  it('hands over an operation’s own object as it is', async () => {
    fake.handle('api.call', () => answer({ hosts_count: 254 }))
    const { result } = mountComposable(() =>
      useRecord('targets.calculate_hosts', { body: { address: '192.0.2.0/24' } }),
    )
    await flushPromises()
    expect(result.record.value?.hosts_count).toBe(254)
  })

  it('shows only this window’s account’s record after a switch', async () => {
    fake.handle('api.call', (p: { accountId: string }) =>
      answer(target('tgt-1', p.accountId === 'acct-aaaa' ? 'A’s target' : 'B’s target')),
    )
    const { result } = mountComposable(() => useRecord('targets.show', { path: { id: 'tgt-1' } }))
    await flushPromises()
    expect(result.attributes.value?.name).toBe('A’s target')
    await switchAccount('acct-bbbb')
    expect(result.attributes.value?.name).toBe('B’s target')
  })
})

describe('reading a collection', () => {
  it('hands the screen its rows and the total the service counts', async () => {
    fake.handle('api.call', () => listAnswer('T', 2, 30))
    const { result } = mountComposable(() => useRows('targets.list', { query: { per_page: 2 } }))
    expect(result.rows.value).toEqual([])
    await flushPromises()
    expect(result.rows.value.map((r) => r.attributes.name)).toEqual(['T 1', 'T 2'])
    expect(result.total.value).toBe(30)
  })
})

describe('reading an operation chosen at run time', () => {
  it('hands over its record unchecked for the screen to check', async () => {
    fake.handle('api.call', () => answer(target('tgt-9', 'Mail')))
    const { result } = mountComposable(() =>
      useDynamicRecord('targets.show', () => ({ path: { id: 'tgt-9' } })),
    )
    await flushPromises()
    expect(result.record.value).toEqual(target('tgt-9', 'Mail'))
  })
})
