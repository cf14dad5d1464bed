import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseEpssScores } from '@contract/intel/epss'
import { parseKevCatalog } from '@contract/intel/kev'
import { startSandbox, type RunningSandbox } from '../../server'
import { epssFeed, kevFeed, sandboxCves } from './feeds'

let sb: RunningSandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, log: () => undefined })
})
afterAll(() => sb?.close())

const get = (path: string) => fetch(`${sb.baseUrl}${path}`)

async function kev(path: string) {
  const res = await get(path)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('application/json')
  const parsed = parseKevCatalog(await res.text())
  if (!parsed.ok) throw new Error(parsed.problem.message)
  return parsed.catalog
}

async function epss(path: string) {
  const res = await get(path)
  expect(res.status).toBe(200)
  const bytes = Buffer.from(await res.arrayBuffer())
  const text = path.endsWith('.gz') ? gunzipSync(bytes).toString() : bytes.toString()
  const parsed = parseEpssScores(text)
  if (!parsed.ok) throw new Error(parsed.problem.message)
  return parsed.scores
}

describe('the sandbox’s exploit-intelligence feeds', () => {
  it('serves KEV in CISA’s format without an API key, the later edition adding the sandbox’s CVEs', async () => {
    const first = await kev('/feeds/kev.json')
    const later = await kev('/feeds/kev-later.json')
    expect(later.released > first.released).toBe(true)
    expect(later.edition).not.toBe(first.edition)
    const firstCves = new Set(first.entries.map((e) => e.cve))
    const laterCves = new Set(later.entries.map((e) => e.cve))
    for (const cve of firstCves) expect(laterCves.has(cve)).toBe(true)
    const own = sandboxCves()
    const joined = own.filter((c) => laterCves.has(c) && !firstCves.has(c))
    expect(own.some((c) => firstCves.has(c))).toBe(true)
    expect(joined.length).toBeGreaterThan(0)
    // an entry that joined was added on the later edition's day
    for (const cve of joined)
      expect(later.entries.find((e) => e.cve === cve)!.dateAdded).toBe(later.released.slice(0, 10))
  })

  it('serves EPSS in FIRST’s format, plain and gzipped alike, some of its CVEs rising past 0.1', async () => {
    const first = await epss('/feeds/epss.csv.gz')
    expect([...(await epss('/feeds/epss.csv')).scores]).toEqual([...first.scores])
    const later = await epss('/feeds/epss-later.csv.gz')
    expect(first.model).toBe('v2025.03.14')
    expect(Date.parse(later.scoreDate)).toBeGreaterThan(Date.parse(first.scoreDate))
    for (const cve of sandboxCves()) expect(first.scores.has(cve)).toBe(true)
    const rose = sandboxCves().filter(
      (c) => first.scores.get(c)!.epss < 0.1 && later.scores.get(c)!.epss >= 0.1,
    )
    expect(rose.length).toBeGreaterThan(0)
    for (const [cve, s] of later.scores)
      expect(s.epss).toBeGreaterThanOrEqual(first.scores.get(cve)!.epss)
  })

  it('answers 404 for another address under /feeds/ and 405 for a write', async () => {
    expect((await get('/feeds/kev.csv')).status).toBe(404)
    expect((await get('/feeds/other.json')).status).toBe(404)
    expect((await fetch(`${sb.baseUrl}/feeds/kev.json`, { method: 'POST' })).status).toBe(405)
  })

  it('makes the same feeds from the same seed and day, other feeds from another seed', () => {
    const day = Date.parse('2026-11-30T10:00:00Z')
    expect(kevFeed(7, day, 'later')).toBe(kevFeed(7, day + 3_600_000, 'later'))
    expect(epssFeed(7, day, 'first')).toBe(epssFeed(7, day, 'first'))
    expect(kevFeed(8, day, 'later')).not.toBe(kevFeed(7, day, 'later'))
  })
})
