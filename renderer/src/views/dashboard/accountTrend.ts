import type { DailyTotal } from '@contract/trends'
import { countsOf, type RunSummary, type TrendPoint } from '@/components/charts/trend'
import { SEVERITIES, type SeverityCounts } from '@/components/kit/severity'

/** Said beside the days ScanDesk recorded itself (the panel's label for its own facts). */
export const RECORDED = 'Recorded by ScanDesk on this computer'
/** Said beside the days summed from the scans' run summaries. */
export const FROM_RUNS = 'Summed from the scans’ latest runs'

/** A date's day on this computer's calendar, as YYYY-MM-DD. */
export function dayOf(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`
}

/** `day` (YYYY-MM-DD) moved by `n` calendar days. */
export function shiftDay(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number)
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10)
}

/** What the account's trend is made of. */
export interface AccountTrendInput {
  /** The days ScanDesk recorded (trends.daily), any order. */
  recorded: readonly DailyTotal[]
  /** The runs of the account's scans (scans.history of each). */
  runs: readonly RunSummary[]
  /** False when not every scan's runs were read: the earlier days are not summed then. */
  everyScan: boolean
  /** Today on this computer's calendar. */
  today: string
  /** Days shown, today included. */
  days: number
}

/**
 * The account's open findings per severity by day (docs/decisions.md, "Trends over runs"): the
 * days ScanDesk recorded, as recorded; the days before the first of them (all the window when
 * none is) summed from the scans' run summaries — per scan its latest completed run finished by
 * the end of that day — from the first day any scan had one. A day after the first recorded one
 * that has no record stays a gap (the chart breaks its line there).
 */
export function accountTrend(input: AccountTrendInput): TrendPoint[] {
  const start = shiftDay(input.today, -(input.days - 1))
  const recorded = [...input.recorded]
    .filter((d) => d.day >= start && d.day <= input.today)
    .sort((a, b) => a.day.localeCompare(b.day))
  const firstRecorded = recorded[0]?.day ?? shiftDay(input.today, 1)
  const points: TrendPoint[] = []
  if (input.everyScan) points.push(...fromRuns(input.runs, start, shiftDay(firstRecorded, -1)))
  for (const d of recorded)
    points.push({ key: d.day, at: d.day, note: RECORDED, counts: countsOf({ ...d.totals }) })
  return points
}

/** One point per day from `from` to `to` (inclusive) once any scan has a completed run. */
function fromRuns(runs: readonly RunSummary[], from: string, to: string): TrendPoint[] {
  // Each scan's completed runs by the day they finished, oldest first.
  const byScan = new Map<string, { day: string; at: number; counts: SeverityCounts }[]>()
  for (const run of runs) {
    const a = run.attributes
    const finished = a.finished_at ? Date.parse(a.finished_at) : NaN
    if (a.status !== 'completed' || Number.isNaN(finished)) continue
    const list = byScan.get(a.scan_id ?? run.id) ?? []
    list.push({ day: dayOf(new Date(finished)), at: finished, counts: countsOf(a.severity_counts) })
    byScan.set(a.scan_id ?? run.id, list)
  }
  for (const list of byScan.values()) list.sort((x, y) => x.at - y.at)
  const out: TrendPoint[] = []
  for (let day = from; day <= to; day = shiftDay(day, 1)) {
    const sum = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as SeverityCounts
    let any = false
    for (const list of byScan.values()) {
      const latest = list.filter((r) => r.day <= day).at(-1)
      if (!latest) continue
      any = true
      for (const s of SEVERITIES) sum[s] += latest.counts[s]
    }
    if (any) out.push({ key: day, at: day, note: FROM_RUNS, counts: sum })
  }
  return out
}
