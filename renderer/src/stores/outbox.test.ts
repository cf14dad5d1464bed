import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { twoAccounts, useFakeApp } from '@/test/fakeApp'
import { outboxItem } from '@/test/fixtures'
import { useAppStore } from './app'
import { useOutboxStore } from './outbox'

const fake = useFakeApp({ accounts: twoAccounts, switchable: true, store: 'app' })
const listed = () => fake.calls.filter((c) => c.channel === 'outbox.list').map((c) => c.payload)

describe('the outbox of this window’s account', () => {
  it('lists the account’s items and counts the queued and refused ones', async () => {
    fake.handle('outbox.list', (p: { accountId: string }) => [
      outboxItem('item-0001', { accountId: p.accountId }),
      outboxItem('item-0002', { accountId: p.accountId, state: 'sending' }),
      outboxItem('item-0003', { accountId: p.accountId, state: 'failed' }),
    ])
    const outbox = useOutboxStore()
    await flushPromises()
    expect(listed()).toEqual([{ accountId: 'acct-aaaa' }])
    expect(outbox.items).toHaveLength(3)
    expect(outbox.count).toBe(2)
  })

  it('loads again when main says this account’s outbox changed, or the account changes', async () => {
    useOutboxStore()
    await flushPromises()
    fake.emit('outbox.changed', { accountId: 'acct-bbbb', queued: 1, failed: 0 })
    fake.emit('outbox.changed', { accountId: 'acct-aaaa', queued: 1, failed: 0 })
    await useAppStore().switchTo('acct-bbbb')
    await flushPromises()
    expect(listed()).toEqual([
      { accountId: 'acct-aaaa' },
      { accountId: 'acct-aaaa' },
      { accountId: 'acct-bbbb' },
    ])
  })

  it('sends and discards items by id', async () => {
    fake.handle('outbox.list', () => [outboxItem('item-0001'), outboxItem('item-0002')])
    fake.handle('outbox.retry', () => [outboxItem('item-0002', { state: 'sending' })])
    const outbox = useOutboxStore()
    await flushPromises()
    await outbox.retry('item-0001')
    expect(outbox.items.map((i) => i.id)).toEqual(['item-0002'])
    await outbox.discard('item-0002')
    expect(outbox.items).toEqual([])
    expect(fake.calls.filter((c) => c.channel === 'outbox.discard')[0].payload).toEqual({
      id: 'item-0002',
    })
  })
})
