import { countOf } from './counts'
import { SEVERITIES, type SeverityCounts } from '@/components/kit/severity'

/** One point of a trend: open findings per severity at one time (a run, or a day). */
export interface TrendPoint {
  /** Stable key (a run's id, a day). */
  key: string
  /** When (ISO date-time, or a YYYY-MM-DD day). */
  at: string
  /** What the point is beside its time (the scan of a target's run; where a day's count comes from). */
  note?: string
  counts: SeverityCounts
}

/** One run of a scan as `scans.history` gives it (the fields a trend reads). */
export interface RunSummary {
  id: string
  attributes: {
    scan_id?: string
    status?: string
    started_at?: string | null
    finished_at?: string | null
    severity_counts?: Partial<Record<string, unknown>> | null
  }
}

/** A trend of runs: its points, oldest first, and the runs left out with why. */
export interface RunTrend {
  points: TrendPoint[]
  /** Runs that did not complete (running, stopped, failed): their figures are not the open findings. */
  notCompleted: number
  /** Completed runs beyond `limit` (the oldest), left out. */
  older: number
}

/** Counts per severity from an answer: missing, odd or negative values read as 0. */
export function countsOf(
  value: Partial<Record<string, unknown>> | null | undefined,
): SeverityCounts {
  return Object.fromEntries(SEVERITIES.map((s) => [s, countOf(value?.[s])])) as SeverityCounts
}

/** The sum of a point's counts. */
export function totalOfCounts(counts: SeverityCounts): number {
  return SEVERITIES.reduce((sum, s) => sum + counts[s], 0)
}

/**
 * The open findings per severity over runs (decided in docs/decisions.md, "Trends"): one point
 * per completed run at its finish (its start when the finish is missing), oldest first, the
 * newest `limit` kept. A run that did not complete is left out (a stopped run saw part of the
 * hosts; a running one has no figures yet) and counted; so is one without any time. Runs of
 * several scans (a target's) interleave by time; `noteOf` names a run's scan.
 */
export function trendOfRuns(
  runs: readonly RunSummary[],
  options: { limit?: number; noteOf?: (run: RunSummary) => string | undefined } = {},
): RunTrend {
  const limit = options.limit ?? 50
  let notCompleted = 0
  const done: TrendPoint[] = []
  const seen = new Set<string>()
  for (const run of runs) {
    if (seen.has(run.id)) continue
    seen.add(run.id)
    const a = run.attributes
    const at = a.finished_at || a.started_at
    if (a.status !== 'completed' || !at || Number.isNaN(Date.parse(at))) {
      notCompleted++
      continue
    }
    const note = options.noteOf?.(run)
    done.push({ key: run.id, at, counts: countsOf(a.severity_counts), ...(note ? { note } : {}) })
  }
  done.sort((x, y) => Date.parse(x.at) - Date.parse(y.at) || x.key.localeCompare(y.key))
  const older = Math.max(0, done.length - limit)
  return { points: done.slice(older), notCompleted, older }
}

/** A point's time in ms: a YYYY-MM-DD day at its local midnight, else the date-time. */
export function timeOf(at: string): number {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(at)
  if (day) return new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])).getTime()
  return Date.parse(at)
}

const DAY_MS = 86_400_000

/**
 * One line per severity: `[time, count]` pairs in the points' order. For days, a day without a
 * point between two with one breaks the line (a `[time, null]` pair) rather than joining them as
 * if it had been counted.
 */
export function seriesOf(
  points: readonly TrendPoint[],
  options: { days?: boolean } = {},
): { severity: (typeof SEVERITIES)[number]; data: [number, number | null][] }[] {
  return SEVERITIES.map((severity) => {
    const data: [number, number | null][] = []
    let previous: number | null = null
    for (const p of points) {
      const t = timeOf(p.at)
      // 1.5 days: a change to or from summer time makes a day 23 or 25 hours long.
      if (options.days && previous !== null && t - previous > 1.5 * DAY_MS)
        data.push([previous + DAY_MS, null])
      data.push([t, p.counts[severity]])
      previous = t
    }
    return { severity, data }
  })
}
