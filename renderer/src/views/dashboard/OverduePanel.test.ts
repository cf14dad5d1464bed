import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { DAY_MS } from '@contract/remediation'
import { dueFilterOf, dueFilterWords } from '@/composables/dueDates'
import { byTestId } from '@/test/dom'
import { useFakeApp } from '@/test/fakeApp'
import { mountWithApp } from '@/test/mountApp'
import OverduePanel from './OverduePanel.vue'
import { panelRouter } from './panelTestKit'

const fake = useFakeApp()
afterEach(() => vi.useRealTimers())

const NOW = Date.parse('2030-03-01T12:00:00.000Z')
const policy = { critical: 10, high: 30, medium: null, low: 180 }
const totals: Record<string, number> = { critical: 4, high: 0, low: 2 }

type ListCall = { op: string; input: { query: Record<string, unknown> } }
const listCalls = () =>
  fake.calls
    .filter((c) => c.channel === 'api.call')
    .map((c) => c.payload as ListCall)
    .filter((p) => p.op === 'vulnerabilities.list')

describe('the Overdue panel', () => {
  it('asks one count per severity with days, by first seen, and links each to its list', async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] })
    fake.handle('remediation.get', () => ({ policy, notify: false, saved: true, savedAt: null }))
    fake.handle('api.call', (p: ListCall) => ({
      data: {
        data: [],
        meta: { pagination: { total_count: totals[String(p.input.query.severity)] ?? 0 } },
      },
      fetchedAt: new Date(NOW).toISOString(),
      fromCache: false,
    }))
    mountWithApp(OverduePanel, { global: { plugins: [panelRouter()] } })
    await flushPromises()
    await flushPromises()

    const calls = listCalls()
    expect(calls.map((c) => c.input.query.severity).sort()).toEqual(['critical', 'high', 'low'])
    for (const c of calls) {
      const days = policy[c.input.query.severity as 'critical' | 'high' | 'low']
      expect(c.input.query.first_seen_before).toBe(new Date(NOW - days * DAY_MS).toISOString())
      expect(c.input.query.per_page).toBe(1)
    }
    const critical = byTestId<HTMLAnchorElement>('overdue-link-critical')[0]
    expect(critical.textContent).toContain('4 overdue')
    // the list it opens, with the count and the minute it was counted at
    const minute = new Date(Math.floor(NOW / 60_000) * 60_000).toISOString()
    expect(critical.getAttribute('href')).toBe(
      `/vulnerabilities?severity=critical&overdue=true&counted=4&counted_at=${minute}`,
    )
    expect(byTestId('overdue-link-high')[0].textContent).toContain('0 overdue')
    // No days for medium: nothing asked, nothing to count.
    expect(byTestId('overdue-row-medium')[0].textContent).toContain('no due date')
    expect(byTestId('overdue-link-medium')).toHaveLength(0)
    expect(byTestId('overdue-panel')[0].textContent).toContain("ScanDesk's due dates")
  })
})

describe('the Overdue panel and exceptions (issue 36 §7)', () => {
  it('leaves out of its counts the findings an exception paused, as the list does', async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] })
    fake.handle('remediation.get', () => ({ policy, notify: false, saved: true, savedAt: null }))
    const iso = (t: number) => new Date(t).toISOString()
    const exception = (id: string, vulnerability_id: string, state: string) => ({
      id,
      attributes: {
        vulnerability_id,
        host_id: 'hst-1',
        kind: 'accepted_risk',
        reason: 'Accepted',
        state,
        activated_at: state === 'pending' ? null : iso(NOW - 5 * DAY_MS),
        expires_at: iso(NOW + 30 * DAY_MS),
      },
    })
    const finding = (id: string, severity: string, age: number) => ({
      id,
      attributes: { severity, first_seen_at: iso(NOW - age * DAY_MS), title: id },
    })
    const rows = (data: unknown[], total = data.length) => ({
      data: { data, meta: { pagination: { total_count: total } } },
      fetchedAt: iso(NOW),
      fromCache: false,
    })
    fake.handle('api.call', (p: ListCall) => {
      if (p.op === 'exceptions.list')
        return rows([
          exception('exc-1', 'vul-1', 'active'),
          exception('exc-2', 'vul-2', 'active'),
          exception('exc-3', 'vul-3', 'pending'),
        ])
      if (p.input.query.ids)
        // vul-1 overdue by first seen and paused; vul-2 paused but not overdue by first seen
        return rows([finding('vul-1', 'critical', 40), finding('vul-2', 'critical', 2)])
      return rows([], totals[String(p.input.query.severity)] ?? 0)
    })
    mountWithApp(OverduePanel, { global: { plugins: [panelRouter()] } })
    await flushPromises()
    await flushPromises()
    await flushPromises()
    // the pending exception does not stop a clock: its finding is not even asked for
    expect(listCalls().find((c) => c.input.query.ids)?.input.query.ids).toBe('vul-1,vul-2')
    expect(byTestId('overdue-link-critical')[0].textContent).toContain('3 overdue')
    expect(byTestId('overdue-link-low')[0].textContent).toContain('2 overdue')
  })
})

describe('the Overdue panel visited again', () => {
  it('asks the same reads within a minute, new ones after it', async () => {
    vi.useFakeTimers({ now: NOW + 5_000, toFake: ['Date'] })
    fake.handle('remediation.get', () => ({ policy, notify: false, saved: true, savedAt: null }))
    fake.handle('api.call', () => ({
      data: { data: [], meta: { pagination: { total_count: 1 } } },
      fetchedAt: new Date(NOW).toISOString(),
      fromCache: false,
    }))
    const visit = async () => {
      const wrapper = mountWithApp(OverduePanel, { global: { plugins: [panelRouter()] } })
      await flushPromises()
      await flushPromises()
      wrapper.unmount()
    }
    const befores = () => new Set(listCalls().map((c) => c.input.query.first_seen_before))
    await visit()
    vi.setSystemTime(NOW + 50_000)
    await visit()
    // The minute's start: one range per severity, however many visits in the minute.
    expect(befores()).toEqual(
      new Set([10, 30, 180].map((days) => new Date(NOW - days * DAY_MS).toISOString())),
    )
    vi.setSystemTime(NOW + 65_000)
    await visit()
    expect(befores().size).toBe(6)
  })
})

describe('the due filter in the address', () => {
  it('reads overdue and due within N days, and writes them back the same', () => {
    expect(dueFilterOf({ overdue: 'true' })).toEqual({ kind: 'overdue' })
    expect(dueFilterOf({ due_within: '14' })).toEqual({ kind: 'due_within', days: 14 })
    for (const bad of ['0', '366', '7.5', 'x', ''])
      expect(dueFilterOf({ due_within: bad })).toBeNull()
    expect(dueFilterOf({ overdue: 'yes' })).toBeNull()
    for (const f of [{ kind: 'overdue' as const }, { kind: 'due_within' as const, days: 30 }])
      expect(dueFilterOf(dueFilterWords(f))).toEqual(f)
    expect(dueFilterWords(null)).toEqual({})
  })
})
