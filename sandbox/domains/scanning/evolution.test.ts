import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../../server'
import { FINDINGS } from './findings'
import { cvssAt, findingsAt } from './evolution'
import { call, startScanningSandbox, type Resource } from './test-harness'

let sb: RunningSandbox
let admin: string
beforeAll(async () => {
  sb = await startScanningSandbox()
})
afterAll(() => sb?.close())
beforeEach(() => {
  sb.reset()
  admin = sb.sessionFor('admin@sandbox.test')
})

const get = async (path: string) => {
  const res = await call(sb, 'GET', path, { token: admin })
  expect(res.status, path).toBe(200)
  return res.json.data
}
const findingsOf = (scanId: string): Promise<Resource[]> =>
  get(`/v2/scans/${scanId}/vulnerabilities?per_page=500`)
const key = (v: Resource) => `${String(v.attributes.host_ip)}|${String(v.attributes.title)}`

async function rerun(scanId: string): Promise<Resource> {
  expect((await call(sb, 'PUT', `/v2/scans/${scanId}/start`, { token: admin })).status).toBe(200)
  sb.advanceClock(3 * 60_000)
  const scan: Resource = await get(`/v2/scans/${scanId}`)
  expect(scan.attributes.status).toBe('completed')
  return scan
}

describe('runs evolve', () => {
  it('seeds completed scans whose latest run found new findings and fixed older ones', async () => {
    const scan: Resource = await get('/v2/scans/scn-001')
    const runs: Resource[] = await get('/v2/scans/scn-001/history')
    expect(runs.length).toBeGreaterThanOrEqual(2)
    const [latest, previous] = runs
    const rows = await findingsOf('scn-001')
    const finished = scan.attributes.finished_at
    const fresh = rows.filter((r) => r.attributes.first_seen_at === finished)
    const fixed = rows.filter((r) => String(r.attributes.last_seen_at) < String(finished))
    expect(fresh.length).toBeGreaterThan(0)
    expect(fixed.length).toBeGreaterThan(0)
    for (const r of fixed) expect(r.attributes.last_seen_at).toBe(previous.attributes.finished_at)
    // The run's count and the scan's are what it saw: fixed rows are not counted.
    expect(rows.length - fixed.length).toBe(latest.attributes.vulnerabilities_count)
    expect(scan.attributes.vulnerabilities_count).toBe(rows.length - fixed.length)
  })

  it('a re-run fixes some findings (kept, last seen before it), finds new ones and rescores a few', async () => {
    const before = await findingsOf('scn-002')
    const prevRun = (await get('/v2/scans/scn-002')).attributes.finished_at
    const openBefore = before.filter((r) => r.attributes.last_seen_at === prevRun)
    const scan = await rerun('scn-002')
    const finished = scan.attributes.finished_at
    const after = await findingsOf('scn-002')
    const openAfter = after.filter((r) => r.attributes.last_seen_at === finished)
    const was = new Map(openBefore.map((r) => [key(r), r]))
    const now = new Map(openAfter.map((r) => [key(r), r]))

    const fixed = openBefore.filter((r) => !now.has(key(r)))
    const fresh = openAfter.filter((r) => !was.has(key(r)))
    expect(fixed.length).toBeGreaterThan(0)
    expect(fresh.length).toBeGreaterThan(0)
    for (const r of fixed) {
      const kept = after.find((a) => a.id === r.id)
      expect(kept?.attributes.last_seen_at).toBe(prevRun)
    }
    for (const r of fresh) expect(r.attributes.first_seen_at).toBe(finished)
    // Still open: same id, first seen kept.
    const still = openAfter.filter((r) => was.has(key(r)))
    for (const r of still) {
      expect(r.id).toBe(was.get(key(r))!.id)
      expect(r.attributes.first_seen_at).toBe(was.get(key(r))!.attributes.first_seen_at)
    }
    expect(scan.attributes.vulnerabilities_count).toBe(openAfter.length)
    const total = (await get('/v2/vulnerabilities/total_widget?scan_id=scn-002')).total
    expect(total).toBe(openAfter.length)
  })

  it('is the same story for the same seed', async () => {
    await rerun('scn-003')
    const first = (await findingsOf('scn-003')).map((r) => [r.id, r.attributes.cvss_score])
    sb.reset()
    admin = sb.sessionFor('admin@sandbox.test')
    await rerun('scn-003')
    expect((await findingsOf('scn-003')).map((r) => [r.id, r.attributes.cvss_score])).toEqual(first)
  })
})

describe('findingsAt and cvssAt', () => {
  it('fix one and find one per host at each re-run, and rescore a few findings', () => {
    let rescored = 0
    for (let s = 1; s <= 20; s++) {
      const ip = `203.0.113.${s}`
      const at = (e: number) => findingsAt(`scn-${s}`, ip, e).map((f) => f.template.code)
      const [e0, e1, e2] = [at(0), at(1), at(2)]
      expect(e1.filter((c) => !e0.includes(c))).toHaveLength(1)
      expect(e0.filter((c) => !e1.includes(c))).toHaveLength(1)
      expect(e2.filter((c) => !e1.includes(c))).toHaveLength(1)
      // The seeded run before the latest lacks one the latest found new.
      expect(at(0).filter((c) => !at(-1).includes(c))).toHaveLength(1)
      for (const f of FINDINGS) if (cvssAt(`scn-${s}`, ip, f, 3) !== f.cvss) rescored++
    }
    expect(rescored).toBeGreaterThan(0)
    for (const f of FINDINGS) {
      expect(cvssAt('scn-1', '203.0.113.1', f, 0)).toBe(f.cvss)
      const score = cvssAt('scn-1', '203.0.113.1', f, 6)
      expect(score).toBeGreaterThanOrEqual(0)
      expect(score).toBeLessThanOrEqual(10)
    }
  })
})
