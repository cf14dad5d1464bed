import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { BulkItemView, BulkRunDetails, BulkRunView as Run } from '@contract/bulk'
import { byTestId, settle, theTestId } from '@/test/dom'
import { Fail } from '@/test/fakeScandesk'
import { useFakeApp } from '@/test/fakeApp'
import { bulkRun } from '@/test/fixtures'
import { mountRouted, type Routed } from '@/test/routed'
import BulkRunItems from './BulkRunItems.vue'
import BulkRunView from './BulkRunView.vue'

const RUN_ID = '1b4e28ba-2fa1-41d2-883f-0016d3cca427'

const item = (n: number, state: BulkItemView['state']): BulkItemView => ({
  writeId: `w-${n}`,
  target: `vul-${n}`,
  label: `Finding ${n}`,
  host: null,
  state,
  message: null,
  code: null,
  resultId: state === 'done' ? `exc-${n}` : null,
  attempts: state === 'queued' ? 0 : 1,
})

/** The run with `done` of its 200 writes done (the others queued), changed a second per write. */
const run = (
  done: number,
  updatedAt = new Date(Date.UTC(2026, 10, 26, 10) + done * 1000).toISOString(),
): Run => bulkRun(done, 200, { id: RUN_ID, updatedAt })

let current = run(0)
const fake = useFakeApp({
  store: 'app',
  setup: (fake) => {
    fake.handle('bulk.get', (p: { page: number; perPage: number }): BulkRunDetails => {
      const from = (p.page - 1) * p.perPage
      const items = Array.from({ length: p.perPage }, (_, i) => from + i)
        .filter((n) => n < current.counts.total)
        .map((n) => item(n, n < current.counts.done ? 'done' : 'queued'))
      return { ...current, items, matching: current.counts.total }
    })
  },
})
let screen: Routed | null = null
afterEach(() => {
  screen?.unmount()
  screen = null
  vi.useRealTimers()
})

const reads = () => fake.calls.filter((c) => c.channel === 'bulk.get').map((c) => c.payload)
const rows = () => byTestId('bulk-item')

async function open(): Promise<void> {
  screen = await mountRouted(BulkRunView, {
    path: `/bulk/${RUN_ID}`,
    routes: [
      { path: '/bulk/:runId', component: BulkRunView },
      // where a write's host and target link to
      { path: '/hosts/:id', name: 'hosts-detail', component: { render: () => null } },
      { path: '/targets/:id', name: 'targets-detail', component: { render: () => null } },
    ],
    props: { runId: RUN_ID },
  })
}

describe('a bulk run’s result page', () => {
  it('first reads and draws one small page of the writes', async () => {
    await open()
    expect(reads()).toEqual([{ runId: RUN_ID, page: 1, perPage: 50 }])
    expect(rows()).toHaveLength(50)
    expect(theTestId('bulk-run-counts').textContent).toMatch(/0 done.*200 waiting.*of 200/s)
  })

  it('follows the run’s counts without drawing the page again while its writes stay as they are', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    current = run(60)
    await open()
    const drawn = rows()
    expect(drawn.map((r) => r.dataset.state)).toEqual(Array(50).fill('done'))
    const table = () => screen!.wrapper.findComponent(BulkRunItems)
    const given = table().props('items')

    for (const done of [70, 80, 90]) {
      current = run(done)
      fake.emit('bulk.changed', current)
      await flushPromises()
      expect(theTestId('bulk-run-counts').textContent).toContain(`${done} done`)
      await vi.advanceTimersByTimeAsync(2100)
    }
    // The page was read again (at most every 2 s), found the same: the table was given nothing new.
    expect(reads().length).toBeGreaterThan(1)
    expect(table().props('items')).toBe(given)
    expect(rows().every((row, i) => row === drawn[i])).toBe(true)

    // The run ends: the page is read at once, and a write that moved is drawn.
    current = { ...run(200), counts: { ...run(200).counts, done: 199, failed: 1 } }
    fake.handle('bulk.get', (): BulkRunDetails => ({
      ...current,
      items: [item(0, 'failed'), ...Array.from({ length: 49 }, (_, i) => item(i + 1, 'done'))],
      matching: 200,
    }))
    fake.emit('bulk.changed', current)
    await vi.advanceTimersByTimeAsync(10)
    await flushPromises()
    expect(rows()[0].dataset.state).toBe('failed')
    expect(theTestId('bulk-run-counts').textContent).toMatch(/199 done, 0 skipped, 1 failed/)
    current = run(0)
  })

  it('links a made exception to its page and gives a failed write the service’s words', async () => {
    current = run(1)
    fake.handle('bulk.get', (): BulkRunDetails => ({
      ...current,
      items: [
        item(0, 'done'),
        { ...item(1, 'failed'), message: 'The service refused: <b>expired</b>' },
        item(2, 'skipped'),
      ],
      matching: 3,
    }))
    await open()
    expect(rows().map((r) => r.dataset.state)).toEqual(['done', 'failed', 'skipped'])
    const tags = [...document.querySelectorAll('[data-testid="bulk-run-items"] .el-tag')]
    expect(tags.map((t) => t.textContent)).toEqual(['Done', 'Failed', 'Skipped'])
    expect(tags[1].classList).toContain('el-tag--danger')
    // the service's words are text, never markup
    expect(document.querySelector('[data-testid="bulk-run-items"] b')).toBeNull()
    expect(document.body.textContent).toContain('The service refused: <b>expired</b>')

    const link = theTestId('bulk-item-result') as HTMLAnchorElement
    expect(link.textContent).toBe('exc-0')
    expect(link.getAttribute('href')).toContain('/exceptions/exc-0')
    link.click()
    await flushPromises()
    expect(screen!.router.currentRoute.value.fullPath).toBe('/exceptions/exc-0')
    current = run(0)
  })

  it('names the host of each write beside its title, and that host’s scanning target', async () => {
    current = run(1)
    const telnet = (n: number, host: string): BulkItemView => ({
      ...item(n, 'done'),
      label: 'Telnet service exposed',
      host: { id: `hst-${n}`, name: `${host} port 23/tcp` },
    })
    fake.handle('bulk.get', (): BulkRunDetails => ({
      ...current,
      items: [telnet(1, '10.0.0.5'), telnet(2, '10.0.0.6'), { ...item(3, 'done'), host: null }],
      matching: 3,
    }))
    const rowsOf = (rows: { id: string; attributes: Record<string, unknown> }[]) => ({
      data: { data: rows, meta: { pagination: { total_count: rows.length } } },
      fetchedAt: '2030-01-01T00:00:00.000Z',
      fromCache: false,
    })
    fake.handle('api.call', (p: { op: string }) => {
      if (p.op === 'hosts.list')
        return rowsOf([
          { id: 'hst-1', attributes: { ip: '10.0.0.5', target_id: 'tgt-1' } },
          { id: 'hst-2', attributes: { ip: '10.0.0.6', target_id: 'tgt-2' } },
        ])
      if (p.op === 'targets.list')
        return rowsOf([
          { id: 'tgt-1', attributes: { name: 'DMZ web' } },
          { id: 'tgt-2', attributes: { name: 'Branch office' } },
        ])
      return new Fail({ code: 'NOT_FOUND', message: 'nothing here' })
    })
    await open()
    await vi.waitFor(() =>
      expect(byTestId('bulk-item-scan-target').map((e) => e.textContent?.trim())).toHaveLength(2),
    )
    await settle()
    const words = byTestId('bulk-item-where').map((e) => e.textContent?.replace(/\s+/g, ' ').trim())
    expect(words).toEqual([
      'Host 10.0.0.5 port 23/tcp · Target DMZ web',
      'Host 10.0.0.6 port 23/tcp · Target Branch office',
    ])
    expect(rows()).toHaveLength(3)
    // The page's hosts in one read.
    const hostReads = fake.calls
      .filter((c) => c.channel === 'api.call')
      .map((c) => c.payload as { op: string; input?: { query?: { ids?: string } } })
      .filter((c) => c.op === 'hosts.list')
    expect(hostReads.map((c) => c.input?.query?.ids)).toEqual(['hst-1,hst-2'])
    current = run(0)
  })

  it('says at once when the run is kept only until ScanDesk closes (no keychain)', async () => {
    current = { ...run(0), kept: 'memory' }
    await open()
    expect(theTestId('bulk-run-in-memory').textContent).toMatch(
      /kept until ScanDesk closes: no keychain.*nothing of it is written to disk/s,
    )
    current = run(0)
    screen?.unmount()
    await open()
    expect(byTestId('bulk-run-in-memory')).toHaveLength(0)
  })
})
