import type { PciScope } from './requirements'

/*
 * The quarterly view of scan runs behind 11.3.1/11.3.2 and the rescans behind 11.3.1.1/11.3.2.1
 * (docs/decisions.md "PCI requirements backed by scan evidence"). Quarters are calendar quarters
 * in UTC (January–March is Q1); "the last twelve months" are shown in the quarters they touch: the
 * current quarter and the four before it, so four quarters that are over stand beside the one
 * still open (issue 36: with only three before it, December showed no quarter of the year before).
 * A run belongs to the quarter in which it finished (started, while it has no end).
 */

/** Counts by severity of one run, as scans.history gives them. */
export interface RunCounts {
  critical: number
  high: number
  medium: number
  low: number
  info: number
}

/** One run of a scan, with the scope its scanner gives it. */
export interface PciRun {
  scanId: string
  scanName: string
  scope: PciScope
  status: string
  startedAt: string
  finishedAt: string | null
  counts: RunCounts
}

/**
 * A run's PCI verdict: a completed run passes when it found nothing of CVSS 4.0 or more (no
 * medium, high or critical finding: the scanning vendor's pass mark), fails otherwise; a run that
 * did not complete (stopped, failed, still running) is unknown, since not every host was scanned.
 */
export type RunVerdict = 'pass' | 'fail' | 'unknown'

/** The verdict of one run. */
export function runVerdict(run: Pick<PciRun, 'status' | 'counts'>): RunVerdict {
  if (run.status !== 'completed') return 'unknown'
  const { critical, high, medium } = run.counts
  return critical + high + medium === 0 ? 'pass' : 'fail'
}

/** A run with its verdict. */
export interface JudgedRun extends PciRun {
  verdict: RunVerdict
}

/** One calendar quarter: its label (2026 Q1) and bounds [start, end) as ISO instants. */
export interface Quarter {
  year: number
  quarter: 1 | 2 | 3 | 4
  label: string
  start: string
  end: string
}

/**
 * A quarter's state: `passed` (a passing run in it), `gap` (over, without a passing run) or
 * `open` (the current quarter, no passing run yet: not a gap until it ends).
 */
export type QuarterState = 'passed' | 'gap' | 'open'

/** One quarter with its runs (oldest first) and state. */
export interface QuarterRuns extends Quarter {
  runs: JudgedRun[]
  state: QuarterState
}

/** When a run counts (epoch ms): its end, else its start. */
export const runTime = (run: Pick<PciRun, 'startedAt' | 'finishedAt'>): number =>
  Date.parse(run.finishedAt ?? run.startedAt)

function quarterAt(year: number, index: number): Quarter {
  // index 0..3 within `year`; Date.UTC carries months past 11 into the next year.
  const start = new Date(Date.UTC(year, index * 3, 1))
  const end = new Date(Date.UTC(year, index * 3 + 3, 1))
  const quarter = (index + 1) as Quarter['quarter']
  return {
    year,
    quarter,
    label: `${year} Q${quarter}`,
    start: start.toISOString(),
    end: end.toISOString(),
  }
}

/** The quarter an instant falls in (UTC). */
export function quarterOf(at: Date): Quarter {
  return quarterAt(at.getUTCFullYear(), Math.floor(at.getUTCMonth() / 3))
}

/**
 * The quarters the last twelve months touch, oldest first (across year ends): the current quarter
 * and the four before it (twelve months back always falls in the same quarter a year earlier).
 */
export function lastTwelveMonthsQuarters(now: Date): Quarter[] {
  const year = now.getUTCFullYear()
  const index = Math.floor(now.getUTCMonth() / 3)
  return [4, 3, 2, 1, 0].map((back) => {
    const i = index - back
    return i >= 0 ? quarterAt(year, i) : quarterAt(year - 1, i + 4)
  })
}

/**
 * The runs of one scope in the last twelve months' quarters, per quarter, each with its verdict and each
 * quarter with its state. Runs of another scope, before the first quarter or after `now`, are
 * left out.
 */
export function quarterlyRuns(runs: readonly PciRun[], scope: PciScope, now: Date): QuarterRuns[] {
  const quarters = lastTwelveMonthsQuarters(now)
  const last = quarters.length - 1
  return quarters.map((q, i) => {
    const inside = runs
      .filter((r) => r.scope === scope)
      .filter((r) => {
        const t = runTime(r)
        return t >= Date.parse(q.start) && t < Date.parse(q.end) && t <= now.getTime()
      })
      .sort((a, b) => runTime(a) - runTime(b))
      .map((r) => ({ ...r, verdict: runVerdict(r) }))
    const passed = inside.some((r) => r.verdict === 'pass')
    const state: QuarterState = passed ? 'passed' : i === last ? 'open' : 'gap'
    return { ...q, runs: inside, state }
  })
}

/** A failing run and the next run of the same scan (null: not rescanned yet). */
export interface Rescan {
  failed: JudgedRun
  rescan: JudgedRun | null
}

/**
 * Each failing run of one scope in the last twelve months' quarters with the scan's next run after it
 * (the rescan that shows whether the fixes worked), newest failure first.
 */
export function rescansAfterFailures(
  runs: readonly PciRun[],
  scope: PciScope,
  now: Date,
): Rescan[] {
  const from = Date.parse(lastTwelveMonthsQuarters(now)[0].start)
  const byScan = new Map<string, JudgedRun[]>()
  for (const r of runs) {
    if (r.scope !== scope) continue
    const list = byScan.get(r.scanId) ?? []
    list.push({ ...r, verdict: runVerdict(r) })
    byScan.set(r.scanId, list)
  }
  const out: Rescan[] = []
  for (const list of byScan.values()) {
    list.sort((a, b) => runTime(a) - runTime(b))
    list.forEach((run, i) => {
      if (run.verdict !== 'fail' || runTime(run) < from) return
      out.push({ failed: run, rescan: list[i + 1] ?? null })
    })
  }
  return out.sort((a, b) => runTime(b.failed) - runTime(a.failed))
}
