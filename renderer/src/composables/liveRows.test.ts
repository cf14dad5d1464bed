import { afterEach, describe, expect, it, vi } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import ResourceTable from '@/components/kit/ResourceTable.vue'
import { resourceByKey } from '@/resources'
import { apiCalls, useTwoAccounts } from '@/test/composables'
import { Fail } from '@/test/fakeScandesk'
import { mountWithApp } from '@/test/mountApp'

/** The scans list answers in turn (the last one stays). */
let pages: Record<string, unknown>[][] = []
const fake = useTwoAccounts(() => {
  fake.handle('api.call', (p: { op: string }) => {
    if (p.op === 'user.permissions')
      return answer({ role: 'analyst', permissions: ['scans.read', 'scans.write'] })
    if (p.op === 'scans.list') return answer(pages.length > 1 ? pages.shift()! : pages[0])
    if (p.op.endsWith('.list')) return answer([])
    return new Fail({ code: 'INTERNAL', message: `unexpected ${p.op}` })
  })
})
let unmount: (() => void) | null = null
afterEach(() => {
  unmount?.()
  unmount = null
  vi.useRealTimers()
})

const answer = (data: unknown) => ({
  data: { data, meta: { pagination: { total_count: Array.isArray(data) ? data.length : 1 } } },
  fetchedAt: '2030-01-01T00:00:00Z',
  fromCache: false,
})
const scan = (id: string, status: string, progress: number) => ({
  id,
  type: 'scan',
  attributes: {
    name: `Scan ${id}`,
    status,
    progress,
    target_ids: [],
    scan_profile: 'full_and_fast',
    hosts_count: 0,
    vulnerabilities_count: 0,
    severity_counts: { critical: 0, high: 0, medium: 0, low: 0, info: 0 },
  },
})
const asked = (op: string) => apiCalls(fake).filter((c) => c.op === op).length
const statusOf = (id: string) =>
  document.querySelector(`tbody tr[data-row-id="${id}"]`)?.textContent?.replace(/\s+/g, ' ')

function mountScans() {
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', component: { render: () => null } },
      { path: '/scans/:id', name: 'scans-detail', component: { render: () => null } },
    ],
  })
  const wrapper = mountWithApp(ResourceTable, {
    props: { resource: resourceByKey('scans')! },
    global: { plugins: [router] },
  })
  unmount = () => wrapper.unmount()
}

describe('a list of scans while one runs', () => {
  it('asks again with backoff while a row runs, shows its end, then asks no more', async () => {
    vi.useFakeTimers()
    pages = [
      [scan('scn-1', 'running', 10), scan('scn-2', 'completed', 100)],
      [scan('scn-1', 'running', 10), scan('scn-2', 'completed', 100)],
      [scan('scn-1', 'running', 81), scan('scn-2', 'completed', 100)],
      [scan('scn-1', 'completed', 100), scan('scn-2', 'completed', 100)],
    ]
    mountScans()
    await vi.advanceTimersByTimeAsync(0)
    expect(statusOf('scn-1')).toContain('running')
    expect(asked('scans.list')).toBe(1)
    await vi.advanceTimersByTimeAsync(2_000)
    expect(asked('scans.list')).toBe(2) // nothing changed: next in 4 s
    await vi.advanceTimersByTimeAsync(3_999)
    expect(asked('scans.list')).toBe(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(asked('scans.list')).toBe(3)
    expect(statusOf('scn-1')).toContain('81%')
    await vi.advanceTimersByTimeAsync(2_000)
    expect(statusOf('scn-1')).toContain('completed')
    // The run's end refreshed what it changed (the scans group once more), then nothing runs.
    const settled = asked('scans.list')
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(asked('scans.list')).toBe(settled)
  })

  it('asks nothing again when no row runs', async () => {
    vi.useFakeTimers()
    pages = [[scan('scn-2', 'completed', 100), scan('scn-3', 'failed', 40)]]
    mountScans()
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(asked('scans.list')).toBe(1)
  })

  it('refreshes the account’s findings and reports when a run it showed ends', async () => {
    vi.useFakeTimers()
    pages = [[scan('scn-1', 'running', 90)], [scan('scn-1', 'completed', 100)]]
    mountScans()
    await vi.advanceTimersByTimeAsync(0)
    // a findings list shown elsewhere in the window, read once
    const other = mountWithApp(ResourceTable, {
      props: { resource: resourceByKey('vulnerabilities')!, compact: true },
      global: {
        plugins: [
          createRouter({
            history: createMemoryHistory(),
            routes: [{ path: '/:rest(.*)*', component: { render: () => null } }],
          }),
        ],
      },
    })
    await vi.advanceTimersByTimeAsync(0)
    expect(asked('vulnerabilities.list')).toBe(1)
    await vi.advanceTimersByTimeAsync(2_000)
    expect(statusOf('scn-1')).toContain('completed')
    expect(asked('vulnerabilities.list')).toBe(2)
    other.unmount()
  })
})
