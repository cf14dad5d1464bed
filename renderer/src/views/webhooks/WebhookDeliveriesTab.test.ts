import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it } from 'vitest'
import { resourceByKey } from '@/resources'
import { byTestId, theTestId } from '@/test/dom'
import { useFakeApp } from '@/test/fakeApp'
import { mountWithApp } from '@/test/mountApp'
import { recordRouter } from '@/test/routed'
import WebhookDeliveriesTab from './WebhookDeliveriesTab.vue'

type Call = { op: string; input: { path?: Record<string, string> } }
const answer = (data: unknown) => ({ data, fetchedAt: '2030-01-01T00:00:00Z', fromCache: false })
const delivery = (id: string, status: 'failed' | 'succeeded') => ({
  id,
  type: 'webhook_delivery',
  attributes: {
    webhook_id: 'whk-1',
    event: 'scan.completed',
    status,
    response_status: status === 'failed' ? 500 : 200,
    duration_ms: 120,
    attempt: 1,
    delivered_at: '2030-01-01T00:00:00Z',
  },
})
const ROWS = [delivery('dlv-1', 'failed'), delivery('dlv-2', 'succeeded')]

useFakeApp({
  setup: (fake) => {
    fake.handle('api.cancel', () => ({ cancelled: true }))
    fake.handle('api.call', (p: Call) => {
      if (p.op === 'user.permissions')
        return answer({ data: { permissions: ['webhooks.read', 'webhooks.write'] } })
      if (p.op === 'webhooks.deliveries') return answer({ data: ROWS, meta: {} })
      if (p.op === 'webhooks.delivery')
        return answer({ data: ROWS.find((r) => r.id === p.input.path?.delivery_id) })
      throw new Error(`unexpected ${p.op}`)
    })
  },
})
afterEach(() => {
  document.body.innerHTML = ''
})

async function openDelivery(id: string): Promise<void> {
  const row = byTestId('resource-row').find((r) => r.dataset.id === id)!
  row.closest('tr')!.querySelector<HTMLElement>('[data-testid="resource-open"]')!.click()
  await flushPromises()
}

describe('a webhook’s deliveries', () => {
  it('says above them that the interface has no redelivery, and so in a failed one’s details', async () => {
    const router = recordRouter()
    mountWithApp(WebhookDeliveriesTab, {
      props: { resource: resourceByKey('webhook_deliveries')!, id: 'whk-1' },
      global: { plugins: [router] },
    })
    await flushPromises()
    expect(theTestId('webhook-no-redelivery').textContent).toMatch(
      /interface \(v2\) .* has no operation to send one again/,
    )
    await openDelivery('dlv-1')
    expect(theTestId('row-drawer').textContent).toContain('500')
    expect(theTestId('row-note').textContent).toMatch(/cannot be sent again .* no redelivery/)
    await openDelivery('dlv-2')
    expect(theTestId('row-drawer').textContent).toContain('200')
    expect(byTestId('row-note')).toHaveLength(0)
  })
})
