import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { catchAllRouter } from '@/test/composables'
import { byTestId, theTestId } from '@/test/dom'
import { useFakeApp } from '@/test/fakeApp'
import { mountWithApp } from '@/test/mountApp'
import ScanTrend from '@/views/scans/ScanTrend.vue'
import TargetTrend from './TargetTrend.vue'

const fake = useFakeApp()
let unmount: (() => void) | null = null
afterEach(() => {
  unmount?.()
  unmount = null
})

const counts = (critical: number) => ({ critical, high: 0, medium: 1, low: 0, info: 0 })
const run = (scan: string, n: number, status = 'completed', critical = n) => ({
  id: `${scan}-run-${n}`,
  type: 'scan_run',
  attributes: {
    scan_id: scan,
    status,
    started_at: `2030-01-0${n}T00:00:00Z`,
    finished_at: `2030-01-0${n}T00:30:00Z`,
    hosts_count: 1,
    vulnerabilities_count: critical + 1,
    severity_counts: counts(critical),
  },
})
const answer = (data: unknown[]) => ({
  data: { data, meta: { pagination: { total_count: data.length } } },
  fetchedAt: '2030-01-10T00:00:00Z',
  fromCache: false,
})
const scanRow = (id: string, name: string) => ({ id, type: 'scan', attributes: { name } })
const text = (id: string) => theTestId(id).textContent?.replace(/\s+/g, ' ').trim() ?? ''

/** Answers scans.list with `scans` and each scans.history with `runs[scanId]`. */
function serve(scans: unknown[], runs: Record<string, unknown[]>) {
  fake.handle('api.call', (p: { op: string; input: { path?: { id: string } } }) =>
    p.op === 'scans.list' ? answer(scans) : answer(runs[p.input.path!.id] ?? []),
  )
}

const global = { plugins: [catchAllRouter()], stubs: { Echarts: true } }

/** Waits for the reads and the chart (an async component: ECharts loads with the first chart). */
async function settle(wrapper: { unmount(): void }) {
  unmount = () => wrapper.unmount()
  await flushPromises()
  await vi.dynamicImportSettled()
  await flushPromises()
}
const mountTarget = (id: string) => settle(mountWithApp(TargetTrend, { props: { id }, global }))

describe('a target’s trend', () => {
  it('interleaves the runs of its scans by time, each named by its scan', async () => {
    serve([scanRow('scn-a', 'Perimeter'), scanRow('scn-b', 'Office')], {
      'scn-a': [run('scn-a', 3), run('scn-a', 1)],
      'scn-b': [run('scn-b', 2), run('scn-b', 4, 'stopped')],
    })
    await mountTarget('tgt-1')
    const calls = fake.calls.filter((c) => c.channel === 'api.call').map((c) => c.payload)
    expect(calls[0]).toMatchObject({ op: 'scans.list', input: { query: { target_id: 'tgt-1' } } })
    const rows = byTestId('target-trend-chart-table')[0].querySelectorAll('tbody tr')
    expect([...rows].map((r) => r.getAttribute('data-key'))).toEqual([
      'scn-a-run-1',
      'scn-b-run-2',
      'scn-a-run-3',
    ])
    expect(rows[1].querySelector('td')?.textContent).toBe('Office')
    expect(text('trend-notes')).toMatch(/^1 run not completed/)
  })

  it('says one completed run in words, and none when no scan scans it', async () => {
    serve([scanRow('scn-a', 'Perimeter')], { 'scn-a': [run('scn-a', 1, 'completed', 4)] })
    await mountTarget('tgt-1')
    expect(text('target-trend-chart-one')).toMatch(
      /^One completed run so far, no trend yet \(.+\): 4 critical, 0 high, 1 medium, 0 low, 0 info\.$/,
    )
    unmount?.()
    serve([], {})
    await mountTarget('tgt-2')
    expect(text('target-trend-chart-none')).toBe(
      'No scan scans this target: there is no trend to show.',
    )
  })
})

describe('a scan’s trend', () => {
  it('draws its completed runs oldest first', async () => {
    serve([], { 'scn-a': [run('scn-a', 2), run('scn-a', 1), run('scn-a', 3, 'failed')] })
    await settle(
      mountWithApp(ScanTrend, { props: { scanId: 'scn-a', status: 'completed' }, global }),
    )
    expect(theTestId('scan-trend-chart').getAttribute('data-points')).toBe('2')
    expect(text('trend-notes')).toMatch(/^1 run not completed/)
  })
})
