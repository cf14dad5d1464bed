import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { byTestId } from '@/test/dom'
import { useFakeApp } from '@/test/fakeApp'
import { mountWithApp } from '@/test/mountApp'
import SaqPciFindings from './SaqPciFindings.vue'

const fake = useFakeApp()
afterEach(() => vi.useRealTimers())

const NOW = Date.parse('2030-03-31T18:00:00.000Z')
type ListCall = { op: string; input: { query: Record<string, unknown> } }

describe('6.3.3’s findings in the SAQ filler', () => {
  it('counts the critical and high findings first seen before the calendar month’s line', async () => {
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] })
    fake.handle('api.call', (p: ListCall) => {
      const q = p.input.query
      const total = q.first_seen_before ? 1234 : q.severity === 'critical' ? 900 : 2000
      return {
        data: { data: [], meta: { pagination: { total_count: total } } },
        fetchedAt: new Date(NOW).toISOString(),
        fromCache: false,
      }
    })
    mountWithApp(SaqPciFindings)
    await flushPromises()
    await flushPromises()

    const queries = fake.calls
      .filter((c) => c.channel === 'api.call')
      .map((c) => (c.payload as ListCall).input.query)
    // The aged count asks the CSV's query: CVSS 7.0 or more, before 28 February (31 March's
    // month back, the shorter month's last day), one row.
    expect(queries).toContainEqual({
      cvss_score_min: 7,
      first_seen_before: '2030-02-28',
      per_page: 1,
    })
    const aged = byTestId('saq-pci-findings-aged')[0]
    expect(aged.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      '1,234 critical and high findings (CVSS 7.0 or more) were first seen more than a month ago, before February 28, 2030 (UTC).',
    )
    expect(byTestId('saq-pci-findings')[0].textContent).toMatch(/900\s*critical and\s*2,000\s*high/)
  })
})
