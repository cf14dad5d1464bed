import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { theTestId } from '@/test/dom'
import { useFakeApp } from '@/test/fakeApp'
import { mountWithApp } from '@/test/mountApp'
import { recordRouter } from '@/test/routed'
import ExceptionsView from './ExceptionsView.vue'

const fake = useFakeApp()
afterEach(() => vi.useRealTimers())

type Call = { op: string; input: { query?: Record<string, unknown> } }
const answer = (data: unknown) => ({ data, fetchedAt: '2030-01-01T00:00:00Z', fromCache: false })
const DAY = 86_400_000

function exception(id: string, state: string, expiresInMs: number) {
  return {
    id,
    type: 'exception',
    attributes: {
      vulnerability_id: 'vul-1',
      host_id: 'hst-1',
      kind: 'accepted_risk',
      reason: 'Accepted',
      state,
      expires_at: new Date(Date.now() + expiresInMs).toISOString(),
      vulnerability_title: `Finding ${id}`,
      severity: 'high',
      host_ip: '192.0.2.1',
    },
  }
}

async function mountAt(path: string) {
  const router = recordRouter([
    { path: '/exceptions', name: 'exceptions', component: ExceptionsView },
  ])
  await router.push(path)
  mountWithApp(
    { template: '<router-view />' },
    {
      global: { plugins: [router], stubs: { Echarts: true } },
    },
  )
  await flushPromises()
}

function serve() {
  fake.handle('api.call', (p: Call) => {
    if (p.op === 'exceptions.statistics')
      return answer({
        data: {
          total: 4,
          by_state: { pending: 1, active: 2, expired: 1 },
          by_kind: { accepted_risk: 3, false_positive: 1 },
          expiring_soon: 1,
        },
      })
    if (p.op === 'exceptions.list')
      return answer({
        data: [
          exception('exc-1', 'active', 3 * DAY),
          exception('exc-2', 'pending', 90 * DAY),
          exception('exc-3', 'expired', -DAY),
        ],
        meta: { pagination: { total_count: 3 } },
      })
    if (p.op === 'user.permissions') return answer({ data: { permissions: [] } })
    return answer({ data: [], meta: { pagination: { total_count: 0 } } })
  })
}
const rowOf = (id: string) =>
  document.querySelector(`[data-testid="resource-row"][data-id="${id}"]`)!.closest('tr')!

describe('the exceptions screen', () => {
  it('labels the rows that expire soon in words, not only in colour', async () => {
    serve()
    await mountAt('/exceptions')
    await vi.waitFor(() => rowOf('exc-1'), { timeout: 5_000 })
    const labelOf = (id: string) =>
      rowOf(id).querySelector('[data-testid="exception-expiring"]')?.textContent?.trim() ?? null
    expect(labelOf('exc-1')).toBe('Expires in 3 days')
    expect(labelOf('exc-2')).toBeNull()
    expect(labelOf('exc-3')).toBeNull()
  })

  it('shows the statistics as charts with their numbers, and the expiring-soon count', async () => {
    serve()
    await mountAt('/exceptions')
    const table = await vi.waitFor(() => theTestId('exception-state-chart-table'), {
      timeout: 5_000,
    })
    const rows = [...table.querySelectorAll('tbody tr')].map((tr) => [
      tr.querySelector('th')?.textContent?.trim(),
      tr.querySelector('td')?.textContent?.trim(),
      tr.querySelector('a')?.getAttribute('href'),
    ])
    expect(rows).toEqual([
      ['Active', '2', '/exceptions?state=active'],
      ['Pending', '1', '/exceptions?state=pending'],
      ['Expired', '1', '/exceptions?state=expired'],
    ])
    expect(theTestId('exception-expiring-soon').textContent?.replace(/\s+/g, ' ').trim()).toBe(
      '1 active exception expires within 30 days.',
    )
  })

  it('starts filtered as the address says (a bar of the chart)', async () => {
    serve()
    await mountAt('/exceptions?state=pending&unknown=x')
    await vi.waitFor(() => rowOf('exc-1'), { timeout: 5_000 })
    const list = fake.calls
      .filter((c) => c.channel === 'api.call')
      .map((c) => c.payload as Call)
      .find((c) => c.op === 'exceptions.list')!
    expect(list.input.query).toMatchObject({ state: 'pending' })
    expect(list.input.query).not.toHaveProperty('unknown')
  })
})
