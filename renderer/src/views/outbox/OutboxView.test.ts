import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import type { OutboxItem } from '@contract/offline'
import { byTestId, click, theTestId } from '@/test/dom'
import { twoAccounts, useFakeApp } from '@/test/fakeApp'
import { outboxItem } from '@/test/fixtures'
import { mountRouted, type Routed } from '@/test/routed'
import OutboxView from './OutboxView.vue'

let items: OutboxItem[] = []
const fake = useFakeApp({
  accounts: twoAccounts,
  store: 'app',
  setup: (fake) => {
    fake.handle('outbox.list', () => items)
    fake.handle('api.call', () => ({
      data: { data: { id: 'org-1', attributes: { name: 'Acme' } } },
      fetchedAt: '',
      fromCache: false,
    }))
  },
})
let screen: Routed | null = null
afterEach(() => {
  screen?.unmount()
  screen = null
  items = []
})

const calls = (channel: string) =>
  fake.calls.filter((c) => c.channel === channel).map((c) => c.payload)

async function open(): Promise<void> {
  screen = await mountRouted(OutboxView, {
    path: '/outbox',
    routes: [{ path: '/outbox', component: OutboxView }],
  })
}

describe('the outbox', () => {
  it('explains what it is when nothing waits', async () => {
    await open()
    expect(calls('outbox.list')).toContainEqual({ accountId: 'acct-aaaa' })
    expect(theTestId('outbox-empty').textContent).toContain('Nothing is waiting to be sent.')
    expect(document.body.textContent).toContain(
      'Writes made while offline that are safe to send later, such as marking notifications read, wait here and are sent in order when the service is back.',
    )
  })

  it('lists the items with their state, the refusal and the attempts', async () => {
    items = [
      outboxItem('item-0001', { summary: 'Mark a notification read', target: 'ntf-1' }),
      outboxItem('item-0002', {
        summary: 'Mark all notifications read',
        target: null,
        state: 'failed',
        attempts: 3,
        error: { code: 'CONFLICT', message: 'The notification is gone.' },
      }),
    ]
    await open()
    expect(byTestId('outbox-summary').map((e) => e.textContent)).toEqual([
      'Mark a notification read',
      'Mark all notifications read',
    ])
    expect(byTestId('outbox-state').map((e) => e.textContent?.trim())).toEqual([
      'Queued',
      'Refused',
    ])
    expect(theTestId('outbox-error').textContent?.trim()).toBe('The notification is gone.')
    const rows = theTestId('outbox-table').querySelectorAll('tbody tr')
    expect(rows[1].textContent).toContain('All')
    expect(rows[1].textContent).toContain('3')
  })

  it('sends an item now', async () => {
    items = [outboxItem('item-0001')]
    await open()
    await click('outbox-send')
    expect(calls('outbox.retry')).toEqual([{ id: 'item-0001' }])
  })

  it('discards an item only after a confirmation naming it', async () => {
    items = [outboxItem('item-0001', { summary: 'Mark a notification read', target: 'ntf-7' })]
    await open()
    await click('outbox-discard')
    expect(theTestId('outbox-discard-confirm-text').textContent).toContain(
      'Discard “Mark a notification read” for ntf-7?',
    )
    await click('outbox-discard-confirm')
    expect(calls('outbox.discard')).toEqual([{ id: 'item-0001' }])
    expect(theTestId('outbox-empty')).toBeTruthy()
  })

  it('shows what main reports after a change', async () => {
    await open()
    items = [outboxItem('item-0001')]
    fake.emit('outbox.changed', { accountId: 'acct-aaaa', queued: 1, failed: 0 })
    await flushPromises()
    expect(byTestId('outbox-summary')).toHaveLength(1)
  })
})
