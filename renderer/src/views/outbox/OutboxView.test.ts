import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import type { OutboxItem } from '@contract/offline'
import { byTestId, click, theTestId } from '@/test/dom'
import { Fail } from '@/test/fakeScandesk'
import { twoAccounts, useFakeApp } from '@/test/fakeApp'
import { outboxItem } from '@/test/fixtures'
import { mountRouted, type Routed } from '@/test/routed'
import OutboxView from './OutboxView.vue'

let items: OutboxItem[] = []
const TITLES: Record<string, string> = { 'ntf-1': 'Scan finished', 'ntf-7': 'Report ready' }
const fake = useFakeApp({
  accounts: twoAccounts,
  store: 'app',
  setup: (fake) => {
    fake.handle('outbox.list', () => items)
    // The notifications a service holds, answered to the names' batch (`ids`) as a list.
    fake.handle('api.call', (p: { op: string; input?: { query?: { ids?: string } } }) =>
      p.op === 'notifications.list'
        ? {
            data: {
              data: (p.input?.query?.ids ?? '')
                .split(',')
                .filter((id) => id in TITLES)
                .map((id) => ({ id, type: 'notification', attributes: { title: TITLES[id] } })),
            },
            fetchedAt: '',
            fromCache: false,
          }
        : new Fail({ code: 'NOT_FOUND', message: 'No such thing.' }),
    )
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
    routes: [
      { path: '/outbox', component: OutboxView },
      {
        path: '/notifications/:id',
        name: 'notifications-detail',
        component: { render: () => null },
      },
    ],
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
    // What the first concerns, by name (read in one batch), linked to its page.
    const concerns = theTestId('outbox-concerns')
    expect(concerns.textContent?.trim()).toBe('Scan finished')
    expect(concerns.matches('a')).toBe(true) // a linked name is its one element
    expect(concerns.getAttribute('href')).toBe('/notifications/ntf-1')
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
      'Discard “Mark a notification read” for “Report ready”?',
    )
    await click('outbox-discard-confirm')
    expect(calls('outbox.discard')).toEqual([{ id: 'item-0001' }])
    expect(theTestId('outbox-empty')).toBeTruthy()
  })

  it('says so next to the id when the record has no name to show', async () => {
    items = [outboxItem('item-0001', { target: 'ntf-9' })]
    await open()
    // not in its batch, and its own read answers 404: gone
    expect(theTestId('outbox-concerns').textContent?.trim()).toBe('ntf-9 (deleted)')
  })

  it('shows what main reports after a change', async () => {
    await open()
    items = [outboxItem('item-0001')]
    fake.emit('outbox.changed', { accountId: 'acct-aaaa', queued: 1, failed: 0 })
    await flushPromises()
    expect(byTestId('outbox-summary')).toHaveLength(1)
  })
})
