// Scans through the core against the real sandbox (issue 8): a scan is queued, runs with
// progress by the sandbox clock and finishes with hosts and vulnerabilities that are the same
// every time; a short scan duration lets it finish in real time; scheduled scans start when due.
import { describe, expect, it } from 'vitest'
import type { ApiCallOutput } from '@contract/channels'
import { addAnalyst, startTestCore } from './core-helpers'
import { useSandboxAndCore, type SandboxAndCore } from './fixture'

type Attrs = Record<string, unknown>
type One = { data: { id: string; attributes: Attrs } }
type Many = { data: { id: string; attributes: Attrs }[]; meta?: unknown }

function client(s: SandboxAndCore) {
  const api = async <T = One>(op: string, input?: unknown): Promise<T> => {
    const out = await s.t.ok<ApiCallOutput>('api.call', { accountId: s.account.id, op, input })
    return out.data as T
  }
  const scan = async (id: string) => (await api('scans.show', { path: { id } })).data.attributes
  /** Creates a target and a scan of it (what the quick scan does), not started. */
  const quickScan = async (address: string) => {
    const target = await api('targets.create', { body: { name: `Quick ${address}`, address } })
    return api('scans.create', {
      body: { name: 'Quick scan', target_ids: [target.data.id], scan_profile: 'full_and_fast' },
    })
  }
  /** What a finished scan found, in a stable order. */
  const findings = async (id: string) => {
    const hosts = await api<Many>('scans.hosts', { path: { id }, query: { per_page: 100 } })
    const vulns = await api<Many>('scans.vulnerabilities', {
      path: { id },
      query: { per_page: 100, sort: 'title' },
    })
    return {
      hosts: hosts.data
        .map((h) => [h.attributes.ip, h.attributes.os, h.attributes.open_ports])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      vulnerabilities: vulns.data
        .map((v) => [v.attributes.host_ip, v.attributes.title, v.attributes.severity])
        .sort((a, b) => a.join('|').localeCompare(b.join('|'))),
    }
  }
  return { api, scan, quickScan, findings }
}

describe('a scan over the sandbox clock', () => {
  const s = useSandboxAndCore({ each: 'analyst' })
  const { api, scan, quickScan, findings } = client(s)

  it('is queued, runs with growing progress and completes with hosts and vulnerabilities', async () => {
    const created = await quickScan('192.0.2.0/29')
    const id = created.data.id
    expect(created.data.attributes).toMatchObject({ status: 'queued', progress: 0 })

    const started = await api('scans.start', { path: { id } })
    expect(started.data.attributes).toMatchObject({ status: 'running', progress: 0 })
    expect((await api<Many>('scans.running')).data.map((r) => r.id)).toContain(id)

    s.sandbox.advanceClock(30_000)
    const quarter = await scan(id)
    expect(quarter.status).toBe('running')
    expect(quarter.progress).toBeGreaterThanOrEqual(25)
    expect(quarter.progress).toBeLessThan(50)

    s.sandbox.advanceClock(60_000)
    const most = await scan(id)
    expect(most.status).toBe('running')
    expect(most.progress).toBeGreaterThanOrEqual(75)
    expect(most.progress).toBeLessThan(100)

    s.sandbox.advanceClock(30_000)
    const done = await scan(id)
    expect(done).toMatchObject({ status: 'completed', progress: 100, hosts_count: 6 })
    expect(Date.parse(String(done.finished_at)) - Date.parse(String(done.started_at))).toBe(120_000)
    const found = await findings(id)
    // the first six scanned addresses of the /29 (network and broadcast left out)
    expect(found.hosts.map((h) => h[0])).toEqual([1, 2, 3, 4, 5, 6].map((n) => `192.0.2.${n}`))
    expect(found.vulnerabilities.length).toBe(done.vulnerabilities_count)
    expect(found.vulnerabilities.length).toBeGreaterThanOrEqual(4)
    const counts = done.severity_counts as Record<string, number>
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(done.vulnerabilities_count)

    expect((await api<Many>('scans.running')).data.map((r) => r.id)).not.toContain(id)
    const recent = await api<Many>('scans.recently_completed', { query: { limit: 1 } })
    expect(recent.data.map((r) => r.id)).toEqual([id])
    const history = await api<Many>('scans.history', { path: { id } })
    expect(history.data.map((r) => r.attributes.status)).toEqual(['completed'])
    const target = await api('targets.show', {
      path: { id: (done.target_ids as string[])[0] },
    })
    expect(target.data.attributes.last_scanned_at).toBe(done.finished_at)
  })

  it('finds the same hosts and vulnerabilities every time', async () => {
    const run = async () => {
      const { data } = await quickScan('10.0.7.1-3')
      await api('scans.start', { path: { id: data.id } })
      s.sandbox.advanceClock(121_000)
      expect((await scan(data.id)).status).toBe('completed')
      return { id: data.id, ...(await findings(data.id)) }
    }
    const first = await run()
    expect(first.hosts.map((h) => h[0])).toEqual(['10.0.7.1', '10.0.7.2', '10.0.7.3'])

    // a fresh sandbox and a fresh account give the same ids, so the same findings
    await s.t.close()
    s.sandbox.reset()
    s.t = await startTestCore()
    s.account = await addAnalyst(s.t, s.sandbox)
    const second = await run()
    expect(second).toEqual(first)

    // running it again reaches the same hosts; the run evolved (docs/sandbox.md, "Runs evolve"):
    // every earlier finding is still listed (the fixed ones kept with their last_seen_at) and
    // new ones were found
    await api('scans.start', { path: { id: second.id } })
    s.sandbox.advanceClock(121_000)
    const again = await findings(second.id)
    const named = (hosts: unknown[][]) => hosts.map(([ip, os]) => [ip, os])
    expect(named(again.hosts)).toEqual(named(first.hosts)) // open ports follow the findings
    const found = (rows: unknown[][]) => rows.map(([ip, title]) => `${String(ip)}|${String(title)}`)
    expect(found(again.vulnerabilities)).toEqual(
      expect.arrayContaining(found(first.vulnerabilities)),
    )
    expect(again.vulnerabilities.length).toBeGreaterThan(first.vulnerabilities.length)
    const history = await api<Many>('scans.history', { path: { id: second.id } })
    expect(history.data.map((r) => r.attributes.status)).toEqual(['completed', 'completed'])
  })

  it('stops a running scan and records the partial run', async () => {
    const { data } = await quickScan('198.51.100.20')
    await api('scans.start', { path: { id: data.id } })
    s.sandbox.advanceClock(40_000)
    const stopped = await api('scans.stop', { path: { id: data.id } })
    expect(stopped.data.attributes.status).toBe('stopped')
    s.sandbox.advanceClock(200_000)
    expect((await scan(data.id)).status).toBe('stopped')
    const history = await api<Many>('scans.history', { path: { id: data.id } })
    expect(history.data.map((r) => r.attributes.status)).toEqual(['stopped'])
    const again = await s.t.err('api.call', {
      accountId: s.account.id,
      op: 'scans.stop',
      input: { path: { id: data.id } },
    })
    expect(again).toMatchObject({ code: 'CONFLICT', status: 409 })
  })

  it('starts a scheduled scan when its schedule is due and completes it', async () => {
    const now = Date.now()
    const start = new Date(now + 3_600_000).toISOString().slice(0, 16)
    const schedule = await api('schedules.create', {
      body: { name: 'Hourly test', frequency: 'daily', start_at: start, time_zone: 'UTC' },
    })
    const target = await api('targets.create', { body: { name: 'Sched', address: '192.0.2.77' } })
    const created = await api('scans.create', {
      body: {
        name: 'Nightly',
        target_ids: [target.data.id],
        scan_profile: 'discovery',
        schedule_id: schedule.data.id,
      },
    })
    expect(created.data.attributes).toMatchObject({
      status: 'scheduled',
      schedule_next_time: `${start}:00.000Z`,
    })
    const upcoming = await api<Many>('scans.upcoming')
    expect(upcoming.data.map((r) => r.id)).toContain(created.data.id)

    s.sandbox.advanceClock(3_600_000 + 60_000)
    const running = await scan(created.data.id)
    expect(running.status).toBe('running')
    expect(running.started_at).toBe(`${start}:00.000Z`)
    expect(running.schedule_next_time).toBe(
      new Date(Date.parse(`${start}:00.000Z`) + 86_400_000).toISOString(),
    )
    s.sandbox.advanceClock(120_000)
    expect(await scan(created.data.id)).toMatchObject({ status: 'completed', hosts_count: 1 })
  })
})

describe('a scan with a short duration (sandbox option scanDurationMs)', () => {
  const s = useSandboxAndCore({ each: 'analyst', sandbox: { scanDurationMs: 1_500 } })
  const { api, scan, quickScan } = client(s)

  it('finishes in real time without moving the clock', async () => {
    const { data } = await quickScan('192.0.2.0/30')
    await api('scans.start', { path: { id: data.id } })
    let attrs = await scan(data.id)
    const seen = new Set<string>()
    for (let i = 0; i < 100 && attrs.status !== 'completed'; i++) {
      seen.add(String(attrs.status))
      await new Promise((r) => setTimeout(r, 100))
      attrs = await scan(data.id)
    }
    expect(seen).toContain('running')
    expect(attrs).toMatchObject({ status: 'completed', progress: 100, hosts_count: 2 })
    expect(Date.parse(String(attrs.finished_at)) - Date.parse(String(attrs.started_at))).toBe(1_500)
  })
})
