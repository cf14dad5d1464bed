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
const fake = useFakeApp({
  store: 'app',
  setup: (fake) => fake.handle('outbox.list', () => items),
})
let wrapper: ReturnType<typeof mountWithApp> | null = null
afterEach(() => {
  wrapper?.unmount()
  wrapper = null
  items = []
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
