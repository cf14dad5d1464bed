// The exploit-intelligence feeds the sandbox serves for its own CVEs (issue 37 §1), so the demo and
// the tests have real traffic: CISA's KEV catalog as JSON and FIRST's EPSS scores as CSV (plain or
// gzipped), each in two editions. "first" is a few days old; "later" is the current one, in which
// some of the sandbox's CVEs join KEV and some EPSS scores rise past 0.1. Everything follows from
// the seed and the clock's day at start; the feeds are public addresses (no API key), outside /v2.
import { gzipSync } from 'node:zlib'
import { createRng } from '../../engine/rng'
import { FINDINGS } from '../scanning/findings'

/** The editions a feed has. */
export const FEED_EDITIONS = ['first', 'later'] as const
export type FeedEdition = (typeof FEED_EDITIONS)[number]

/** CVEs the feeds list beside the sandbox's own (real files list many more than any account has). */
const OTHER_CVES = 1_500
/** Days between the first edition and the later one. */
const EDITION_GAP_DAYS = 3
const DAY_MS = 86_400_000

/** The sandbox's own CVEs (its findings' templates), sorted. */
export function sandboxCves(): string[] {
  return [...new Set(FINDINGS.flatMap((f) => f.cves))].sort()
}

interface Listing {
  cve: string
  kev: { first: boolean; later: boolean; ransomware: boolean; added: number }
  epss: { first: number; later: number }
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const score = (n: number) => Number(n.toFixed(5))

/** What both editions of both feeds say, from the seed and the day the sandbox started. */
export function feedListings(
  seed: number,
  startedAt: number,
): { listings: Listing[]; later: number } {
  const rng = createRng(seed ^ 0x0fee_d5ee)
  const later = Math.floor(startedAt / DAY_MS) * DAY_MS
  const first = later - EDITION_GAP_DAYS * DAY_MS
  const own = sandboxCves()
  const others = Array.from(
    { length: OTHER_CVES },
    (_, i) => `CVE-20${10 + (i % 16)}-${String(90_000 + i)}`,
  )
  const listings: Listing[] = []
  for (const [i, cve] of [...own, ...others].entries()) {
    const mine = i < own.length
    // Of the sandbox's CVEs about a third are in KEV from the first edition and one in six more
    // joins in the later one; of the others, one in ten.
    const r = rng.next()
    const inFirst = mine ? r < 0.34 : r < 0.1
    const joins = mine && !inFirst && r < 0.5
    const base = rng.next() ** 3 * 0.6
    const rises = mine && base < 0.1 && rng.next() < 0.35
    listings.push({
      cve,
      kev: {
        first: inFirst,
        later: inFirst || joins,
        ransomware: rng.next() < 0.25,
        added: (inFirst ? first : later) - rng.int(0, inFirst ? 900 : 0) * DAY_MS,
      },
      epss: { first: score(base), later: score(rises ? 0.1 + rng.next() * 0.8 : base) },
    })
  }
  return { listings, later }
}

/** The KEV catalog of `edition`, as CISA publishes it (JSON text). */
export function kevFeed(seed: number, startedAt: number, edition: FeedEdition): string {
  const { listings, later } = feedListings(seed, startedAt)
  const released = edition === 'later' ? later : later - EDITION_GAP_DAYS * DAY_MS
  const vulnerabilities = listings
    .filter((l) => l.kev[edition])
    .map((l) => ({
      cveID: l.cve,
      vendorProject: 'Sandbox',
      product: 'Sandbox product',
      vulnerabilityName: `Sandbox listing of ${l.cve}`,
      dateAdded: day(l.kev.added),
      shortDescription: `A vulnerability the sandbox lists as exploited (${l.cve}).`,
      requiredAction:
        'Apply mitigations per vendor instructions or discontinue use of the product.',
      dueDate: day(l.kev.added + 21 * DAY_MS),
      knownRansomwareCampaignUse: l.kev.ransomware ? 'Known' : 'Unknown',
      notes: '',
      cwes: [],
    }))
  return JSON.stringify(
    {
      title: 'CISA Catalog of Known Exploited Vulnerabilities',
      catalogVersion: day(released).replaceAll('-', '.'),
      dateReleased: new Date(released + 14 * 3_600_000).toISOString(),
      count: vulnerabilities.length,
      vulnerabilities,
    },
    null,
    2,
  )
}

/** The EPSS scores of `edition`, as FIRST publishes them (CSV text). */
export function epssFeed(seed: number, startedAt: number, edition: FeedEdition): string {
  const { listings, later } = feedListings(seed, startedAt)
  const date = edition === 'later' ? later : later - EDITION_GAP_DAYS * DAY_MS
  const scores = listings.map((l) => ({ cve: l.cve, epss: l.epss[edition] }))
  // percentile: the share of scored CVEs with an equal or lower score
  const sorted = scores.map((s) => s.epss).sort((a, b) => a - b)
  const atMost = (v: number) => {
    let lo = 0
    let hi = sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (sorted[mid]! <= v) lo = mid + 1
      else hi = mid
    }
    return lo
  }
  const lines = [
    `#model_version:v2025.03.14,score_date:${new Date(date).toISOString().slice(0, 19)}+0000`,
    'cve,epss,percentile',
    ...scores.map(
      (s) => `${s.cve},${s.epss.toFixed(5)},${(atMost(s.epss) / sorted.length).toFixed(5)}`,
    ),
  ]
  return `${lines.join('\n')}\n`
}

/** The feed at `pathname` (/feeds/kev.json, /feeds/epss-later.csv.gz, …), or null. */
export function feedAt(
  pathname: string,
  seed: number,
  startedAt: number,
): { type: string; body: Buffer } | null {
  const m = /^\/feeds\/(kev|epss)(-later)?\.(json|csv|csv\.gz)$/.exec(pathname)
  if (!m) return null
  const edition: FeedEdition = m[2] ? 'later' : 'first'
  if (m[1] === 'kev' && m[3] === 'json')
    return { type: 'application/json', body: Buffer.from(kevFeed(seed, startedAt, edition)) }
  if (m[1] === 'epss' && m[3] !== 'json') {
    const text = Buffer.from(epssFeed(seed, startedAt, edition))
    return m[3] === 'csv.gz'
      ? { type: 'application/gzip', body: gzipSync(text) }
      : { type: 'text/csv', body: text }
  }
  return null
}
