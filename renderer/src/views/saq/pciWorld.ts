// A small service for the SAQ's PCI tests (the runs panel, the report picker, the approval's
// check): one internal and one external scan, their runs, reports of each, and the findings
// counts asked of the vulnerabilities list. `now` is the tests' clock.
import { lastTwelveMonthsQuarters } from '@contract/pci/quarters'

type Query = Record<string, unknown>
type Call = { op: string; input: { path?: { id: string }; query?: Query } }

const list = (rows: unknown[], total = rows.length) => ({
  data: { data: rows, meta: { pagination: { total_count: total } } },
  fetchedAt: '2030-11-20T00:00:00.000Z',
  fromCache: false,
})
const row = (id: string, attributes: Record<string, unknown>) => ({ id, type: 'x', attributes })
const failing = { critical: 0, high: 2, medium: 1, low: 0, info: 0 }
const clean = { critical: 0, high: 0, medium: 0, low: 1, info: 3 }

/** What the world holds; tests change it before mounting. */
export interface PciWorld {
  now: Date
  /** Runs of each scan: [finished_at, passing?]. */
  runs: Record<string, [string, boolean][]>
  /** Critical and high findings first seen more than a month ago (6.3.3). */
  aged: number
  /** Findings first seen in a quarter (by label) per scan. */
  firstSeen: Record<string, Record<string, number>>
}

/** The default world: every run failing, the current quarter only; 30 aged findings. */
export function pciWorld(now = new Date('2030-11-20T12:00:00.000Z')): PciWorld {
  return {
    now,
    runs: {
      's-int': [['2030-11-02T10:00:00.000Z', false]],
      's-ext': [
        ['2030-10-05T10:00:00.000Z', false],
        ['2030-11-05T10:00:00.000Z', false],
      ],
    },
    aged: 30,
    firstSeen: { 's-int': { '2030 Q2': 7 }, 's-ext': {} },
  }
}

/** Answers api.call from `world`, or undefined for an operation it does not hold. */
export function pciAnswer(world: PciWorld, p: Call): unknown {
  const q = p.input.query ?? {}
  if (p.op === 'scanners.list')
    return list([
      row('scn-int', { name: 'Inside', app_type: 'internal_scan' }),
      row('scn-ext', { name: 'Outside', app_type: 'external_scan' }),
    ])
  if (p.op === 'scans.list')
    return list([
      row('s-int', {
        name: 'Office LAN',
        scanner_id: 'scn-int',
        started_at: '2030-11-02T09:00:00Z',
      }),
      row('s-ext', {
        name: 'Perimeter',
        scanner_id: 'scn-ext',
        started_at: '2030-11-05T09:00:00Z',
      }),
    ])
  if (p.op === 'scans.history')
    return list(
      (world.runs[p.input.path!.id] ?? []).map(([at, pass], i) =>
        row(`run-${i}`, {
          status: 'completed',
          started_at: new Date(Date.parse(at) - 3_600_000).toISOString(),
          finished_at: at,
          severity_counts: pass ? clean : failing,
        }),
      ),
    )
  if (p.op === 'reports.list')
    return list([
      row('r-ext', { name: 'Perimeter PCI report', report_type: 'pci', scan_id: 's-ext' }),
      row('r-int', { name: 'Office LAN report', report_type: 'technical', scan_id: 's-int' }),
      row('r-none', { name: 'Loose report', report_type: 'executive', scan_id: null }),
    ])
  if (p.op === 'vulnerabilities.list') {
    if (q.first_seen_after) {
      const label = lastTwelveMonthsQuarters(world.now).find(
        (x) => x.start === q.first_seen_after,
      )?.label
      return list([], (label && world.firstSeen[String(q.scan_id)]?.[label]) || 0)
    }
    if (q.first_seen_before) return list([], world.aged)
    return list([], 100)
  }
  return undefined
}
