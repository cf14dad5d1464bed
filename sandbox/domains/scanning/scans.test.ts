import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../../server'
import { call, startScanningSandbox, type Resource } from './test-harness'

let sb: RunningSandbox
let admin: string
const get = (path: string, token = admin) => call(sb, 'GET', path, { token })
const put = (path: string, body?: unknown) => call(sb, 'PUT', path, { token: admin, body })
const post = (path: string, body: unknown) => call(sb, 'POST', path, { token: admin, body })

beforeAll(async () => {
  sb = await startScanningSandbox()
})
afterAll(() => sb?.close())
beforeEach(() => {
  sb.reset()
  admin = sb.sessionFor('admin@sandbox.test')
})

describe('upcoming scans', () => {
  it('are ordered by next run ascending, honour limit and show only the caller’s organization', async () => {
    const analyst = sb.sessionFor('analyst@sandbox.test')
    const all = await get('/v2/scans/upcoming_scans', analyst)
    expect(all.status).toBe(200)
    const times: string[] = all.json.data.map((d: Resource) => d.attributes.next_scheduled_at)
    expect(times.length).toBeGreaterThan(5)
    expect([...times].sort()).toEqual(times)
    const now = Date.now()
    for (const t of times) expect(Date.parse(t)).toBeGreaterThan(now - 60_000)
    expect(Date.parse(times[times.length - 1]) - now).toBeLessThan(15 * 86_400_000)

    const five = await get('/v2/scans/upcoming_scans?limit=5', analyst)
    expect(five.json.data.map((d: Resource) => d.id)).toEqual(
      all.json.data.slice(0, 5).map((d: Resource) => d.id),
    )

    const globex = await get('/v2/scans/upcoming_scans', sb.sessionFor('customer@globex.test'))
    const ids: string[] = globex.json.data.map((d: Resource) => d.id)
    expect(ids).toEqual(['scn-024'])
    expect(all.json.data.map((d: Resource) => d.id)).not.toContain('scn-024')
  })

  it('answer 401 without a session', async () => {
    expect((await call(sb, 'GET', '/v2/scans/upcoming_scans')).status).toBe(401)
  })
})

describe('starting and stopping a scan', () => {
  it('moves queued → running → stopped and refuses the other moves with 409', async () => {
    expect((await get('/v2/scans/scn-017')).json.data.attributes.status).toBe('queued')
    const started = await put('/v2/scans/scn-017/start')
    expect(started.status).toBe(200)
    expect(started.json.data.attributes).toMatchObject({ status: 'running', progress: 0 })

    const again = await put('/v2/scans/scn-017/start')
    expect(again.status).toBe(409)
    expect(JSON.stringify(again.json)).toContain('is running')

    const stopped = await put('/v2/scans/scn-017/stop')
    expect(stopped.json.data.attributes.status).toBe('stopped')
    expect((await put('/v2/scans/scn-017/stop')).status).toBe(409)
    expect((await put('/v2/scans/scn-026/stop')).status).toBe(409) // stopping
    const history = await get('/v2/scans/scn-017/history')
    expect(history.json.data.map((r: Resource) => r.attributes.status)).toEqual(['stopped'])

    // completed, failed and stopped scans can run again
    for (const id of ['scn-001', 'scn-029', 'scn-017']) {
      expect((await put(`/v2/scans/${id}/start`)).json.data.attributes.status).toBe('running')
    }
    expect((await call(sb, 'DELETE', '/v2/scans/scn-001', { token: admin })).status).toBe(409)
  })

  it('completes a running scan with the sandbox clock and records hosts, findings and a run', async () => {
    const before = await get('/v2/scans/scn-016')
    expect(before.json.data.attributes).toMatchObject({ status: 'running', progress: 10 })
    expect((await get('/v2/scans/scn-016/vulnerabilities')).json.data).toEqual([])

    sb.advanceClock(48_000)
    const half = (await get('/v2/scans/scn-016')).json.data.attributes
    expect(half.status).toBe('running')
    expect(half.progress).toBeGreaterThanOrEqual(50)
    expect(half.progress).toBeLessThan(100)
    expect((await get('/v2/scans/running')).json.data.map((s: Resource) => s.id)).toContain(
      'scn-016',
    )

    sb.advanceClock(2 * 60_000)
    const done = (await get('/v2/scans/scn-016')).json.data.attributes
    expect(done).toMatchObject({ status: 'completed', progress: 100 })
    const vulns = (await get('/v2/scans/scn-016/vulnerabilities?per_page=100')).json.data
    expect(vulns.length).toBeGreaterThanOrEqual(4)
    expect(vulns.length).toBe(done.vulnerabilities_count)
    const hosts = (await get('/v2/scans/scn-016/hosts')).json.data
    expect(hosts.length).toBe(done.hosts_count)
    expect(hosts.length).toBeGreaterThan(0)
    const stats = (await get('/v2/scans/scn-016/statistics')).json.data
    expect(stats.duration_seconds).toBe(120)
    expect(stats.severity_counts).toEqual(done.severity_counts)
    const runs = (await get('/v2/scans/scn-016/history')).json.data
    expect(runs.map((r: Resource) => r.attributes.status)).toEqual(['completed'])
    expect((await get('/v2/scans/running')).json.data.map((s: Resource) => s.id)).not.toContain(
      'scn-016',
    )
    expect((await get('/v2/scans/recently_completed?limit=1')).json.data[0].id).toBe('scn-016')
  })

  it('lists the activated scan profiles of the caller’s own organization, even for the root administrator', async () => {
    const codes = (token: string) =>
      get('/v2/scans/scan_profiles', token).then((r) =>
        r.json.data.map((p: Resource) => p.attributes.code).sort(),
      )
    const mine = await codes(admin)
    expect(mine).toEqual(['discovery', 'full_and_fast', 'pci_external', 'web_application'])
    expect(await codes(sb.sessionFor('customer@globex.test'))).toEqual(mine)
  })

  it('runs a wizard scan with new targets through to completion', async () => {
    const res = await post('/v2/scans/wizard', {
      name: 'Wizard scan',
      new_targets: [{ address: '198.51.100.0/30' }],
      scan_profile: 'discovery',
      start_now: true,
    })
    expect(res.status).toBe(201)
    const scan = res.json.data
    expect(scan.attributes.status).toBe('running')
    const target = await get(`/v2/targets/${scan.attributes.target_ids[0]}`)
    expect(target.json.data.attributes).toMatchObject({
      address: '198.51.100.0/30',
      hosts_count: 2,
    })
    sb.advanceClock(3 * 60_000)
    const hosts = (await get(`/v2/scans/${scan.id}/hosts`)).json.data
    expect(hosts.map((h: Resource) => h.attributes.ip)).toEqual(['198.51.100.1', '198.51.100.2'])

    const bad = await post('/v2/scans', {
      name: 'x',
      target_ids: ['tgt-999'],
      scan_profile: 'nope',
    })
    expect(bad.status).toBe(422)
    expect(JSON.stringify(bad.json)).toContain('tgt-999')
  })
})
