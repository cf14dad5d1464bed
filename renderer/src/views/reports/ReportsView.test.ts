import { flushPromises } from '@vue/test-utils'
import { byTestId } from '@/test/dom'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useFakeApp } from '@/test/fakeApp'
import { exportJob, reportsAnswer } from '@/test/fixtures'
import { mountScreen } from '@/test/composables'
import ReportsView from './ReportsView.vue'

interface ApiPayload {
  op: string
  input: { query?: Record<string, unknown>; body?: { ids: string[] }; path?: { id: string } }
}

const fake = useFakeApp({
  setup: (fake) => {
    fake.handle('exports.list', () => [])
    fake.handle('api.cancel', () => ({ cancelled: true }))
    fake.handle('api.call', (p: ApiPayload) => {
      if (p.op === 'reports.list') return reportsAnswer(3, 60, Number(p.input.query?.page ?? 1))
      if (p.op === 'reports.bulk_delete')
        return { data: { data: { deleted: p.input.body!.ids } }, fetchedAt: '', fromCache: false }
      if (p.op === 'reports.delete')
        return {
          data: { data: { id: p.input.path!.id, deleted: true } },
          fetchedAt: '',
          fromCache: false,
        }
      throw new Error(`unexpected ${p.op}`)
    })
  },
})
afterEach(() => {
  vi.useRealTimers()
})

const apiCalls = (op: string) =>
  fake.calls.filter((c) => c.channel === 'api.call' && (c.payload as ApiPayload).op === op)
const lastQuery = () => (apiCalls('reports.list').at(-1)!.payload as ApiPayload).input.query

describe('the reports list', () => {
  it('asks the service for one page, newest first, and shows one row per report', async () => {
    mountScreen(ReportsView)
    await flushPromises()
    expect(lastQuery()).toEqual({ page: 1, per_page: 25, sort: '-created_at' })
    const rows = byTestId('report-row')
    expect(rows.map((r) => r.dataset.reportId)).toEqual(['rpt-001', 'rpt-002', 'rpt-003'])
    expect(document.querySelector('.el-pagination__total')?.textContent).toContain('60')
  })

  it('pages and sorts on the service', async () => {
    const wrapper = mountScreen(ReportsView)
    await flushPromises()
    wrapper.findComponent({ name: 'ElPagination' }).vm.$emit('current-change', 3)
    await flushPromises()
    expect(lastQuery()).toMatchObject({ page: 3, sort: '-created_at' })
    expect(byTestId('report-row')[0].dataset.reportId).toBe('rpt-007')

    // a header click sorts ascending, a second one descending
    await wrapper.find('th[data-column="name"]').trigger('click')
    await flushPromises()
    expect(lastQuery()).toMatchObject({ page: 1, sort: 'name' })
    await wrapper.find('th[data-column="status"]').trigger('click')
    await flushPromises()
    expect(lastQuery()).toMatchObject({ sort: 'status' })
    await wrapper.find('th[data-column="status"]').trigger('click')
    await flushPromises()
    expect(lastQuery()).toMatchObject({ sort: '-status' })
  })

  it('searches once typing pauses', async () => {
    vi.useFakeTimers()
    const wrapper = mountScreen(ReportsView)
    await vi.advanceTimersByTimeAsync(0)
    const search = wrapper.find(
      '[data-testid="resource-search"] input, input[data-testid="resource-search"]',
    )
    for (const text of ['q', 'qu', 'quarter']) {
      await search.setValue(text)
      await vi.advanceTimersByTimeAsync(100)
    }
    expect(apiCalls('reports.list')).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(300)
    expect(apiCalls('reports.list')).toHaveLength(2)
    expect(lastQuery()).toMatchObject({ search: 'quarter', page: 1 })
  })

  it('asks before a bulk delete, naming how many reports go', async () => {
    mountScreen(ReportsView)
    await flushPromises()
    // the check boxes of the first and third rows clicked
    const boxes = document.querySelectorAll<HTMLInputElement>('[data-testid="table-check-row"]')
    boxes[0].click()
    boxes[2].click()
    await flushPromises()
    const button = byTestId('resource-bulk-delete')[0]
    expect(button.textContent).toContain('Delete 2 reports')
    button.click()
    await flushPromises()
    expect(byTestId('delete-confirm-text')[0].textContent).toContain('Delete 2 reports?')
    expect(apiCalls('reports.bulk_delete')).toHaveLength(0)
    byTestId('delete-confirm')[0].click()
    await flushPromises()
    expect((apiCalls('reports.bulk_delete')[0].payload as ApiPayload).input.body).toEqual({
      ids: ['rpt-001', 'rpt-003'],
    })
    expect(apiCalls('reports.list')).toHaveLength(2)
  })

  it('names the report when deleting one', async () => {
    mountScreen(ReportsView)
    await flushPromises()
    byTestId('resource-row')[1]
      .querySelector<HTMLElement>('[data-testid="resource-delete"]')!
      .click()
    await flushPromises()
    expect(byTestId('delete-confirm-text')[0].textContent).toContain('Delete “Report 2”?')
    byTestId('delete-confirm')[0].click()
    await flushPromises()
    expect((apiCalls('reports.delete')[0].payload as ApiPayload).input.path).toEqual({
      id: 'rpt-002',
    })
  })

  it('generates a PDF through exports.generate and shows the job state on the row', async () => {
    fake.handle('exports.generate', (p: { resourceId: string; format: 'pdf' }) =>
      exportJob('acct-aaaa', { resourceId: p.resourceId, format: p.format, state: 'generating' }),
    )
    mountScreen(ReportsView)
    await flushPromises()
    byTestId('report-row')[0]
      .querySelector<HTMLElement>('[data-testid="report-generate-button"]')!
      .click()
    await flushPromises()
    byTestId('generate-format-pdf')[0].querySelector('input')!.click()
    byTestId('generate-confirm')[0].click()
    await flushPromises()
    expect(fake.calls.find((c) => c.channel === 'exports.generate')?.payload).toEqual({
      accountId: 'acct-aaaa',
      kind: 'report',
      resourceId: 'rpt-001',
      format: 'pdf',
    })
    expect(byTestId('row-export')[0].textContent).toContain('Generating')
  })

  it('shows the SHA-256 beside “Verified” on a downloaded report’s row, whole on hover', async () => {
    const sha256 = 'ab12cd34ef56'.padEnd(64, '0')
    fake.handle('exports.list', () => [
      exportJob('acct-aaaa', { resourceId: 'rpt-001', state: 'verified', sha256 }),
      exportJob('acct-aaaa', { resourceId: 'rpt-002', state: 'ready', sha256: null }),
    ])
    mountScreen(ReportsView)
    await flushPromises()
    const [verified, ready] = byTestId('row-export')
    expect(verified.textContent).toContain('Verified')
    const short = verified.querySelector<HTMLElement>('[data-testid="library-hash-short"]')!
    expect(short.textContent).toBe('ab12cd34ef56…')
    expect(short.getAttribute('title')).toBe(sha256)
    expect(ready.querySelector('[data-testid="library-hash"]')).toBeNull()
  })
})
