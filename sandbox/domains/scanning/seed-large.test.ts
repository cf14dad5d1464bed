// The large seed scale: counts, paging and sorting over the bulk rows, demo data untouched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call } from '../../engine/testing'
import { startSandbox, type RunningSandbox } from '../../server'
import { LARGE_SCALE } from './seed-large'
import type { Resource } from './test-harness'

describe('the large seed scale', () => {
  let large: RunningSandbox
  let demo: RunningSandbox
  let token: string
  const get = async (sb: RunningSandbox, path: string, as = token) => {
    const res = await call(sb, 'GET', path, { token: as })
    expect(res.status, path).toBe(200)
    return res.json as {
      data: Resource[]
      meta: { pagination: { total_count: number; total_pages: number } }
    }
  }

  beforeAll(async () => {
    ;[large, demo] = await Promise.all([
      startSandbox({ port: 0, seedScale: 'large', log: () => {} }),
      startSandbox({ port: 0, log: () => {} }),
    ])
    // The administrator of the root organization sees the rows of every organization.
    token = large.sessionFor('admin@sandbox.test')
  }, 60_000)
  afterAll(async () => {
    await Promise.all([large?.close(), demo?.close()])
  })

  it('has the documented totals of targets, scans and vulnerabilities', async () => {
    for (const [path, total] of [
      ['/v2/targets', LARGE_SCALE.targets],
      ['/v2/scans', LARGE_SCALE.scans],
      ['/v2/vulnerabilities', LARGE_SCALE.vulnerabilities],
    ] as const) {
      expect((await get(large, `${path}?per_page=1`)).meta.pagination.total_count, path).toBe(total)
    }
    const hosts = (await get(large, '/v2/hosts?per_page=1')).meta.pagination.total_count
    expect(hosts).toBeGreaterThan(10_000)
  })

  it('keeps the demo rows of the default scale', async () => {
    const demoToken = demo.sessionFor('admin@sandbox.test')
    // Unsorted lists keep insertion order: the demo rows come first at both scales.
    for (const path of ['/v2/targets?per_page=100', '/v2/scans?per_page=100']) {
      const before = (await get(demo, path, demoToken)).data
      const after = (await get(large, path)).data.slice(0, before.length)
      const view = (r: Resource) => [r.id, r.attributes.name, r.attributes.address ?? null]
      expect(after.map(view)).toEqual(before.map(view))
    }
    const vul = await call(large, 'GET', '/v2/vulnerabilities/vul-001', { token })
    const demoVul = await call(demo, 'GET', '/v2/vulnerabilities/vul-001', { token: demoToken })
    expect(vul.json.data.attributes.title).toBe(demoVul.json.data.attributes.title)
  })

  it('pages through 100,000 vulnerabilities without overlap', async () => {
    const first = await get(large, '/v2/vulnerabilities?per_page=100&page=1')
    const second = await get(large, '/v2/vulnerabilities?per_page=100&page=2')
    const last = await get(large, '/v2/vulnerabilities?per_page=100&page=1000')
    expect(first.meta.pagination.total_pages).toBe(1000)
    expect([first, second, last].map((p) => p.data.length)).toEqual([100, 100, 100])
    const ids = new Set([...first.data, ...second.data, ...last.data].map((r) => r.id))
    expect(ids.size).toBe(300)
    expect((await get(large, '/v2/vulnerabilities?per_page=100&page=1001')).data).toEqual([])
  })

  it('sorts, filters and searches at that volume', async () => {
    const byScore = await get(large, '/v2/vulnerabilities?sort=-cvss_score&per_page=200&page=7')
    const scores = byScore.data.map((r) => r.attributes.cvss_score as number)
    expect(scores).toEqual([...scores].sort((a, b) => b - a))

    const critical = await get(large, '/v2/vulnerabilities?severity=critical&sort=created_at')
    expect(critical.meta.pagination.total_count).toBeGreaterThan(1000)
    expect(critical.data.every((r) => r.attributes.severity === 'critical')).toBe(true)
    const times = critical.data.map((r) => String(r.attributes.created_at))
    expect(times).toEqual([...times].sort())

    const names = (await get(large, '/v2/targets?sort=-name&page=300&per_page=50')).data.map((r) =>
      String(r.attributes.name),
    )
    expect(names).toHaveLength(50)
    expect(names).toEqual([...names].sort().reverse())

    const found = await get(large, `/v2/targets?search=${encodeURIComponent(names[0])}`)
    expect(found.data.map((r) => r.attributes.name)).toContain(names[0])
  })

  it('links bulk vulnerabilities to their host and scan', async () => {
    const page = await get(large, '/v2/vulnerabilities?sort=-created_at&per_page=5')
    for (const v of page.data) {
      const host = await call(large, 'GET', `/v2/hosts/${String(v.attributes.host_id)}`, { token })
      expect(host.status).toBe(200)
      expect(host.json.data.attributes.ip).toBe(v.attributes.host_ip)
      const scan = await call(large, 'GET', `/v2/scans/${String(v.attributes.scan_id)}`, { token })
      expect(scan.json.data.attributes.status).toBe('completed')
    }
  })

  it('is the same for the same seed (a reset seeds it again)', async () => {
    const view = (r: Resource) => [r.id, r.attributes.title, r.attributes.host_ip]
    const path = '/v2/vulnerabilities?per_page=50&page=1500'
    const before = (await get(large, path)).data.map(view)
    large.reset()
    token = large.sessionFor('admin@sandbox.test')
    expect((await get(large, path)).data.map(view)).toEqual(before)
  })
})
