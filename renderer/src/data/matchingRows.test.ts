import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { installFakeScandesk, type FakeScandesk } from '@/test/fakeScandesk'
import { collectMatching, pickRow } from './matchingRows'

let fake: FakeScandesk
/** A list of `total` findings, answered page by page as the service would. */
function serveFindings(total: number): void {
  fake.handle('api.call', (p: { input: { query: { page: number; per_page: number } } }) => {
    const { page, per_page } = p.input.query
    const from = (page - 1) * per_page
    const ids = Array.from(
      { length: Math.max(0, Math.min(per_page, total - from)) },
      (_, i) => from + i,
    )
    return {
      data: {
        data: ids.map((n) => ({
          id: `vul-${n}`,
          type: 'vulnerability',
          attributes: { title: `T${n}` },
        })),
        meta: { pagination: { total_count: total } },
      },
      fetchedAt: '',
      fromCache: false,
    }
  })
}
const queries = () =>
  fake.calls
    .filter((c) => c.channel === 'api.call')
    .map((c) => (c.payload as { input: { query: Record<string, unknown> } }).input.query)

beforeEach(() => {
  fake = installFakeScandesk()
})
afterEach(() => {
  delete window.scandesk
})

const options = (over: { cap?: number; signal?: AbortSignal; progress?: number[][] } = {}) => ({
  cap: over.cap ?? 5000,
  pick: (r: { id: string; attributes: Record<string, unknown> }) => ({
    id: r.id,
    label: String(r.attributes.title),
  }),
  onProgress: (n: number, total: number) => over.progress?.push([n, total]),
  signal: over.signal ?? new AbortController().signal,
})

describe('collecting every row matching a filter', () => {
  it('pages through with the filter, reporting progress after each page', async () => {
    serveFindings(1203)
    const progress: number[][] = []
    const { rows, total } = await collectMatching(
      'acc-1',
      'vulnerabilities.list',
      { severity: 'high', sort: '-cvss_score' },
      options({ progress }),
    )
    expect(total).toBe(1203)
    expect(rows).toHaveLength(1203)
    expect(rows[1202]).toEqual({ id: 'vul-1202', label: 'T1202' })
    expect(new Set(rows.map((r) => r.id)).size).toBe(1203)
    expect(progress).toEqual([
      [500, 1203],
      [1000, 1203],
      [1203, 1203],
    ])
    expect(queries().map((q) => q.page)).toEqual([1, 2, 3])
    expect(queries().every((q) => q.severity === 'high' && q.sort === '-cvss_score')).toBe(true)
  })

  it('stops at the cap without asking for more pages', async () => {
    serveFindings(9000)
    const { rows, total } = await collectMatching(
      'acc-1',
      'vulnerabilities.list',
      {},
      options({ cap: 700 }),
    )
    expect(rows).toHaveLength(700)
    expect(total).toBe(9000)
    expect(queries()).toHaveLength(2)
  })

  it('stops when cancelled, sending nothing more', async () => {
    serveFindings(3000)
    const stop = new AbortController()
    const progress: number[][] = []
    const running = collectMatching(
      'acc-1',
      'vulnerabilities.list',
      {},
      {
        ...options({ signal: stop.signal }),
        onProgress: (n, t) => (progress.push([n, t]), stop.abort()),
      },
    )
    await expect(running).rejects.toBeDefined()
    expect(progress).toEqual([[500, 3000]])
    expect(queries()).toHaveLength(1)
  })
})

describe('what a bulk run’s result shows of a row', () => {
  it('names a finding by its title and its host with the port and protocol', () => {
    const finding = {
      id: 'vul-7',
      attributes: {
        title: 'Telnet service exposed',
        host_id: 'hst-3',
        host_ip: '10.0.0.5',
        port: 23,
        protocol: 'tcp',
      },
    }
    expect(pickRow(finding, 'title')).toEqual({
      id: 'vul-7',
      label: 'Telnet service exposed',
      host: { id: 'hst-3', name: '10.0.0.5 port 23/tcp' },
    })
  })

  it('names an exception’s host by its address, or by its id when the row has none', () => {
    const exception = (a: Record<string, unknown>) =>
      pickRow(
        { id: 'exc-1', attributes: { vulnerability_title: 'Weak TLS', ...a } },
        'vulnerability_title',
      )
    expect(exception({ host_id: 'hst-9', host_ip: '192.0.2.9' }).host).toEqual({
      id: 'hst-9',
      name: '192.0.2.9',
    })
    expect(exception({ host_id: 'hst-9', host_ip: null }).host).toEqual({
      id: 'hst-9',
      name: 'hst-9',
    })
    expect(exception({}).host).toBeUndefined()
    expect(exception({}).label).toBe('Weak TLS')
  })
})
