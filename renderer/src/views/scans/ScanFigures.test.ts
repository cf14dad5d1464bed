import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import AttributeList from '@/components/kit/AttributeList.vue'
import { detailName, RESOURCES, resourceByKey } from '@/resources'
import { catchAllRouter } from '@/test/composables'
import { byTestId, theTestId } from '@/test/dom'
import { useFakeApp } from '@/test/fakeApp'
import { mountWithApp } from '@/test/mountApp'
import { pciVerdictText, runFindingsUnknown, scanFindingsUnknown } from '@/utils/scanFindings'
import type { Scan } from './scanLive'
import ScanStatistics from './ScanStatistics.vue'
import ScanStatusCard from './ScanStatusCard.vue'

const fake = useFakeApp()
let unmount: (() => void) | null = null
afterEach(() => {
  unmount?.()
  unmount = null
  vi.useRealTimers()
})

const text = (id: string) => theTestId(id).textContent?.replace(/\s+/g, ' ').trim() ?? ''
const counts = { critical: 0, high: 0, medium: 0, low: 0, info: 0 }

function scan(status: string, extra: Record<string, unknown> = {}): Scan {
  return {
    id: 'scn-1',
    type: 'scan',
    attributes: {
      name: 'Perimeter',
      status,
      progress: 3,
      target_ids: ['tgt-1'],
      scan_profile: 'full_and_fast',
      started_at: '2030-01-01T00:00:00Z',
      finished_at: status === 'completed' ? '2030-01-01T00:10:00Z' : null,
      hosts_count: 0,
      vulnerabilities_count: 0,
      severity_counts: counts,
      ...extra,
    },
  } as Scan
}

describe('when figures from a scan’s findings are known', () => {
  it('only once its last run completed; a run stopped or failed says why not', () => {
    expect(scanFindingsUnknown('completed')).toBeNull()
    expect(scanFindingsUnknown('running')?.long).toBe('Not known yet: the run has not finished.')
    expect(scanFindingsUnknown('stopping')?.short).toBe('Not known yet')
    expect(scanFindingsUnknown('queued')?.long).toBe('Not known yet: the scan has not run yet.')
    expect(scanFindingsUnknown('scheduled')?.short).toBe('Not known yet')
    expect(scanFindingsUnknown('stopped')?.short).toBe('Not known (run stopped)')
    expect(scanFindingsUnknown('failed')?.long).toMatch(/failed before it finished/)
    expect(scanFindingsUnknown('something new')?.short).toBe('Not known yet')
  })

  it('for one run of the history: unknown only while that run goes on', () => {
    expect(runFindingsUnknown('running')?.short).toBe('Not known yet')
    expect(runFindingsUnknown('queued')?.short).toBe('Not known yet')
    expect(runFindingsUnknown('stopped')).toBeNull()
    expect(runFindingsUnknown('completed')).toBeNull()
  })

  it('says the PCI verdict only for a completed run', () => {
    expect(pciVerdictText('running', true)).toBe('Not known yet')
    expect(pciVerdictText('stopped', true)).toBe('Not known (run stopped)')
    expect(pciVerdictText('completed', true)).toBe('Yes')
    expect(pciVerdictText('completed', false)).toBe('No')
    expect(pciVerdictText('completed', undefined)).toBe('Not known')
  })
})

describe('the statistics of a scan', () => {
  const statistics = (status: string, pci: boolean, found: number) => ({
    data: {
      data: {
        scan_id: 'scn-1',
        status,
        hosts_count: 1,
        vulnerabilities_count: found,
        severity_counts: { ...counts, high: found },
        duration_seconds: 60,
        runs_count: 1,
        pci_compliant: pci,
      },
    },
    fetchedAt: '2030-01-01T00:00:00Z',
    fromCache: false,
  })

  async function mountStatistics(status: string, answer: ReturnType<typeof statistics>) {
    fake.handle('api.call', () => answer)
    const wrapper = mountWithApp(ScanStatistics, {
      props: { scanId: 'scn-1', status },
      global: { plugins: [catchAllRouter()], stubs: { Echarts: true } },
    })
    unmount = () => wrapper.unmount()
    await flushPromises()
  }

  it('does not call a running scan with no findings so far PCI compliant', async () => {
    await mountStatistics('running', statistics('running', true, 0))
    expect(text('stat-pci')).toBe('Not known yet')
    expect(theTestId('stat-pci').title).toBe('Not known yet: the run has not finished.')
    expect(text('stat-findings')).toBe('Not known yet')
    expect(text('scan-statistics-unknown')).toBe(
      'Findings by severity: Not known yet: the run has not finished.',
    )
    expect(byTestId('severity-chart')).toHaveLength(0)
  })

  it('gives the verdict, the count and the chart once the run completed', async () => {
    await mountStatistics('completed', statistics('completed', true, 4))
    expect(text('stat-pci')).toBe('Yes')
    expect(text('stat-findings')).toBe('4')
    expect(byTestId('scan-statistics-unknown')).toHaveLength(0)
    await vi.waitFor(() => theTestId('severity-chart'), { timeout: 5_000 })
  })
})

describe('the status card of a scan', () => {
  it('counts the time it has been running every second', async () => {
    vi.useFakeTimers({ now: Date.parse('2030-01-01T00:00:05Z') })
    const wrapper = mountWithApp(ScanStatusCard, {
      props: { scan: scan('running'), nextCheckMs: 2000, paused: false },
    })
    unmount = () => wrapper.unmount()
    await vi.advanceTimersByTimeAsync(0)
    expect(text('scan-elapsed')).toBe('5 s')
    await vi.advanceTimersByTimeAsync(1_000)
    expect(text('scan-elapsed')).toBe('6 s')
    await vi.advanceTimersByTimeAsync(1_000)
    expect(text('scan-elapsed')).toBe('7 s')
    expect(text('scan-findings-count')).toBe('Not known yet')
  })

  it('shows how long a finished run took, and its findings', async () => {
    const wrapper = mountWithApp(ScanStatusCard, {
      props: {
        scan: scan('completed', { vulnerabilities_count: 12 }),
        nextCheckMs: null,
        paused: false,
      },
    })
    unmount = () => wrapper.unmount()
    await flushPromises()
    expect(text('scan-elapsed')).toBe('10 min 0 s')
    expect(text('scan-findings-count')).toBe('12')
  })

  it('gives a status from the offline copy its age, and does not call it live', async () => {
    vi.useFakeTimers({ now: Date.parse('2030-01-01T03:00:00Z') })
    const wrapper = mountWithApp(ScanStatusCard, {
      props: {
        scan: scan('running'),
        nextCheckMs: 2000,
        paused: false,
        fromCache: true,
        fetchedAt: '2030-01-01T01:00:00Z',
      },
    })
    unmount = () => wrapper.unmount()
    await vi.advanceTimersByTimeAsync(0)
    expect(text('scan-status')).toBe('running')
    expect(text('scan-status-age')).toBe('as of 2 hours ago')
    expect(text('scan-live-note')).toBe(
      'This is the offline copy of 2 hours ago: the scan may have finished since.',
    )
  })
})

describe('all attributes of a scan', () => {
  it('say its counts by severity are not known while it runs, and give them once it completed', async () => {
    const page = { render: () => null }
    const router = createRouter({
      history: createMemoryHistory(),
      routes: RESOURCES.map((r) => ({
        path: `/${r.key}/:id`,
        name: detailName(r),
        component: page,
      })),
    })
    const attrs = (status: string) =>
      mountWithApp(AttributeList, {
        props: { attributes: scan(status).attributes, resource: resourceByKey('scans')! },
        global: { plugins: [router] },
      })
    const running = attrs('running')
    await flushPromises()
    const cell = () => document.querySelector<HTMLElement>('[data-attr="severity_counts"]')!
    expect(cell().textContent?.trim()).toBe('Not known yet')
    running.unmount()
    const done = attrs('completed')
    await flushPromises()
    expect(cell().textContent?.trim()).not.toContain('Not known')
    done.unmount()
  })
})
