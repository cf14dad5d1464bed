import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { byTestId, countDraws } from '@/test/dom'
import { deferred } from '@/test/fakeScandesk'
import { useFakeApp } from '@/test/fakeApp'
import { mountWithApp } from '@/test/mountApp'
import LightTable from '@/components/kit/table/LightTable.vue'
import VulnerabilitiesView from './VulnerabilitiesView.vue'

const fake = useFakeApp()

type Call = { op: string; input: { query?: Record<string, unknown> } }
const answer = (data: unknown) => ({ data, fetchedAt: '2030-01-01T00:00:00Z', fromCache: false })
const DAY = 86_400_000
const finding = (id: string, age = 10) => ({
  id,
  type: 'vulnerability',
  attributes: {
    title: `Finding ${id}`,
    severity: 'high',
    cvss_score: 7.5,
    first_seen_at: new Date(Date.now() - age * DAY).toISOString(),
    last_seen_at: null,
    host_ip: '192.0.2.1',
    host_id: 'hst-1',
  },
})
// vul-1 is under an exception in force: its clock is paused
const exception = {
  id: 'exc-1',
  type: 'exception',
  attributes: {
    vulnerability_id: 'vul-1',
    state: 'active',
    activated_at: new Date(Date.now() - DAY).toISOString(),
    expires_at: new Date(Date.now() + 30 * DAY).toISOString(),
  },
}

const asked = (op: string) =>
  fake.calls.filter((c) => c.channel === 'api.call' && (c.payload as Call).op === op)

async function mountList(address = '/vulnerabilities') {
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/vulnerabilities', name: 'vulnerabilities', component: VulnerabilitiesView },
      { path: '/hosts/:id', name: 'hosts-detail', component: { render: () => null } },
      { path: '/:rest(.*)*', component: { render: () => null } },
    ],
  })
  await router.push(address)
  const wrapper = mountWithApp({ template: '<router-view />' }, { global: { plugins: [router] } })
  await flushPromises()
  return { router, wrapper }
}

describe('the vulnerabilities list’s due dates', () => {
  it('reads the exceptions only once its rows are on screen, and dates no row before them', async () => {
    const rows = deferred<unknown>()
    const exceptions = deferred<unknown>()
    fake.handle('api.call', (p: Call) => {
      if (p.op === 'vulnerabilities.list') return rows.promise
      if (p.op === 'exceptions.list') return exceptions.promise
      if (p.op === 'user.permissions') return answer({ data: { permissions: [] } })
      return answer({ data: [], meta: { pagination: { total_count: 0 } } })
    })
    fake.handle('api.cancel', () => ({ cancelled: true }))
    await mountList()
    expect(asked('vulnerabilities.list')).toHaveLength(1)
    expect(asked('exceptions.list')).toHaveLength(0)

    rows.resolve(
      answer({
        data: [finding('vul-1'), finding('vul-2')],
        meta: { pagination: { total_count: 2 } },
      }),
    )
    await flushPromises()
    expect(asked('exceptions.list')).toHaveLength(1)
    // until the exceptions are in, no row says a date an exception might pause
    expect(byTestId('row-due').map((el) => el.textContent?.trim())).toEqual(['…', '…'])
    expect(byTestId('row-overdue-pending').map((el) => el.textContent?.trim())).toEqual(['…', '…'])

    exceptions.resolve(answer({ data: [exception], meta: { pagination: { total_count: 1 } } }))
    await flushPromises()
    const due = byTestId('row-due').map((el) => el.textContent?.trim())
    expect(due[0]).toBe('Paused')
    expect(due[1]).toMatch(/\d/)
    expect(byTestId('row-overdue-pending')).toHaveLength(0)
  })
})

describe('the vulnerabilities list’s rows', () => {
  it('are not drawn again when the address moves without changing them', async () => {
    fake.handle('api.call', (p: Call) => {
      if (p.op === 'vulnerabilities.list')
        return answer({
          data: [finding('vul-1'), finding('vul-2')],
          meta: { pagination: { total_count: 2 } },
        })
      if (p.op === 'user.permissions') return answer({ data: { permissions: [] } })
      return answer({ data: [], meta: { pagination: { total_count: 0 } } })
    })
    fake.handle('api.cancel', () => ({ cancelled: true }))
    const { router, wrapper } = await mountList()
    // the host column links each row's host to its page
    expect(wrapper.findAll('a.record-ref__link').map((a) => a.attributes('href'))).toEqual([
      router.resolve({ name: 'hosts-detail', params: { id: 'hst-1' } }).href,
      router.resolve({ name: 'hosts-detail', params: { id: 'hst-1' } }).href,
    ])
    const draws = countDraws(wrapper.findComponent(LightTable))
    // a key the list does not read (another screen's, a saved view's name…)
    await router.replace('/vulnerabilities?unrelated=1')
    await flushPromises()
    expect(draws()).toBe(0)
  })
})

const page = (data: unknown[], total = data.length) =>
  answer({ data, meta: { pagination: { total_count: total } } })
const queryOf = (c: { payload: unknown }) => (c.payload as Call).input.query ?? {}

describe('the Overdue list and exceptions (issue 36 §7)', () => {
  it('leaves out a finding an exception paused, as its Due column would say "Paused"', async () => {
    fake.handle('api.call', (p: Call) => {
      if (p.op === 'exceptions.list') return page([exception])
      if (p.op === 'user.permissions') return answer({ data: { permissions: [] } })
      if (p.op === 'vulnerabilities.list')
        // both overdue by first seen (40 days, high: 30); vul-1 is paused
        return p.input.query?.ids
          ? page([finding('vul-1', 40)])
          : page([finding('vul-1', 40), finding('vul-2', 40)])
      return page([])
    })
    fake.handle('api.cancel', () => ({ cancelled: true }))
    await mountList('/vulnerabilities?severity=high&overdue=true')
    await flushPromises()
    expect(byTestId('resource-row').map((r) => r.dataset.id)).toEqual(['vul-2'])
    expect(byTestId('row-overdue')).toHaveLength(1)
    expect(byTestId('row-due').map((el) => el.textContent?.trim())).not.toContain('Paused')
    expect(byTestId('resource-total')[0].textContent?.trim()).toBe('Total 1')
    expect(byTestId('due-paused-out')[0].textContent).toContain('1 finding of the service')
    // the findings the exceptions hold were asked for by their ids
    expect(asked('vulnerabilities.list').some((c) => queryOf(c).ids === 'vul-1')).toBe(true)
  })

  it('keeps every row without a due filter, the paused one saying so', async () => {
    fake.handle('api.call', (p: Call) => {
      if (p.op === 'exceptions.list') return page([exception])
      if (p.op === 'user.permissions') return answer({ data: { permissions: [] } })
      if (p.op === 'vulnerabilities.list') return page([finding('vul-1', 40), finding('vul-2', 40)])
      return page([])
    })
    fake.handle('api.cancel', () => ({ cancelled: true }))
    await mountList('/vulnerabilities?severity=high')
    await flushPromises()
    expect(byTestId('resource-row').map((r) => r.dataset.id)).toEqual(['vul-1', 'vul-2'])
    expect(byTestId('row-due')[0].textContent?.trim()).toBe('Paused')
    expect(byTestId('resource-total')[0].textContent?.trim()).toBe('Total 2')
  })
})

describe('a list opened from a count (issue 36 §2)', () => {
  const after = '2026-11-25T00:00:00.000Z'
  const at = '2026-12-02T10:02:00.000Z'
  const address = `/vulnerabilities?severity=critical&first_seen_after=${after}&first_seen_before=${at}&counted=8&counted_at=${at}`

  it('asks the count’s own bounds and says when it holds another number now', async () => {
    const total = 10
    fake.handle('api.call', (p: Call) => {
      if (p.op === 'user.permissions') return answer({ data: { permissions: [] } })
      if (p.op === 'vulnerabilities.list')
        return page([finding('vul-1')], p.input.query?.severity === 'critical' ? total : 3)
      return page([])
    })
    fake.handle('api.cancel', () => ({ cancelled: true }))
    const { router } = await mountList(address)
    const list = asked('vulnerabilities.list')
      .map(queryOf)
      .find((q) => !q.ids)!
    expect(list).toMatchObject({
      severity: 'critical',
      first_seen_after: after,
      first_seen_before: at,
    })
    expect(byTestId('first-seen-before')[0].textContent).toContain('First seen before')
    expect(byTestId('counted-moved')[0].textContent).toMatch(/^\s*10 now, 8 when counted \(/)

    // another filter: the count says nothing about that list, and leaves the address
    await router.replace(address.replace('severity=critical', 'severity=high'))
    await flushPromises()
    await flushPromises()
    expect(router.currentRoute.value.query.counted).toBeUndefined()
    expect(byTestId('counted-moved')).toHaveLength(0)
  })

  it('says nothing more when the list holds what was counted', async () => {
    fake.handle('api.call', (p: Call) => {
      if (p.op === 'user.permissions') return answer({ data: { permissions: [] } })
      if (p.op === 'vulnerabilities.list') return page([finding('vul-1')], 8)
      return page([])
    })
    fake.handle('api.cancel', () => ({ cancelled: true }))
    await mountList(address)
    expect(byTestId('resource-total')[0].textContent?.trim()).toBe('Total 8')
    expect(byTestId('counted-moved')).toHaveLength(0)
  })
})
