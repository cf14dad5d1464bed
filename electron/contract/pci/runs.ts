import type { PciRun } from './quarters'
import { SCOPE_OF_APP_TYPE, type PciScope } from './requirements'

/*
 * From the service's rows to the runs behind the PCI requirements: which scans may have run in
 * the period, each scan's scope from its scanner's app type, each run of its history in the
 * period (docs/decisions.md "PCI requirements backed by scan evidence").
 */

/** A row of a list as the service answers it. */
export interface ServiceRow {
  id: string
  attributes: Record<string, unknown>
}

/** A run that started up to this long before the period may still end inside it. */
export const RUN_MARGIN_MS = 7 * 86_400_000

/** Scanner id → scope, for the scanners whose app type gives one. */
export function scopesOfScanners(scanners: readonly ServiceRow[]): Map<string, PciScope> {
  const out = new Map<string, PciScope>()
  for (const s of scanners) {
    const scope = SCOPE_OF_APP_TYPE[String(s.attributes.app_type)]
    if (scope) out.set(s.id, scope)
  }
  return out
}

/**
 * The scans whose history may hold a run in the period starting at `from` (epoch ms): a scan's
 * `started_at` is its latest run's start, so one that never started, or last started well before
 * the period, has none.
 */
export function scansThatRan(scans: readonly ServiceRow[], from: number): ServiceRow[] {
  return scans.filter((s) => {
    const started = Date.parse(String(s.attributes.started_at ?? ''))
    return !Number.isNaN(started) && started >= from - RUN_MARGIN_MS
  })
}

/**
 * The runs of one scan's history that count in the period (ended, or started while unfinished,
 * at or after `from`), with the scan's scope; null when the scan has runs in the period but no
 * scope (no scanner, or one whose app type is neither internal nor external).
 */
export function runsOfScan(
  scan: ServiceRow,
  history: readonly ServiceRow[],
  scope: PciScope | undefined,
  from: number,
): PciRun[] | null {
  const inPeriod = history.filter((r) => {
    const at = Date.parse(String(r.attributes.finished_at ?? r.attributes.started_at))
    return !Number.isNaN(at) && at >= from
  })
  if (!inPeriod.length) return []
  if (!scope) return null
  const scanName = String(scan.attributes.name ?? scan.id)
  return inPeriod.map((r) => {
    const a = r.attributes
    return {
      scanId: scan.id,
      scanName,
      scope,
      status: String(a.status),
      startedAt: String(a.started_at),
      finishedAt: typeof a.finished_at === 'string' ? a.finished_at : null,
      counts: a.severity_counts as PciRun['counts'],
    }
  })
}
