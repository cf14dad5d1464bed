import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { catchAllRouter } from '@/test/composables'
import { theTestId } from '@/test/dom'
import { useFakeApp } from '@/test/fakeApp'
import { outboxItem } from '@/test/fixtures'
import type { OutboxItem } from '@contract/offline'
import { mountWithApp } from '@/test/mountApp'
import AppSidebar from './AppSidebar.vue'

let items: OutboxItem[] = []
let unread = 0
const fake = useFakeApp({
  store: 'app',
  setup: (fake) => {
    fake.handle('outbox.list', () => items)
    fake.handle('api.call', (p: { op: string; input: { query?: Record<string, unknown> } }) =>
      p.op === 'notifications.list' && p.input.query?.read === 'false'
        ? {
            data: { data: [], meta: { unread_count: unread } },
            fetchedAt: '2030-01-01T00:00:00Z',
            fromCache: false,
          }
        : { data: { data: [] }, fetchedAt: '2030-01-01T00:00:00Z', fromCache: false },
    )
  },
})
let wrapper: ReturnType<typeof mountWithApp> | null = null
afterEach(() => {
  wrapper?.unmount()
  wrapper = null
  items = []
  unread = 0
})

async function mountSidebar(): Promise<void> {
  wrapper = mountWithApp(AppSidebar, { global: { plugins: [catchAllRouter()] } })
  await flushPromises()
}

describe('the sidebar’s outbox entry', () => {
  it('counts what waits to be sent or was refused, and follows changes', async () => {
    items = [
      outboxItem('item-0001'),
      outboxItem('item-0002', { state: 'failed' }),
      outboxItem('item-0003', { state: 'sending' }),
    ]
    await mountSidebar()
    expect(theTestId('nav-outbox').textContent).toContain('Outbox')
    expect(theTestId('nav-outbox-count').textContent?.trim()).toBe('2')
    items = []
    fake.emit('outbox.changed', { accountId: 'acct-aaaa', queued: 0, failed: 0 })
    await flushPromises()
    expect(document.querySelector('[data-testid="nav-outbox-count"]')).toBeNull()
  })
})

describe('the sidebar’s notifications entry', () => {
  it('shows the unread count and asks again when main reports new ones for this account', async () => {
    unread = 3
    await mountSidebar()
    const badge = () => document.querySelector('[data-testid="nav-notifications-unread"]')
    expect(badge()?.textContent?.trim()).toBe('3')
    unread = 5
    fake.emit('notifications.arrived', { accountId: 'acct-bbbb', count: 2 })
    await flushPromises()
    expect(badge()?.textContent?.trim()).toBe('3')
    fake.emit('notifications.arrived', { accountId: 'acct-aaaa', count: 2 })
    await flushPromises()
    await new Promise((r) => setTimeout(r, 20))
    await flushPromises()
    expect(badge()?.textContent?.trim()).toBe('5')
    unread = 0
    fake.emit('notifications.arrived', { accountId: 'acct-aaaa', count: 0 })
    await flushPromises()
    await new Promise((r) => setTimeout(r, 20))
    await flushPromises()
    expect(badge()).toBeNull()
  })
})
