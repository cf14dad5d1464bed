import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  compareRuns,
  compareSnapshots,
  seenFromTimes,
  withoutTimes,
  type RunTimes,
  type SnapshotFinding,
} from './compare'
import { findingIdentity } from './identity'

const SEVERITY = ['critical', 'high', 'medium', 'low', 'info'] as const

/** Findings from a small space, so two runs share some and differ in others. */
const finding: fc.Arbitrary<SnapshotFinding> = fc.record({
  id: fc.integer({ min: 1, max: 999 }).map((n) => `vul-${n}`),
  title: fc.constantFrom('TLS 1.0 enabled', 'Telnet service exposed', 'SMBv1 enabled', ''),
  severity: fc.constantFrom(...SEVERITY),
  cvss_score: fc.integer({ min: 0, max: 100 }).map((n) => n / 10),
  cve_ids: fc.subarray(['CVE-2011-3389', 'CVE-2017-0144']),
  host_id: fc.constantFrom('hst-1', 'hst-2'),
  host_ip: fc.constantFrom('203.0.113.1', '203.0.113.2', null),
  port: fc.constantFrom(22, 443, null),
  protocol: fc.constantFrom('tcp', null),
  first_seen_at: fc.constant(null),
  last_seen_at: fc.constant(null),
})
const run = fc.array(finding, { maxLength: 25 })

const keys = (rows: readonly SnapshotFinding[]) =>
  [...new Set(rows.map(findingIdentity).filter((k): k is string => k !== null))].sort()

describe('compareSnapshots', () => {
  it('finds nothing new, fixed or changed between a run and itself', () => {
    fc.assert(
      fc.property(run, (a) => {
        const c = compareSnapshots(a, a)
        expect(c.new).toEqual([])
        expect(c.fixed).toEqual([])
        expect(c.changed).toEqual([])
        expect(keys(c.stillOpen)).toEqual(keys(a))
      }),
    )
  })

  it('still open ∪ new is the later run, still open ∪ fixed the earlier, with no overlap', () => {
    fc.assert(
      fc.property(run, run, (a, b) => {
        const c = compareSnapshots(a, b)
        expect(keys([...c.stillOpen, ...c.new])).toEqual(keys(b))
        expect(keys([...c.stillOpen, ...c.fixed])).toEqual(keys(a))
        expect(c.stillOpen.length + c.new.length).toBe(keys(b).length)
        expect(c.stillOpen.length + c.fixed.length).toBe(keys(a).length)
        for (const ch of c.changed ?? []) {
          expect(findingIdentity(ch.before)).toBe(findingIdentity(ch.after))
          expect(c.stillOpen).toContain(ch.after)
        }
      }),
    )
  })

  it('does not depend on the order of either run', () => {
    fc.assert(
      fc.property(
        run.chain((a) => fc.tuple(fc.constant(a), fc.shuffledSubarray(a, { minLength: a.length }))),
        run.chain((b) => fc.tuple(fc.constant(b), fc.shuffledSubarray(b, { minLength: b.length }))),
        ([a, a2], [b, b2]) => {
          expect(compareSnapshots(a2, b2)).toEqual(compareSnapshots(a, b))
        },
      ),
    )
  })

  it('names a rescored finding changed, worst first, and counts rows that name no finding', () => {
    const base = {
      host_id: 'hst-1',
      host_ip: '203.0.113.1',
      port: 443,
      protocol: 'tcp',
      cve_ids: [],
    }
    const tls = {
      ...base,
      id: 'vul-1',
      title: 'TLS 1.0',
      severity: 'medium',
      cvss_score: 5.9,
    } as const
    const ssh = {
      ...base,
      id: 'vul-2',
      title: 'Old SSH',
      severity: 'low',
      cvss_score: 3.7,
    } as const
    const blank = { ...tls, id: 'vul-3', title: ' ' }
    const rce = {
      ...base,
      id: 'vul-4',
      title: 'RCE',
      severity: 'critical',
      cvss_score: 9.8,
    } as const
    const c = compareSnapshots(
      [tls, ssh, blank],
      [{ ...tls, severity: 'high', cvss_score: 7.9 }, rce],
    )
    expect(c.new.map((f) => f.id)).toEqual(['vul-4'])
    expect(c.fixed.map((f) => f.id)).toEqual(['vul-2'])
    expect(c.changed).toEqual([
      { before: tls, after: { ...tls, severity: 'high', cvss_score: 7.9 } },
    ])
    expect(c.leftOut).toBe(1)
  })
})

describe('runs read from first and last seen times', () => {
  const oldest = { started_at: '2025-12-25T10:00:00Z', finished_at: '2025-12-25T10:30:00Z' }
  const previous = { started_at: '2026-01-01T10:00:00Z', finished_at: '2026-01-01T10:30:00Z' }
  const latest = { started_at: '2026-01-08T10:00:00Z', finished_at: '2026-01-08T10:30:00Z' }
  const row = (id: string, first: string | null, last: string | null): SnapshotFinding => ({
    id,
    title: `finding ${id}`,
    severity: 'high',
    cvss_score: 7.5,
    cve_ids: [],
    host_id: 'hst-1',
    host_ip: '203.0.113.1',
    port: 443,
    protocol: 'tcp',
    first_seen_at: first,
    last_seen_at: last,
  })
  /** The latest run against the one before, both from times. */
  const latestTwo = (rows: SnapshotFinding[]) =>
    compareRuns(
      seenFromTimes(rows, previous, latest.started_at),
      seenFromTimes(rows, latest, null),
      {
        changes: false,
      },
    )

  it('tells new, still open and fixed by the latest run from first/last seen; changes unknown', () => {
    const rows = [
      row('new', latest.finished_at, latest.finished_at),
      row('open', '2025-12-01T10:30:00Z', latest.finished_at),
      row('fixed', '2025-12-01T10:30:00Z', previous.finished_at),
      row('fixed-before', '2025-11-01T10:30:00Z', '2025-12-01T10:30:00Z'),
      row('no-times', null, latest.finished_at),
    ]
    const c = latestTwo(rows)
    expect(c.new.map((f) => f.id)).toEqual(['new'])
    expect(c.stillOpen.map((f) => f.id)).toEqual(['open'])
    expect(c.fixed.map((f) => f.id)).toEqual(['fixed'])
    expect(c.changed).toBeNull()
    expect(withoutTimes(rows)).toBe(1)
  })

  it('places a finding in an older run by its window: from its start to the next run’s start', () => {
    const rows = [
      row('only-oldest', oldest.finished_at, oldest.finished_at),
      row('oldest-to-previous', oldest.finished_at, previous.finished_at),
      row('previous-on', previous.finished_at, latest.finished_at),
      row('all-along', oldest.finished_at, latest.finished_at),
    ]
    const ids = (r: RunTimes, next: string | null) => seenFromTimes(rows, r, next).map((f) => f.id)
    expect(ids(oldest, previous.started_at)).toEqual([
      'only-oldest',
      'oldest-to-previous',
      'all-along',
    ])
    expect(ids(previous, latest.started_at)).toEqual([
      'oldest-to-previous',
      'previous-on',
      'all-along',
    ])
    // the oldest run against the latest, skipping the one between
    const c = compareRuns(
      seenFromTimes(rows, oldest, previous.started_at),
      seenFromTimes(rows, latest, null),
      { changes: false },
    )
    expect(c.new.map((f) => f.id)).toEqual(['previous-on'])
    expect(c.fixed.map((f) => f.id).sort()).toEqual(['oldest-to-previous', 'only-oldest'])
    expect(c.stillOpen.map((f) => f.id)).toEqual(['all-along'])
  })

  it('agrees with the snapshots when the rows are the two runs', () => {
    const rows = [
      row('a', previous.finished_at, latest.finished_at),
      row('b', latest.finished_at, latest.finished_at),
      row('c', previous.finished_at, previous.finished_at),
    ]
    const seenIn = (r: RunTimes) =>
      rows.filter((x) => x.last_seen_at! >= r.started_at && x.first_seen_at! <= r.finished_at!)
    const times = latestTwo(rows)
    const exact = compareSnapshots(seenIn(previous), seenIn(latest))
    expect(times.new).toEqual(exact.new)
    expect(times.fixed).toEqual(exact.fixed)
    expect(times.stillOpen).toEqual(exact.stillOpen)
  })

  it('compares a snapshot with a run read from times, changes unknown, a blank row counted once', () => {
    const blank = { ...row('blank', previous.finished_at, latest.finished_at), title: '' }
    const kept = [row('a', previous.finished_at, previous.finished_at), blank]
    const rows = [row('a', previous.finished_at, previous.finished_at), blank]
    const later = seenFromTimes(
      [...rows, row('b', latest.finished_at, latest.finished_at)],
      latest,
      null,
    )
    const c = compareRuns(kept, later, { changes: false })
    expect(c.fixed.map((f) => f.id)).toEqual(['a'])
    expect(c.new.map((f) => f.id)).toEqual(['b'])
    expect(c.changed).toBeNull()
    expect(c.leftOut).toBe(1)
  })
})
