import { flushPromises } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import type { ExportJob } from '@contract/files'
import { resourceByKey } from '@/resources'
import { mountScreen } from '@/test/composables'
import { byTestId, inputOf, theTestId } from '@/test/dom'
import { useFakeApp } from '@/test/fakeApp'
import { Fail } from '@/test/fakeScandesk'
import { exportJob, reportsAnswer } from '@/test/fixtures'
import ScanReportsTab from './ScanReportsTab.vue'
import { noReportText } from './scanReports'

interface ApiPayload {
  op: string
  input: { query?: Record<string, unknown>; body?: Record<string, unknown> }
}

const answer = (data: unknown) => ({ data, fetchedAt: '2030-01-01T00:00:00Z', fromCache: false })
let status = 'completed'
let reports = 1
let jobs: ExportJob[] = []

const fake = useFakeApp({
  setup: (fake) => {
    status = 'completed'
    reports = 1
    jobs = []
    fake.handle('exports.list', () => jobs)
    fake.handle('api.cancel', () => ({ cancelled: true }))
    fake.handle('api.call', (p: ApiPayload) => {
      if (p.op === 'scans.show')
        return answer({
          data: {
            id: 'scn-1',
            type: 'scan',
            attributes: { name: 'Perimeter', status, target_ids: ['tgt-1', 'tgt-2'] },
          },
        })
      if (p.op === 'reports.list') return reportsAnswer(reports)
      if (p.op === 'targets.list') return answer({ data: [], meta: { pagination: {} } })
      if (p.op === 'advanced_reports.create')
        return answer({
          data: { id: 'adr-100', type: 'advanced_report', attributes: p.input.body },
        })
      return new Fail({ code: 'INTERNAL', message: `no answer for ${p.op}` })
    })
  },
})

const calls = (op: string) =>
  fake.calls
    .filter((c) => c.channel === 'api.call' && (c.payload as ApiPayload).op === op)
    .map((c) => (c.payload as ApiPayload).input)

async function mountTab() {
  const wrapper = mountScreen(ScanReportsTab, {
    props: { resource: resourceByKey('reports')!, id: 'scn-1', filter: 'scan_id' },
  })
  await flushPromises()
  return wrapper
}

describe('the Reports tab of a scan', () => {
  it('asks the service for this scan’s reports only and lists them with Generate', async () => {
    fake.handle('exports.generate', (p: { resourceId: string; format: 'pdf' }) =>
      exportJob('acct-aaaa', { resourceId: p.resourceId, format: p.format, state: 'generating' }),
    )
    await mountTab()
    expect(calls('reports.list').at(-1)!.query).toEqual({
      page: 1,
      per_page: 10,
      sort: '-created_at',
      scan_id: 'scn-1',
    })
    expect(byTestId('report-row').map((r) => r.dataset.reportId)).toEqual(['rpt-001'])
    expect(byTestId('scan-reports-why')).toHaveLength(0)

    theTestId('report-generate-button').click()
    await flushPromises()
    byTestId('generate-confirm')[0].click()
    await flushPromises()
    expect(fake.calls.find((c) => c.channel === 'exports.generate')?.payload).toEqual({
      accountId: 'acct-aaaa',
      kind: 'report',
      resourceId: 'rpt-001',
      format: 'pdf',
    })
    expect(theTestId('row-export').dataset.state).toBe('generating')
  })

  it('downloads a ready report through the export job and shows it verified', async () => {
    const ready = exportJob('acct-aaaa', { resourceId: 'rpt-001', state: 'ready' })
    jobs = [ready]
    fake.handle('files.getFolder', () => ({ folder: '/home/me/Reports' }))
    fake.handle('exports.download', (p: { jobId: string }) => ({
      ...ready,
      id: p.jobId,
      state: 'verified',
      updatedAt: '2030-01-01T00:01:00.000Z',
    }))
    await mountTab()
    const download = theTestId('row-export-download')
    expect(download.textContent?.trim()).toBe('Download')
    download.click()
    await flushPromises()
    expect(fake.calls.find((c) => c.channel === 'exports.download')?.payload).toEqual({
      jobId: ready.id,
    })
    expect(theTestId('row-export').dataset.state).toBe('verified')
    expect(theTestId('row-export').textContent).toContain('Verified')
  })

  it('says why there is none while the scan runs, and offers an advanced report for it', async () => {
    status = 'running'
    reports = 0
    await mountTab()
    expect(theTestId('scan-reports-why').textContent?.trim()).toBe(
      'This scan is running: its report appears here when the run completes.',
    )
    theTestId('scan-reports-advanced').click()
    await vi.dynamicImportSettled()
    await flushPromises()
    expect(inputOf('adr-name').value).toBe('Perimeter - technical detail')
    byTestId('adr-save')[0].click()
    await flushPromises()
    expect(calls('advanced_reports.create')).toEqual([
      {
        body: {
          name: 'Perimeter - technical detail',
          report_type: 'technical_detail',
          filters: { target_ids: ['tgt-1', 'tgt-2'] },
          sections: ['summary', 'findings', 'hosts', 'remediation'],
        },
      },
    ])
  })

  it('keeps the plain word for a search that matched nothing', async () => {
    vi.useFakeTimers()
    try {
      reports = 0
      mountScreen(ScanReportsTab, {
        props: { resource: resourceByKey('reports')!, id: 'scn-1', filter: 'scan_id' },
      })
      await vi.advanceTimersByTimeAsync(0)
      expect(byTestId('scan-reports-why')).toHaveLength(1)
      const search = inputOf('resource-search')
      search.value = 'quarterly'
      search.dispatchEvent(new Event('input'))
      await vi.advanceTimersByTimeAsync(400)
      expect(calls('reports.list').at(-1)!.query).toMatchObject({ search: 'quarterly' })
      expect(byTestId('scan-reports-why')).toHaveLength(0)
      expect(document.querySelector('[data-testid="table-empty"]')?.textContent).toContain(
        'No reports here.',
      )
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('why a scan has no report', () => {
  it('follows the scan’s state', () => {
    expect(noReportText('queued')).toBe(
      'This scan is queued: its report appears here when the run completes.',
    )
    expect(noReportText('failed')).toBe(
      'Its last run failed, which leaves no report. Reports appear when a run of this scan completes.',
    )
    expect(noReportText('stopped')).toMatch(/^Its last run was stopped, which leaves no report\./)
    expect(noReportText('completed')).toBe(
      'No report of this scan yet. Reports appear when a run of this scan completes.',
    )
    expect(noReportText(null)).toBe(noReportText('scheduled'))
  })
})
