import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { byTestId, theTestId } from '@/test/dom'
import { useFakeApp } from '@/test/fakeApp'
import { mountWithApp } from '@/test/mountApp'
import AccountTrendPanel from './AccountTrendPanel.vue'
import { dayOf, FROM_RUNS, RECORDED, shiftDay } from './accountTrend'
import { panelRouter } from './panelTestKit'

const fake = useFakeApp()
let unmount: (() => void) | null = null
afterEach(() => {
  unmount?.()
  unmount = null
})

const TODAY = dayOf(new Date())
const totals = (critical: number) => ({ critical, high: 1, medium: 2, low: 3, info: 4 })
const answer = (data: unknown[], total = data.length) => ({
  data: { data, meta: { pagination: { total_count: total } } },
  fetchedAt: new Date().toISOString(),
  fromCache: false,
})
/** A completed run of scn-a that finished two days ago at noon. */
const run = () => {
  const d = new Date()
  d.setDate(d.getDate() - 2)
  d.setHours(12, 0, 0, 0)
  return {
    id: 'run-1',
    type: 'scan_run',
    attributes: {
      scan_id: 'scn-a',
      status: 'completed',
      started_at: d.toISOString(),
      finished_at: d.toISOString(),
      hosts_count: 1,
      vulnerabilities_count: 15,
      severity_counts: totals(5),
    },
  }
}
const text = (id: string) => theTestId(id).textContent?.replace(/\s+/g, ' ').trim() ?? ''

async function mountPanel(scansTotal: number, notes: string[] = []) {
  fake.handle('trends.daily', () => ({
    days: [{ day: TODAY, takenAt: new Date().toISOString(), totals: totals(7) }],
    notes,
  }))
  fake.handle('api.call', (p: { op: string }) =>
    p.op === 'scans.list'
      ? answer([{ id: 'scn-a', type: 'scan', attributes: { name: 'A' } }], scansTotal)
      : answer([run()]),
  )
  const wrapper = mountWithApp(AccountTrendPanel, {
    global: { plugins: [panelRouter()], stubs: { Echarts: true } },
  })
  unmount = () => wrapper.unmount()
  await flushPromises()
  await vi.dynamicImportSettled()
  await flushPromises()
}

const rows = () =>
  [...byTestId('account-trend-chart-table')[0].querySelectorAll('tbody tr')].map((r) => [
    r.getAttribute('data-key'),
    r.querySelector('td')?.textContent,
    r.querySelector('td[data-severity="critical"]')?.textContent,
  ])

describe('the dashboard’s 90 days', () => {
  it('asks for 90 days, shows today as recorded by ScanDesk and earlier days from the runs', async () => {
    await mountPanel(1)
    expect(fake.calls.find((c) => c.channel === 'trends.daily')?.payload).toEqual({
      accountId: 'acct-aaaa',
      days: 90,
    })
    expect(rows()).toEqual([
      [shiftDay(TODAY, -2), FROM_RUNS, '5'],
      [shiftDay(TODAY, -1), FROM_RUNS, '5'],
      [TODAY, RECORDED, '7'],
    ])
    expect(text('account-trend-source')).toMatch(
      new RegExp(`^From ${TODAY} on: recorded by ScanDesk on this computer`),
    )
  })

  it('does not sum a part of the scans, and shows main’s notes', async () => {
    await mountPanel(150, ['Today’s totals were not recorded: Work offline is on.'])
    expect(rows()).toEqual([[TODAY, RECORDED, '7']])
    expect(byTestId('account-trend-note').map((n) => n.textContent?.trim())).toEqual([
      'Today’s totals were not recorded: Work offline is on.',
      'Earlier days are not summed from the runs: the account has more than 100 scans.',
    ])
  })
})
