import { flushPromises } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { resetNotifyForTests } from '@/composables/notify'
import { detailName, resourceByKey } from '@/resources'
import { byTestId } from '@/test/dom'
import { useFakeApp } from '@/test/fakeApp'
import { deferred, Fail } from '@/test/fakeScandesk'
import { mountWithApp } from '@/test/mountApp'
import RecentScansPanel from './RecentScansPanel.vue'
import RunningScansPanel from './RunningScansPanel.vue'
import VulnerableHostsPanel from './VulnerableHostsPanel.vue'
import { panelRouter } from './panelTestKit'

// Operations the account's release lacks in a test (all of these exist in every release).
const missing = new Set<string>()
vi.mock('@/stores/scope', async (original) => {
  const real = await original<typeof import('@/stores/scope')>()
  return {
    ...real,
    operationInRelease: (op: string, release: Parameters<typeof real.operationInRelease>[1]) =>
      !missing.has(op) && real.operationInRelease(op, release),
  }
})

const fake = useFakeApp()
beforeEach(() => {
  missing.clear()
  resetNotifyForTests()
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const apiCalls = () =>
  fake.calls.filter((c) => c.channel === 'api.call').map((c) => c.payload as { op: string })

/** A router with the registry's route names the panels link to. */
const router = () =>
  panelRouter({
    '/scans': 'scans',
    '/hosts': 'hosts',
    '/scans/:id': detailName(resourceByKey('scans')!),
    '/hosts/:id': detailName(resourceByKey('hosts')!),
  })
const mount = (component: Parameters<typeof mountWithApp>[0]) =>
  mountWithApp(component, { global: { plugins: [router()] } })

const counts = { critical: 1, high: 2, medium: 0, low: 3, info: 0 }
function scan(id: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    type: 'scan',
    attributes: {
      name: `Scan ${id}`,
      status: 'running',
      progress: 40,
      target_ids: ['tgt-001'],
      scan_profile: 'full_and_fast',
      started_at: '2030-01-01T00:00:00Z',
      hosts_count: 2,
      vulnerabilities_count: 6,
      severity_counts: counts,
      ...extra,
    },
  }
}
function host(id: string, ip: string) {
  return {
    id,
    type: 'host',
    attributes: {
      ip,
      hostname: `${id}.example.com`,
      os: 'Linux',
      open_ports: [22],
      vulnerabilities_count: 7,
      max_severity: 'critical',
      risk_score: 91.4,
    },
  }
}
const answer = (data: unknown[]) => ({
  data: { data, meta: { pagination: { total_count: data.length } } },
  fetchedAt: '2030-01-01T00:00:00Z',
  fromCache: false,
})

describe('the running scans panel', () => {
  it('lists running scans with their progress, each linking to its detail', async () => {
    fake.handle('api.call', () => answer([scan('scn-1'), scan('scn-2', { progress: 75 })]))
    mount(RunningScansPanel)
    await flushPromises()
    const rows = byTestId('running-scan-row')
    expect(rows).toHaveLength(2)
    expect(rows[1].textContent).toContain('Scan scn-2')
    expect(rows[1].textContent).toContain('75%')
    const links = byTestId<HTMLAnchorElement>('running-scan-link')
    expect(links[0].getAttribute('href')).toBe('/scans/scn-1')
    expect(byTestId('running-scans-panel-view-all')[0].getAttribute('href')).toBe('/scans')
    expect(apiCalls()[0].op).toBe('scans.running')
  })

  it('gives every status from the offline copy the copy’s age', async () => {
    vi.useFakeTimers({ now: Date.parse('2030-01-01T02:00:00Z') })
    fake.handle('api.call', () => ({
      ...answer([scan('scn-1', { progress: 3 })]),
      fetchedAt: '2030-01-01T00:00:00Z',
      fromCache: true,
    }))
    mount(RunningScansPanel)
    await vi.advanceTimersByTimeAsync(0)
    const row = byTestId('running-scan-row')[0]
    expect(row.textContent?.replace(/\s+/g, ' ')).toContain(
      'running as of 2 hours ago (offline copy)',
    )
    expect(row.querySelector('[aria-label]')?.getAttribute('aria-label')).toBe(
      'Scan scn-1: 3% done as of 2 hours ago',
    )
  })

  it('asks again with backoff while a scan runs, and stops once none runs', async () => {
    vi.useFakeTimers()
    let n = 0
    fake.handle('api.call', (p: { op: string }) => {
      if (p.op !== 'scans.running') return new Fail({ code: 'NOT_FOUND', message: 'Gone.' })
      n++
      return answer(n < 4 ? [scan('scn-1')] : [])
    })
    mount(RunningScansPanel)
    await vi.advanceTimersByTimeAsync(0)
    expect(n).toBe(1)
    await vi.advanceTimersByTimeAsync(2_000)
    expect(n).toBe(2)
    await vi.advanceTimersByTimeAsync(2_000)
    expect(n).toBe(2) // unchanged: the next one is 4 s later
    await vi.advanceTimersByTimeAsync(2_000)
    expect(n).toBe(3)
    await vi.advanceTimersByTimeAsync(8_000)
    expect(n).toBeGreaterThanOrEqual(4) // and once more: the scan left, scan reads are refreshed
    expect(byTestId('running-scans-panel-empty')[0].textContent).toContain('No scan is running.')
    const settled = n
    await vi.advanceTimersByTimeAsync(120_000)
    expect(n).toBe(settled)
  })

  it('refreshes scan reads and raises one notification when a scan leaves the list', async () => {
    vi.useFakeTimers()
    const shown: string[] = []
    vi.stubGlobal(
      'Notification',
      class {
        static permission = 'granted'
        constructor(title: string) {
          shown.push(title)
        }
      },
    )
    let running = [scan('scn-1'), scan('scn-2')]
    fake.handle('api.call', (p: { op: string; input: { path?: { id: string } } }) => {
      if (p.op === 'scans.show')
        return {
          data: { data: scan(p.input.path!.id, { status: 'completed', progress: 100 }) },
          fetchedAt: '2030-01-01T00:00:00Z',
          fromCache: false,
        }
      return answer(running)
    })
    mount(RunningScansPanel)
    await vi.advanceTimersByTimeAsync(0)
    running = [scan('scn-2')]
    await vi.advanceTimersByTimeAsync(2_000)
    await vi.advanceTimersByTimeAsync(0)
    expect(apiCalls().filter((c) => c.op === 'scans.show')).toHaveLength(1)
    expect(shown).toEqual(['Scan “Scan scn-1” completed'])
    expect(byTestId('running-scan-row')).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(shown).toHaveLength(1)
  })

  it('shows a skeleton only after 100 ms', async () => {
    vi.useFakeTimers()
    const held = deferred<unknown>()
    fake.handle('api.call', () => held.promise)
    mount(RunningScansPanel)
    await vi.advanceTimersByTimeAsync(50)
    expect(byTestId('running-scans-panel-loading')).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(100)
    expect(byTestId('running-scans-panel-loading')).toHaveLength(1)
    held.resolve(answer([]))
    await vi.advanceTimersByTimeAsync(0)
    expect(byTestId('running-scans-panel-loading')).toHaveLength(0)
    expect(byTestId('running-scans-panel-empty')).toHaveLength(1)
  })

  it('shows the error with a Retry that asks again', async () => {
    fake.handle(
      'api.call',
      () => new Fail({ code: 'OFFLINE', message: 'The service cannot be reached.' }),
    )
    const wrapper = mount(RunningScansPanel)
    await flushPromises()
    expect(byTestId('running-scans-panel-error')[0].textContent).toContain(
      'The service cannot be reached.',
    )
    fake.handle('api.call', () => answer([scan('scn-1')]))
    await wrapper
      .findAll('button')
      .find((b) => b.text() === 'Retry')!
      .trigger('click')
    await flushPromises()
    expect(byTestId('running-scans-panel-error')).toHaveLength(0)
    expect(byTestId('running-scan-row')).toHaveLength(1)
  })

  it('says in one line that the release lacks it, and asks nothing', async () => {
    missing.add('scans.running')
    fake.handle('api.call', () => answer([scan('scn-1')]))
    mount(RunningScansPanel)
    await flushPromises()
    expect(byTestId('running-scans-panel-unavailable')[0].textContent?.trim()).toBe(
      'Release latest does not offer running scans.',
    )
    expect(byTestId('running-scans-panel-error')).toHaveLength(0)
    expect(apiCalls()).toHaveLength(0)
  })
})

describe('the recently completed scans panel', () => {
  it('lists the last completed scans with their findings, linking to each', async () => {
    fake.handle('api.call', () =>
      answer([scan('scn-7', { status: 'completed', finished_at: '2030-01-01T02:00:00Z' })]),
    )
    mount(RecentScansPanel)
    await flushPromises()
    const row = byTestId('recent-scan-row')[0]
    expect(row.textContent).toContain('Scan scn-7')
    expect(row.textContent).toContain('1 C')
    expect(row.querySelector('time')?.getAttribute('datetime')).toBe('2030-01-01T02:00:00Z')
    expect(byTestId('recent-scan-link')[0].getAttribute('href')).toBe('/scans/scn-7')
    expect(fake.calls.find((c) => c.channel === 'api.call')?.payload).toMatchObject({
      op: 'scans.recently_completed',
      input: { query: { limit: 5 } },
    })
  })

  it('says so when none has completed', async () => {
    fake.handle('api.call', () => answer([]))
    mount(RecentScansPanel)
    await flushPromises()
    expect(byTestId('recent-scans-panel-empty')[0].textContent).toContain(
      'No scan has completed yet.',
    )
  })

  it('says in one line that the release lacks it', async () => {
    missing.add('scans.recently_completed')
    mount(RecentScansPanel)
    await flushPromises()
    expect(byTestId('recent-scans-panel-unavailable')).toHaveLength(1)
    expect(apiCalls()).toHaveLength(0)
  })
})

describe('the most vulnerable hosts panel', () => {
  it('lists hosts by risk, linking to each host and to the hosts list', async () => {
    fake.handle('api.call', () => answer([host('hst-1', '192.0.2.10'), host('hst-2', '<b>x</b>')]))
    mount(VulnerableHostsPanel)
    await flushPromises()
    const rows = byTestId('vulnerable-host-row')
    expect(rows).toHaveLength(2)
    expect(rows[0].textContent).toContain('192.0.2.10')
    expect(rows[0].textContent).toContain('Risk 91')
    expect(rows[0].textContent).toContain('critical')
    expect(rows[1].querySelector('b')).toBeNull()
    expect(byTestId('vulnerable-host-link')[0].getAttribute('href')).toBe('/hosts/hst-1')
    expect(byTestId('vulnerable-hosts-panel-view-all')[0].getAttribute('href')).toBe('/hosts')
  })

  it('says in one line that the release lacks it', async () => {
    missing.add('hosts.most_vulnerable')
    mount(VulnerableHostsPanel)
    await flushPromises()
    expect(byTestId('vulnerable-hosts-panel-unavailable')[0].textContent).toContain(
      'does not offer most vulnerable hosts',
    )
  })
})
