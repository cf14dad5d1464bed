import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseEpssScores, type EpssScore } from './epss'
import { parseKevCatalog, type KevEntry } from './kev'
import {
  CRITICALITIES,
  EXPOSURES,
  prioritize,
  tierRank,
  type PackSource,
  type PriorityInput,
} from './priority'

// A real entry of CISA's catalog, as published (known_exploited_vulnerabilities.json).
const LOG4J = {
  cveID: 'CVE-2021-44228',
  vendorProject: 'Apache',
  product: 'Log4j2',
  vulnerabilityName: 'Apache Log4j2 Remote Code Execution Vulnerability',
  dateAdded: '2021-12-10',
  shortDescription:
    'Apache Log4j2 contains a vulnerability where JNDI features do not protect against attacker-controlled JNDI-related endpoints, allowing for remote code execution.',
  requiredAction:
    'For all affected software assets for which updates exist, the only acceptable remediation actions are: 1) Apply updates; OR 2) remove affected assets from agency networks.',
  dueDate: '2021-12-24',
  knownRansomwareCampaignUse: 'Known',
  notes: 'https://nvd.nist.gov/vuln/detail/CVE-2021-44228',
  cwes: ['CWE-20', 'CWE-400', 'CWE-502'],
}
const catalogText = (vulnerabilities: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    title: 'CISA Catalog of Known Exploited Vulnerabilities',
    catalogVersion: '2026.11.30',
    dateReleased: '2026-11-30T14:00:24.6783Z',
    count: vulnerabilities.length,
    vulnerabilities,
    ...extra,
  })

// FIRST's first line and header, as published in epss_scores-2024-06-10.csv.
const EPSS_HEAD =
  '#model_version:v2023.03.01,score_date:2024-06-10T00:00:00+0000\ncve,epss,percentile\n'

describe('the KEV catalog parser', () => {
  it('accepts the published format, keeping what the ranking needs', () => {
    const parsed = parseKevCatalog(catalogText([LOG4J]))
    expect(parsed).toEqual({
      ok: true,
      catalog: {
        edition: '2026.11.30',
        released: '2026-11-30T14:00:24.6783Z',
        entries: [
          {
            cve: 'CVE-2021-44228',
            dateAdded: '2021-12-10',
            dueDate: '2021-12-24',
            ransomware: true,
            name: 'Apache Log4j2 Remote Code Execution Vulnerability',
          },
        ],
      },
    })
  })

  it.each([
    ['not JSON', '{"catalogVersion":', /is not JSON/],
    [
      'a field missing',
      catalogText([{ ...LOG4J, dateAdded: undefined }]),
      /vulnerabilities\[0\]\.dateAdded/,
    ],
    [
      'an impossible date',
      catalogText([{ ...LOG4J, dueDate: '2021-02-30' }]),
      /vulnerabilities\[0\]\.dueDate is not a real calendar date/,
    ],
    [
      'a bad CVE',
      catalogText([{ ...LOG4J, cveID: 'CVE-21-1' }]),
      /vulnerabilities\[0\]\.cveID must be a CVE/,
    ],
    [
      'an unknown ransomware word',
      catalogText([{ ...LOG4J, knownRansomwareCampaignUse: 'Yes' }]),
      /knownRansomwareCampaignUse/,
    ],
    ['a count that disagrees', catalogText([LOG4J], { count: 2 }), /count says 2 but it lists 1/],
    [
      'a CVE twice',
      catalogText([LOG4J, LOG4J]),
      /vulnerabilities\[1\]\.cveID CVE-2021-44228 is listed twice/,
    ],
    ['no version', catalogText([LOG4J], { catalogVersion: '' }), /catalogVersion is required/],
  ])('refuses %s, naming the field', (_what, text, message) => {
    const parsed = parseKevCatalog(text)
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.problem.message).toMatch(message)
  })
})

describe('the EPSS scores parser', () => {
  it('accepts the published format (an offset without a colon, scientific notation)', () => {
    const parsed = parseEpssScores(
      `${EPSS_HEAD}CVE-1999-0001,0.01141,0.83608\nCVE-2021-44228,0.97565,0.99996\nCVE-2024-0001,4.3e-4,0.1\n`,
    )
    expect(parsed.ok).toBe(true)
    if (!parsed.ok) return
    expect(parsed.scores.model).toBe('v2023.03.01')
    expect(parsed.scores.scoreDate).toBe('2024-06-10T00:00:00+00:00')
    expect(parsed.scores.scores.get('CVE-2021-44228')).toEqual({
      epss: 0.97565,
      percentile: 0.99996,
    })
    expect(parsed.scores.scores.get('CVE-2024-0001')).toEqual({ epss: 0.00043, percentile: 0.1 })
    expect(parsed.scores.scores.size).toBe(3)
  })

  it.each([
    [
      'no first line',
      'cve,epss,percentile\nCVE-1999-0001,0.1,0.2\n',
      /line 1 must be #model_version/,
    ],
    [
      'another header',
      '#model_version:v1,score_date:2024-06-10T00:00:00Z\ncve,score\n',
      /line 2 must be the header/,
    ],
    ['a field too many', `${EPSS_HEAD}CVE-1999-0001,0.1,0.2,x\n`, /line 3 has 4 fields/],
    [
      'a score above 1',
      `${EPSS_HEAD}CVE-1999-0001,0.1,0.2\nCVE-1999-0002,1.5,0.2\n`,
      /line 4 has an EPSS score/,
    ],
    [
      'a percentile that is no number',
      `${EPSS_HEAD}CVE-1999-0001,0.1,high\n`,
      /line 3 has a percentile/,
    ],
    [
      'a CVE twice',
      `${EPSS_HEAD}CVE-1999-0001,0.1,0.2\nCVE-1999-0001,0.1,0.2\n`,
      /line 4 lists CVE-1999-0001 a second time/,
    ],
    [
      'a line without a CVE',
      `${EPSS_HEAD}cve-1999-1,0.1,0.2\n`,
      /line 3 does not start with a CVE/,
    ],
  ])('refuses %s, naming the line', (_what, text, message) => {
    const parsed = parseEpssScores(text)
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.problem.message).toMatch(message)
  })
})

const source = (stale = false): PackSource => ({
  edition: 'e1',
  date: '2026-11-30T00:00:00Z',
  stale,
})
const kevOf = (entries: KevEntry[], stale = false): PriorityInput['kev'] => ({
  source: source(stale),
  entry: (cve) => entries.find((e) => e.cve === cve),
})
const epssOf = (scores: Record<string, EpssScore>, stale = false): PriorityInput['epss'] => ({
  source: source(stale),
  score: (cve) => scores[cve],
})

const CVES = ['CVE-2026-0001', 'CVE-2026-0002', 'CVE-2026-0003']
const arbEntry = (cve: string) =>
  fc.record({
    cve: fc.constant(cve),
    dateAdded: fc.constantFrom('2026-01-05', '2026-03-02', '2026-10-01'),
    dueDate: fc.constantFrom('2026-01-26', '2026-03-23', '2026-12-31'),
    ransomware: fc.boolean(),
    name: fc.constant(null),
  })
const arbScore = fc.record({
  epss: fc.double({ min: 0, max: 1, noNaN: true }),
  percentile: fc.double({ min: 0, max: 1, noNaN: true }),
})
const arbFinding = fc.record({
  severity: fc.constantFrom('critical', 'high', 'medium', 'low', 'info'),
  cves: fc.subarray(CVES),
  criticality: fc.option(fc.constantFrom(...CRITICALITIES)),
  exposure: fc.option(fc.constantFrom(...EXPOSURES)),
  policyDue: fc.option(fc.constantFrom('2026-02-01T00:00:00.000Z', '2027-06-01T00:00:00.000Z')),
})
const arbKev = fc.option(
  fc.record({
    entries: fc.subarray(CVES).chain((cves) => fc.tuple(...cves.map(arbEntry))),
    stale: fc.boolean(),
  }),
)
const arbEpss = fc.option(
  fc.record({ scores: fc.dictionary(fc.constantFrom(...CVES), arbScore), stale: fc.boolean() }),
)
type KevArb = { entries: KevEntry[]; stale: boolean } | null
type EpssArb = { scores: Record<string, EpssScore>; stale: boolean } | null
const input = (
  f: Omit<PriorityInput, 'kev' | 'epss'>,
  kev: KevArb,
  epss: EpssArb,
): PriorityInput => ({
  ...f,
  kev: kev && kevOf(kev.entries, kev.stale),
  epss: epss && epssOf(epss.scores, epss.stale),
})
const rank = (i: PriorityInput) => tierRank(prioritize(i).tier)

describe('the priority rule', () => {
  it('reads as the issue says for a KEV finding with a high EPSS on an internet-facing crown jewel', () => {
    const p = prioritize({
      severity: 'high',
      cves: ['CVE-2021-44228'],
      kev: {
        source: { edition: '2026.11.30', date: '2026-11-30T14:00:24Z', stale: false },
        entry: () => ({
          cve: 'CVE-2021-44228',
          dateAdded: '2026-03-02',
          dueDate: '2026-03-23',
          ransomware: true,
          name: null,
        }),
      },
      epss: {
        source: { edition: 'v2025.03.14', date: '2026-11-30T00:00:00Z', stale: false },
        score: () => ({ epss: 0.91, percentile: 0.993 }),
      },
      criticality: 'crown-jewel',
      exposure: 'internet-facing',
      policyDue: '2026-04-01T00:00:00.000Z',
    })
    expect(p.tier).toBe('fix-now')
    expect(p.sentence).toBe(
      'In CISA KEV since 2026-03-02 (ransomware use known) (catalog 2026.11.30); ' +
        'EPSS 0.91, 99th percentile (model v2025.03.14, scores of 2026-11-30); high; ' +
        "on an internet-facing crown jewel; due 2026-03-23 by KEV, earlier than the remediation policy's 2026-04-01",
    )
    expect(p.due).toEqual({ at: '2026-03-23T23:59:59.999Z', by: 'kev' })
  })

  it('says unknown, not low, where no pack was imported, and never ranks such a finding Watch', () => {
    const p = prioritize({ severity: 'low', cves: ['CVE-2026-0001'], kev: null, epss: null })
    expect(p.exploitation).toBe('unknown')
    expect(p.sentence).toMatch(
      /^KEV unknown \(no catalog imported\); EPSS unknown \(no scores imported\); low$/,
    )
    expect(p.tier).toBe('plan')
  })

  it('never lowers a tier when a CVE joins KEV', () => {
    fc.assert(
      fc.property(arbFinding, arbKev, arbEpss, arbEntry(CVES[0]!), (f, kev, epss, joined) => {
        const withCve = { ...f, cves: [...new Set([CVES[0]!, ...f.cves])] }
        const before = input(withCve, kev, epss)
        const entries = [...(kev?.entries ?? []).filter((e) => e.cve !== joined.cve), joined]
        const after = input(withCve, { entries, stale: kev?.stale ?? false }, epss)
        expect(rank(after)).toBeLessThanOrEqual(rank(before))
      }),
    )
  })

  it('judges by a CVE likely by its percentile alone, even beside a higher but unlikely score', () => {
    // fast-check's counterexample from CI: a second CVE's score rising from 0 to the smallest
    // number hid the first CVE's 95th percentile and lowered the tier
    const f = {
      severity: 'high' as const,
      cves: [CVES[1]!, CVES[0]!],
      criticality: null,
      exposure: null,
      policyDue: null,
    }
    const at = (second: number) =>
      prioritize(
        input(f, null, {
          scores: {
            [CVES[0]!]: { epss: 0, percentile: 0.95 },
            [CVES[1]!]: { epss: second, percentile: 0 },
          },
          stale: false,
        }),
      )
    expect(at(0).exploitation).toBe('likely')
    expect(at(5e-324).exploitation).toBe('likely')
    expect(at(5e-324).epss?.cve).toBe(CVES[0])
    expect(at(5e-324).tier).toBe(at(0).tier)
  })

  it('never lowers a tier when an EPSS score or percentile rises', () => {
    fc.assert(
      fc.property(arbFinding, arbKev, arbEpss, arbScore, arbScore, (f, kev, epss, a, b) => {
        const low = {
          epss: Math.min(a.epss, b.epss),
          percentile: Math.min(a.percentile, b.percentile),
        }
        const high = {
          epss: Math.max(a.epss, b.epss),
          percentile: Math.max(a.percentile, b.percentile),
        }
        const stale = epss?.stale ?? false
        const scores = epss?.scores ?? {}
        const withCve = { ...f, cves: [...new Set([CVES[1]!, ...f.cves])] }
        const before = input(withCve, kev, { scores: { ...scores, [CVES[1]!]: low }, stale })
        const after = input(withCve, kev, { scores: { ...scores, [CVES[1]!]: high }, stale })
        expect(rank(after)).toBeLessThanOrEqual(rank(before))
      }),
    )
  })

  it('never ranks missing or stale data below the same finding known to be of low risk', () => {
    fc.assert(
      fc.property(arbFinding, fc.boolean(), fc.boolean(), (f, kevGone, epssGone) => {
        // known low: a current catalog without the CVEs, every CVE scored zero
        const zero = Object.fromEntries(f.cves.map((c) => [c, { epss: 0, percentile: 0 }]))
        const known = input(f, { entries: [], stale: false }, { scores: zero, stale: false })
        for (const missing of [
          input(
            f,
            kevGone ? null : { entries: [], stale: true },
            epssGone ? null : { scores: zero, stale: false },
          ),
          input(
            f,
            kevGone ? null : { entries: [], stale: false },
            epssGone ? null : { scores: zero, stale: true },
          ),
          input(f, { entries: [], stale: false }, { scores: {}, stale: false }),
        ])
          expect(rank(missing)).toBeLessThanOrEqual(rank(known))
      }),
    )
  })

  it('takes the KEV due date only where it is earlier than the policy, and says which set it', () => {
    fc.assert(
      fc.property(arbFinding, arbEntry(CVES[0]!), (f, entry) => {
        const p = prioritize(
          input({ ...f, cves: [CVES[0]!] }, { entries: [entry], stale: false }, null),
        )
        const kevDue = `${entry.dueDate}T23:59:59.999Z`
        const expected =
          f.policyDue && f.policyDue <= kevDue
            ? { at: f.policyDue, by: 'policy' }
            : { at: kevDue, by: 'kev' }
        expect(p.due).toEqual(expected)
        expect(p.sentence.includes(`due ${entry.dueDate} by KEV`)).toBe(expected.by === 'kev')
      }),
    )
  })
})
