// What changed between two runs of a scan: New / Fixed / Still open / Changed (issue 19).
// Exact from two snapshots; a run without one is read from first/last seen times as far as they
// can tell (docs/decisions.md, "Comparing runs").
import { z } from 'zod'
import { severity } from '../schemas/common'
import { findingIdentity } from './identity'

/** One finding as a snapshot keeps it and a comparison shows it. */
export const snapshotFinding = z.object({
  id: z.string().max(64),
  title: z.string().max(2000),
  severity,
  cvss_score: z.number().min(0).max(10),
  cve_ids: z.array(z.string().max(40)).max(200),
  host_id: z.string().max(64),
  host_ip: z.string().max(100).nullish(),
  port: z.number().int().nullish(),
  protocol: z.string().max(20).nullish(),
  first_seen_at: z.string().max(40).nullish(),
  last_seen_at: z.string().max(40).nullish(),
})
export type SnapshotFinding = z.infer<typeof snapshotFinding>

/** A finding whose severity or CVSS score differs between the runs. */
export interface FindingChange {
  before: SnapshotFinding
  after: SnapshotFinding
}

/** The comparison of an earlier and a later run. */
export interface RunComparison {
  /** In the later run, not in the earlier one. */
  new: SnapshotFinding[]
  /** In the earlier run, not in the later one. */
  fixed: SnapshotFinding[]
  /** In both (as the later run saw them), the changed ones among them. */
  stillOpen: SnapshotFinding[]
  /** Still open with another severity or CVSS score; null when the data cannot say. */
  changed: FindingChange[] | null
  /** Rows left out because they name no finding (no title, no CVE) or carry no usable time. */
  leftOut: number
}

const RANK = { critical: 0, high: 1, medium: 2, low: 3, info: 4 } as const

/** Worst first, then highest score, then identity: the same order whatever the input's. */
function byConcern(a: SnapshotFinding, b: SnapshotFinding): number {
  return (
    RANK[a.severity] - RANK[b.severity] ||
    b.cvss_score - a.cvss_score ||
    keyOf(a).localeCompare(keyOf(b)) ||
    a.id.localeCompare(b.id)
  )
}
const keyOf = (f: SnapshotFinding) => findingIdentity(f) ?? ''

/** The earlier of two rows with the same identity: smallest id, then the rest of the row. */
const first = (a: SnapshotFinding, b: SnapshotFinding) =>
  a.id < b.id || (a.id === b.id && JSON.stringify(a) < JSON.stringify(b))

/** The findings of a run by identity; a repeated identity keeps the first by `first`. */
function byIdentity(rows: readonly SnapshotFinding[]): {
  map: Map<string, SnapshotFinding>
  leftOut: SnapshotFinding[]
} {
  const map = new Map<string, SnapshotFinding>()
  const leftOut: SnapshotFinding[] = []
  for (const row of rows) {
    const key = findingIdentity(row)
    if (key === null) {
      leftOut.push(row)
      continue
    }
    const held = map.get(key)
    if (!held || first(row, held)) map.set(key, row)
  }
  return { map, leftOut }
}

/**
 * What changed from the findings an earlier run saw to those a later one saw (any two runs of a
 * scan, each from its snapshot or read from times). `changes`: whether a changed severity or
 * score can be told (both sides are snapshots); else `changed` is null. A row that names no
 * finding is counted once in `leftOut`, even when both sides hold it.
 */
export function compareRuns(
  earlier: readonly SnapshotFinding[],
  later: readonly SnapshotFinding[],
  options: { changes: boolean },
): RunComparison {
  const before = byIdentity(earlier)
  const after = byIdentity(later)
  const out: RunComparison = {
    new: [],
    fixed: [],
    stillOpen: [],
    changed: options.changes ? [] : null,
    leftOut: new Set([...before.leftOut, ...after.leftOut]).size,
  }
  for (const [key, row] of after.map) {
    const was = before.map.get(key)
    if (!was) {
      out.new.push(row)
      continue
    }
    out.stillOpen.push(row)
    if (out.changed && (was.severity !== row.severity || was.cvss_score !== row.cvss_score)) {
      out.changed.push({ before: was, after: row })
    }
  }
  for (const [key, row] of before.map) if (!after.map.has(key)) out.fixed.push(row)
  out.new.sort(byConcern)
  out.fixed.sort(byConcern)
  out.stillOpen.sort(byConcern)
  out.changed?.sort((a, b) => byConcern(a.after, b.after))
  return out
}

/** Exact comparison of two snapshots (any two runs of a scan). */
export const compareSnapshots = (
  earlier: readonly SnapshotFinding[],
  later: readonly SnapshotFinding[],
): RunComparison => compareRuns(earlier, later, { changes: true })

/** A run as the scan's history gives it, as far as the times comparison needs it. */
export interface RunTimes {
  started_at: string
  finished_at?: string | null
}

const timeOf = (v: unknown): number => (typeof v === 'string' ? Date.parse(v) : NaN)
const hasTimes = (f: SnapshotFinding) =>
  !Number.isNaN(timeOf(f.first_seen_at)) && !Number.isNaN(timeOf(f.last_seen_at))

/** How many of the findings lack a readable first or last seen time (the times cannot place them). */
export const withoutTimes = (findings: readonly SnapshotFinding[]): number =>
  findings.filter((f) => !hasTimes(f)).length

/**
 * The findings a run saw, read from the scan's findings (fixed ones included, as the service
 * keeps them) and their first/last seen times: last seen from the run's start on, and first seen
 * before the scan's next run started (`nextStart`; null for its latest run). A finding fixed and
 * found again in between reads as seen throughout, and its severity and score are as the service
 * gives them now. Rows without usable times are left out (`withoutTimes` counts them).
 */
export function seenFromTimes(
  findings: readonly SnapshotFinding[],
  run: RunTimes,
  nextStart: string | null,
): SnapshotFinding[] {
  const start = timeOf(run.started_at)
  const next = nextStart === null ? Infinity : timeOf(nextStart)
  if (Number.isNaN(start)) return []
  return findings.filter(
    (f) =>
      hasTimes(f) &&
      timeOf(f.last_seen_at) >= start &&
      (Number.isNaN(next) || timeOf(f.first_seen_at) < next),
  )
}
