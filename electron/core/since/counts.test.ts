import { describe, expect, it } from 'vitest'
import { AppFailure } from '@contract/errors'
import type { SnapshotFinding } from '@contract/findings/compare'
import type { SnapshotSummary } from '@contract/changes'
import {
  countSorted,
  expiringExceptions,
  fixedSince,
  MAX_PAGES,
  newFindings,
  PER_PAGE,
  scansCompleted,
  SINCE_NOTE,
  type SinceRead,
} from './counts'
import { SinceService } from './service'

const T = (iso: string) => Date.parse(iso)

/**
 * A list service over `rows`: filters by the query's equality fields and `first_seen_after`
 * (inclusive), sorts by `sort` (the sandbox's rule, '-' for descending), pages, gives the total;
 * records every query asked.
 */
function listOf(rows: { id: string; attributes: Record<string, unknown> }[]) {
  const asked: Record<string, unknown>[] = []
  const read: SinceRead = async (_op, { query }) => {
    asked.push(query)
    const {
      page = 1,
      per_page = 25,
      sort,
      first_seen_after: from,
      ...filters
    } = query as Record<string, never>
    let out = rows.filter((r) => Object.entries(filters).every(([k, v]) => r.attributes[k] === v))
    if (from)
      out = out.filter((r) => Date.parse(String(r.attributes.first_seen_at)) >= Date.parse(from))
    if (sort) {
      const desc = (sort as string).startsWith('-')
      const field = desc ? (sort as string).slice(1) : sort
      out = [...out].sort(
        (a, b) =>
          String(a.attributes[field]).localeCompare(String(b.attributes[field])) * (desc ? -1 : 1),
      )
    }
    const total = out.length
    const start = ((page as number) - 1) * (per_page as number)
    return {
      data: {
        data: out.slice(start, start + (per_page as number)),
        meta: {
          pagination: { total_pages: Math.ceil(total / (per_page as number)), total_count: total },
        },
      },
      fromCache: false,
    }
  }
  return { read, asked }
}

const finding = (i: number, severity: string, first: string) => ({
  id: `vul-${i}`,
  attributes: { severity, first_seen_at: first },
})

describe('counting since a moment over sorted lists', () => {
  it('counts the findings of a severity first seen at or after the moment, and no others', async () => {
    const rows = [
      finding(1, 'critical', '2026-01-10T00:00:00Z'),
      finding(2, 'critical', '2026-01-02T00:00:00Z'),
      finding(3, 'high', '2026-01-09T00:00:00Z'),
      finding(4, 'critical', '2026-01-05T00:00:01Z'),
      finding(5, 'critical', '2026-01-05T00:00:00Z'),
      finding(6, 'critical', '2026-01-04T23:59:59Z'),
    ]
    const { read, asked } = listOf(rows)
    const since = T('2026-01-05T00:00:00Z')
    // 1, 4 and 5 (first seen at the very moment: the service's range is inclusive).
    expect(await newFindings(read, 'critical', since)).toEqual({
      value: 3,
      atLeast: false,
      note: null,
      fromCache: false,
    })
    expect((await newFindings(read, 'high', since)).value).toBe(1)
    // One row asked of the range: the total, never the findings.
    expect(asked[0]).toEqual({
      severity: 'critical',
      first_seen_after: '2026-01-05T00:00:00.000Z',
      page: 1,
      per_page: 1,
    })
  })

  it('counts exactly above the sorted lists’ cap, in one read', async () => {
    const rows = Array.from({ length: MAX_PAGES * PER_PAGE + 5 }, (_, i) =>
      finding(i, 'critical', new Date(T('2026-02-01T00:00:00Z') + i * 1000).toISOString()),
    )
    const { read, asked } = listOf(rows)
    const counted = await newFindings(read, 'critical', T('2026-01-01T00:00:00Z'))
    expect(counted).toMatchObject({ value: MAX_PAGES * PER_PAGE + 5, atLeast: false })
    expect(asked).toHaveLength(1)
  })

  it('says it cannot tell without a total, or offline without a copy of that moment', async () => {
    const noTotal: SinceRead = async () => ({ data: { data: [] }, fromCache: true })
    expect(await newFindings(noTotal, 'high', 0)).toMatchObject({
      value: null,
      note: SINCE_NOTE.noTotal,
    })
    const offline: SinceRead = async () => {
      throw new AppFailure({ code: 'OFFLINE', message: 'no copy' })
    }
    expect(await newFindings(offline, 'high', 0)).toMatchObject({
      value: null,
      note: SINCE_NOTE.offlineSince,
    })
  })

  it('stops reading at the first row past the moment: pages of old scans are not read', async () => {
    const rows = Array.from({ length: 3 * PER_PAGE }, (_, i) => ({
      id: `scn-${i}`,
      attributes: {
        status: 'completed',
        finished_at: new Date(T('2026-01-01T00:00:00Z') + i * 60_000).toISOString(),
      },
    }))
    const { read, asked } = listOf(rows)
    // The last 30 finished after the moment.
    const since = T(rows[3 * PER_PAGE - 31].attributes.finished_at)
    const counted = await scansCompleted(read, since)
    expect(counted).toMatchObject({ value: 30, atLeast: false })
    expect(asked).toHaveLength(1)
  })

  it('says "at least" once it read its pages without reaching the moment', async () => {
    const rows = Array.from({ length: MAX_PAGES * PER_PAGE + 5 }, (_, i) => ({
      id: `scn-${i}`,
      attributes: {
        status: 'completed',
        finished_at: new Date(T('2026-02-01T00:00:00Z') + i * 1000).toISOString(),
      },
    }))
    const { read, asked } = listOf(rows)
    const counted = await scansCompleted(read, T('2026-01-01T00:00:00Z'))
    expect(counted).toMatchObject({ value: MAX_PAGES * PER_PAGE, atLeast: true })
    expect(asked).toHaveLength(MAX_PAGES)
  })

  it('counts exceptions expiring in the window, passing over the ones already past', async () => {
    const ex = (i: number, state: string, expires: string) => ({
      id: `exc-${i}`,
      attributes: { state, expires_at: expires },
    })
    const { read } = listOf([
      ex(1, 'active', '2026-03-01T00:00:00Z'), // already past
      ex(2, 'active', '2026-03-03T00:00:00Z'),
      ex(3, 'active', '2026-03-16T00:00:00Z'),
      ex(4, 'pending', '2026-03-04T00:00:00Z'),
      ex(5, 'active', '2026-03-20T00:00:00Z'),
    ])
    const now = T('2026-03-02T00:00:00Z')
    const counted = await expiringExceptions(read, now, now + 14 * 86_400_000)
    expect(counted.rows.map((r) => r.id)).toEqual(['exc-2', 'exc-3'])
  })

  it('says why a count is not known: offline without a copy, or the service’s words', async () => {
    const offline: SinceRead = async () => {
      throw new AppFailure({ code: 'OFFLINE', message: 'no copy' })
    }
    expect(await countSorted(offline, 'scans.list', {}, () => 'count')).toMatchObject({
      value: null,
      note: SINCE_NOTE.offline,
    })
    const refused: SinceRead = async () => {
      throw new AppFailure({ code: 'FORBIDDEN', message: 'You may not list scans.' })
    }
    const r = await countSorted(refused, 'scans.list', {}, () => 'count')
    expect(r.value).toBeNull()
    expect(r.note).toContain('You may not list scans.')
  })
})

const f = (title: string, host = 'h1'): SnapshotFinding => ({
  id: `${title}-${host}`,
  title,
  severity: 'high',
  cvss_score: 7,
  cve_ids: [],
  host_id: host,
  first_seen_at: '2026-01-01T00:00:00Z',
  last_seen_at: '2026-01-01T00:00:00Z',
})

function snapshotsOf(
  byScan: Record<string, { runId: string; finishedAt: string; rows: SnapshotFinding[] }[]>,
) {
  return {
    list: (_a: string, scanId: string): SnapshotSummary[] =>
      (byScan[scanId] ?? [])
        .map((s) => ({
          runId: s.runId,
          finishedAt: s.finishedAt,
          takenAt: s.finishedAt,
          findings: s.rows.length,
        }))
        .sort((a, b) => b.finishedAt.localeCompare(a.finishedAt)),
    get: async (_a: string, scanId: string, runId: string) =>
      byScan[scanId]?.find((s) => s.runId === runId)?.rows ?? null,
  }
}

describe('fixed findings since a moment, from run snapshots', () => {
  const since = T('2026-01-10T00:00:00Z')
  it('compares the last run before the moment with the latest, and names scans it cannot', async () => {
    const snaps = snapshotsOf({
      a: [
        { runId: 'a1', finishedAt: '2026-01-01T00:00:00Z', rows: [f('x'), f('y'), f('z')] },
        { runId: 'a2', finishedAt: '2026-01-05T00:00:00Z', rows: [f('x'), f('y'), f('z'), f('w')] },
        { runId: 'a3', finishedAt: '2026-01-11T00:00:00Z', rows: [f('y')] },
        { runId: 'a4', finishedAt: '2026-01-12T00:00:00Z', rows: [f('y'), f('v')] },
      ],
      b: [{ runId: 'b1', finishedAt: '2026-01-11T00:00:00Z', rows: [f('q')] }],
    })
    const fixed = await fixedSince(snaps, 'acc', ['a', 'b'], since)
    // a: a2 (x, y, z, w) against a4 (y, v): x, z and w fixed; b has no run before the moment.
    expect(fixed).toMatchObject({ value: 3, scanIds: ['a'] })
    expect(fixed.note).toBe(SINCE_NOTE.noSnapshots(1))
  })

  it('is not known when no scan has both snapshots, and zero when no scan completed', async () => {
    const snaps = snapshotsOf({
      b: [{ runId: 'b1', finishedAt: '2026-01-01T00:00:00Z', rows: [f('q')] }],
    })
    expect((await fixedSince(snaps, 'acc', ['b'], since)).value).toBeNull()
    expect(await fixedSince(snaps, 'acc', [], since)).toMatchObject({ value: 0, note: null })
  })
})

describe('the moment counted from', () => {
  const now = new Date('2026-05-20T12:34:56Z')
  const empty: SinceRead = async () => ({
    data: { data: [], meta: { pagination: { total_count: 0 } } },
    fromCache: false,
  })

  it('is seven days back (from the hour) before the first visit, and counts up to now', async () => {
    const service = new SinceService({
      visits: { seenAt: () => null, record: () => true, left: () => null, recordLeft: () => true },
      snapshots: snapshotsOf({}),
      read: () => empty,
      now: () => now,
    })
    const first = await service.counts('acc')
    expect(first).toMatchObject({
      firstVisit: true,
      since: '2026-05-13T12:00:00.000Z',
      until: now.toISOString(),
    })
    expect(first.newCritical).toEqual({ value: 0, atLeast: false, note: null, fromCache: false })
  })
})
