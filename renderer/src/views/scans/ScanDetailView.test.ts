import { flushPromises } from '@vue/test-utils'
import { afterEach, describe, expect, it, vi } from 'vitest'
import ConfirmHost from '@/components/kit/ConfirmHost.vue'
import { NOTIFY_ASKED_KEY, resetNotifyForTests } from '@/composables/notify'
import { useConfirmStore } from '@/stores/confirm'
import { apiCalls, useTwoAccounts } from '@/test/composables'
import { byTestId, click, theTestId } from '@/test/dom'
import { Fail } from '@/test/fakeScandesk'
import { mountWithApp } from '@/test/mountApp'
import { recordRouter } from '@/test/routed'
import ScanDetailView from './ScanDetailView.vue'

let mounted: { unmount: () => void }[] = []
let visibility: DocumentVisibilityState = 'visible'
let shown: { title: string; options?: NotificationOptions }[] = []

/** window.Notification with the user's answer already given. */
function installNotification(permission: NotificationPermission) {
  class FakeNotification {
    static permission: NotificationPermission = permission
    static requestPermission = vi.fn(async () => {
      FakeNotification.permission = 'granted'
      return 'granted' as const
    })
    onclick: (() => void) | null = null
    constructor(title: string, options?: NotificationOptions) {
      shown.push({ title, options })
    }
  }
  vi.stubGlobal('Notification', FakeNotification)
  return FakeNotification
}

const fake = useTwoAccounts(() => {
  shown = []
  resetNotifyForTests()
  localStorage.clear()
  installNotification('granted')
  visibility = 'visible'
  Object.defineProperty(document, 'visibilityState', {
    configurable: true,
    get: () => visibility,
  })
})
afterEach(() => {
  for (const wrapper of mounted) wrapper.unmount()
  mounted = []
  vi.useRealTimers()
  vi.unstubAllGlobals()
  Reflect.deleteProperty(document, 'visibilityState')
})

type Call = {
  op: string
  input: { path?: Record<string, string>; query?: Record<string, unknown> }
}
const answer = (data: unknown) => ({ data, fetchedAt: '2030-01-01T00:00:00Z', fromCache: false })
const counts = { critical: 1, high: 2, medium: 3, low: 4, info: 5 }
function scan(status: string, progress: number, extra: Record<string, unknown> = {}) {
  return {
    data: {
      id: 'scn-1',
      type: 'scan',
      attributes: {
        name: 'Perimeter',
        status,
        progress,
        target_ids: ['tgt-1'],
        scan_profile: 'full_and_fast',
        started_at: '2030-01-01T00:00:00Z',
        finished_at: status === 'completed' ? '2030-01-01T00:10:00Z' : null,
        hosts_count: 2,
        vulnerabilities_count: 15,
        severity_counts: counts,
        ...extra,
      },
    },
  }
}
const statistics = () =>
  answer({
    data: {
      scan_id: 'scn-1',
      status: 'completed',
      hosts_count: 2,
      vulnerabilities_count: 15,
      severity_counts: counts,
      duration_seconds: 600,
      runs_count: 3,
      pci_compliant: false,
    },
  })

/** Answers scans.show from `states` in turn (the last one stays), the rest per operation. */
function serve(states: ReturnType<typeof scan>[], over: Record<string, (p: Call) => unknown> = {}) {
  fake.handle('api.call', (p: Call) => {
    if (over[p.op]) return over[p.op](p)
    if (p.op === 'scans.show') return answer(states.length > 1 ? states.shift() : states[0])
    if (p.op === 'scans.statistics') return statistics()
    if (p.op === 'user.organization')
      return answer({ data: { id: 'org-1', type: 'organization', attributes: { name: 'Acme' } } })
    return new Fail({ code: 'INTERNAL', message: `no answer for ${p.op}` })
  })
}
const sent = (op: string) => apiCalls(fake).filter((c) => c.op === op)
const text = (id: string) => theTestId(id).textContent?.replace(/\s+/g, ' ').trim() ?? ''

/** The view as the app routes it (at `path`), with the shell's confirmation dialog. */
async function mountDetail(path = '/scans/scn-1') {
  const router = recordRouter()
  await router.push(path)
  mounted.push(mountWithApp(ConfirmHost, { global: { plugins: [router] } }))
  const wrapper = mountWithApp(ScanDetailView, {
    props: { id: 'scn-1', resourceKey: 'scans' },
    global: { plugins: [router], stubs: { Echarts: true } },
  })
  mounted.push(wrapper)
  return Object.assign(wrapper, { router })
}

describe('the scan detail while the scan runs', () => {
  it('shows status and progress, asks again with backoff, and stops once it completed', async () => {
    vi.useFakeTimers()
    serve([scan('running', 10), scan('running', 10), scan('running', 50), scan('completed', 100)])
    await mountDetail()
    await vi.advanceTimersByTimeAsync(0)
    expect(text('scan-status')).toBe('running')
    expect(theTestId('scan-progress').textContent).toContain('10%')
    expect(sent('scans.show')).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(2_000)
    expect(sent('scans.show')).toHaveLength(2) // unchanged: next in 4 s
    expect(text('scan-live-note')).toBe('Live: checked again every 4 s.')
    await vi.advanceTimersByTimeAsync(3_999)
    expect(sent('scans.show')).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(sent('scans.show')).toHaveLength(3) // progress changed: next in 2 s
    expect(theTestId('scan-progress').textContent).toContain('50%')
    await vi.advanceTimersByTimeAsync(2_000)
    expect(text('scan-status')).toBe('completed')
    const settled = sent('scans.show').length
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(sent('scans.show')).toHaveLength(settled)
    expect(byTestId('scan-live-note')).toHaveLength(0)
  })

  it('raises one native notification when the run it watched finishes', async () => {
    vi.useFakeTimers()
    serve([scan('running', 90), scan('completed', 100)])
    await mountDetail()
    await vi.advanceTimersByTimeAsync(0)
    expect(shown).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(2_000)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(shown).toEqual([
      {
        title: 'Scan “Perimeter” completed',
        options: { body: '15 findings on 2 hosts.', tag: expect.stringContaining('scn-1') },
      },
    ])
  })

  it('raises none for a scan that was already finished when opened', async () => {
    vi.useFakeTimers()
    serve([scan('completed', 100)])
    await mountDetail()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(shown).toHaveLength(0)
    expect(sent('scans.show')).toHaveLength(1)
  })

  it('pauses after a minute hidden and asks again as soon as the window is visible', async () => {
    vi.useFakeTimers()
    serve([scan('running', 10)])
    await mountDetail()
    await vi.advanceTimersByTimeAsync(0)
    visibility = 'hidden'
    document.dispatchEvent(new Event('visibilitychange'))
    await vi.advanceTimersByTimeAsync(60_000)
    expect(text('scan-live-note')).toBe('Updates paused while the window is hidden.')
    const atPause = sent('scans.show').length
    await vi.advanceTimersByTimeAsync(30 * 60_000)
    expect(sent('scans.show')).toHaveLength(atPause)
    visibility = 'visible'
    document.dispatchEvent(new Event('visibilitychange'))
    await vi.advanceTimersByTimeAsync(0)
    expect(sent('scans.show')).toHaveLength(atPause + 1)
  })

  it('goes on asking through a failure that passes by itself, until the run is seen to end', async () => {
    vi.useFakeTimers()
    const states: (ReturnType<typeof scan> | Fail)[] = [
      scan('running', 80),
      new Fail({ code: 'TIMEOUT', message: 'The service did not answer in time.' }),
      scan('running', 81),
      scan('completed', 100),
    ]
    serve([scan('running', 80)], {
      'scans.show': () => {
        const next = states.length > 1 ? states.shift()! : states[0]
        return next instanceof Fail ? next : answer(next)
      },
    })
    await mountDetail()
    await vi.advanceTimersByTimeAsync(0)
    await vi.advanceTimersByTimeAsync(2_000) // the failed ask
    expect(sent('scans.show')).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(4_000)
    expect(theTestId('scan-progress').textContent).toContain('81%')
    await vi.advanceTimersByTimeAsync(2_000)
    expect(text('scan-status')).toBe('completed')
  })

  it('reads the scan and its Changes again when main heard that a run it was not watching ended', async () => {
    let finished = '2030-01-01T00:10:00Z'
    serve([scan('completed', 100)], {
      'scans.show': () => answer(scan('completed', 100, { finished_at: finished })),
    })
    fake.handle('changes.snapshots', () => ({ runs: [], snapshots: [], notes: [] }))
    const compared: unknown[] = []
    fake.handle('changes.compare', (p: unknown) => {
      compared.push(p)
      return { basis: 'none', from: null, to: null, comparison: null, notes: [], fromCache: false }
    })
    const wrapper = await mountDetail('/scans/scn-1?tab=changes')
    await vi.dynamicImportSettled()
    await flushPromises()
    // The address opened the Changes tab.
    expect(wrapper.find('.el-tabs__item.is-active').text()).toBe('Changes')
    const before = compared.length
    expect(before).toBeGreaterThan(0)
    // A scheduled run started and ended while the page showed the last one as completed.
    finished = '2030-01-08T00:10:00Z'
    fake.emit('scans.runEnded', { accountId: 'acct-aaaa', scanId: 'scn-1' })
    await flushPromises()
    expect(sent('scans.show')).toHaveLength(2)
    expect(compared).toHaveLength(before + 1)
    // Another tab leaves the address; Changes puts itself back in it.
    await wrapper
      .findAll('.el-tabs__item')
      .find((t) => t.text() === 'Overview')!
      .trigger('click')
    await flushPromises()
    expect(wrapper.router.currentRoute.value.query.tab).toBeUndefined()
    await wrapper
      .findAll('.el-tabs__item')
      .find((t) => t.text() === 'Changes')!
      .trigger('click')
    await flushPromises()
    expect(wrapper.router.currentRoute.value.query.tab).toBe('changes')
  })

  it('offers to ask for notifications once while it runs', async () => {
    const N = installNotification('default')
    serve([scan('running', 10)])
    await mountDetail()
    await flushPromises()
    await click('scan-notify')
    expect(N.requestPermission).toHaveBeenCalledTimes(1)
    expect(localStorage.getItem(NOTIFY_ASKED_KEY)).toBe('1')
    expect(byTestId('scan-notify')).toHaveLength(0)
  })
})

describe('starting and stopping', () => {
  it('asks first, naming the account and organization, then starts and follows the run', async () => {
    serve([scan('completed', 100)], {
      'scans.start': () => {
        serveRunning()
        return answer(scan('running', 0))
      },
    })
    const serveRunning = () => serve([scan('running', 0)])
    await mountDetail()
    await flushPromises()
    expect(byTestId('scan-stop')).toHaveLength(0)
    await click('scan-start')
    expect(useConfirmStore().pending?.title).toBe('Start scan')
    await flushPromises()
    expect(text('scan-start-confirm-text')).toBe('Start the scan “Perimeter” now?')
    expect(text('confirm-where')).toBe('Account: Account acct-aaaa · Organization: Acme')
    expect(sent('scans.start')).toHaveLength(0)
    await click('scan-start-confirm')
    await flushPromises()
    expect(sent('scans.start')).toEqual([
      expect.objectContaining({ op: 'scans.start', input: { path: { id: 'scn-1' } } }),
    ])
    expect(text('scan-status')).toBe('running')
    expect(byTestId('scan-stop')).toHaveLength(1)
  })

  it('starts nothing when the question is cancelled', async () => {
    serve([scan('stopped', 40)])
    await mountDetail()
    await flushPromises()
    await click('scan-start')
    useConfirmStore().answer(false)
    await flushPromises()
    expect(sent('scans.start')).toHaveLength(0)
  })

  it('stops a running scan after asking', async () => {
    serve([scan('running', 30)], { 'scans.stop': () => answer(scan('stopping', 30)) })
    await mountDetail()
    await flushPromises()
    await click('scan-stop')
    expect(useConfirmStore().pending?.message).toBe('Stop the scan “Perimeter”?')
    await click('scan-stop-confirm')
    await flushPromises()
    expect(sent('scans.stop')).toHaveLength(1)
  })
})

describe('while the service is out of reach', () => {
  it('disables Start with the reason before anything is asked', async () => {
    serve([scan('completed', 100)])
    await mountDetail()
    await flushPromises()
    fake.emit('connectivity.mode', { workOffline: true, network: true })
    await flushPromises()
    const start = theTestId<HTMLButtonElement>('scan-start')
    expect(start.disabled).toBe(true)
    expect(start.closest('[data-reason]')?.getAttribute('data-reason')).toContain(
      '“Work offline” is on',
    )
    start.click()
    await flushPromises()
    expect(useConfirmStore().pending).toBeNull()
    expect(sent('scans.start')).toHaveLength(0)
    fake.emit('connectivity.mode', { workOffline: false, network: true })
    await flushPromises()
    expect(theTestId<HTMLButtonElement>('scan-start').disabled).toBe(false)
  })
})

describe('the scan statistics and related lists', () => {
  it('draws findings by severity with the same numbers in a hidden table', async () => {
    serve([scan('completed', 100)])
    await mountDetail()
    await flushPromises()
    const table = theTestId('severity-chart-table')
    expect(table.classList.contains('visually-hidden')).toBe(true)
    const cells = [...table.querySelectorAll('tbody tr')].map((tr) =>
      [...tr.children].map((c) => c.textContent?.trim()),
    )
    expect(cells).toEqual([
      ['Critical', '1'],
      ['High', '2'],
      ['Medium', '3'],
      ['Low', '4'],
      ['Info', '5'],
    ])
    expect(text('stat-pci')).toBe('No')
  })

  it('keeps its Changes and the lists the registry relates to a scan as tabs', async () => {
    serve([scan('completed', 100)])
    const wrapper = await mountDetail()
    await flushPromises()
    const labels = wrapper.findAll('.el-tabs__item').map((t) => t.text())
    expect(labels).toEqual([
      'Overview',
      'Changes',
      'Hosts',
      'Vulnerabilities',
      'History',
      'Reports',
    ])
  })

  it('shows the scan’s reports in the Reports tab, with why there is none', async () => {
    fake.handle('exports.list', () => [])
    serve([scan('failed', 40)], {
      'reports.list': () => answer({ data: [], meta: { pagination: { total_count: 0 } } }),
    })
    const wrapper = await mountDetail()
    await flushPromises()
    await wrapper
      .findAll('.el-tabs__item')
      .find((t) => t.text() === 'Reports')!
      .trigger('click')
    await vi.dynamicImportSettled()
    await flushPromises()
    expect(sent('reports.list').at(-1)?.input).toMatchObject({ query: { scan_id: 'scn-1' } })
    expect(text('scan-reports-why')).toBe(
      'Its last run failed, which leaves no report. Reports appear when a run of this scan completes.',
    )
  })
})
