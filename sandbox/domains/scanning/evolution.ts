// How a scan's findings evolve from run to run (docs/sandbox.md, "Runs evolve"): deterministic by
// scan, host and the run's epoch, so the same seed always tells the same story.
import type { Row } from '../../types'
import { FINDINGS, type FindingTemplate } from './findings'
import { keyedRng } from './hash'

/** Seeded runs go back at most this many runs before the latest seeded one (seed.ts). */
export const SEEDED_AGES = 2

/** A finding a run shows, with the CVSS score it has in that run. */
export interface RunFinding {
  template: FindingTemplate
  cvss: number
}

/** A fixed finding stays in the lists with its last_seen_at; counts and widgets leave it out. */
export const isOpen = (row: Row): boolean => row.internal?.fixed !== true

/**
 * The epoch of a run: the seeded runs are -age (0 the latest seeded one); a live run is one more
 * than the scan's previous run (0 for a scan's first run).
 */
export function epochOf(scan: Row, age: number | undefined): number {
  if (age !== undefined) return -age
  const last = scan.internal?.run_epoch
  return typeof last === 'number' ? last + 1 : 0
}

/**
 * The findings a host shows at `epoch`. Per (scan, host) a fixed order of the templates and a
 * width w (2–7) are drawn; the latest seeded run (epoch 0) shows the first w. Older seeded runs
 * (epoch -a) lack the w-th (it is new in the latest run) and show a further `a` that were fixed
 * since. Each live re-run (epoch e > 0) has fixed the first e (keeping at least one) and found e
 * new ones past those the seeded runs used.
 */
export function findingsAt(scanId: string, ip: string, epoch: number): RunFinding[] {
  const rng = keyedRng(`${scanId}|${ip}`)
  const width = rng.int(2, 7)
  const pool = [...FINDINGS]
  const order: FindingTemplate[] = []
  while (pool.length > 0) order.push(pool.splice(rng.int(0, pool.length - 1), 1)[0])
  let picked: FindingTemplate[]
  if (epoch < 0) {
    picked = [...order.slice(0, width - 1), ...order.slice(width, width - epoch)]
  } else {
    const fixed = Math.min(epoch, width - 1)
    const fresh = order.slice(width + SEEDED_AGES, width + SEEDED_AGES + epoch)
    picked = [...order.slice(fixed, width), ...fresh]
  }
  return picked.map((template) => ({
    template,
    cvss: cvssAt(scanId, ip, template, epoch),
  }))
}

/**
 * The CVSS score of a finding at `epoch`: the template's up to the latest seeded run; at each live
 * re-run about one finding in five is rescored by 2 points (up or down, within 0.1–10), and keeps
 * that score until rescored again. Informational findings (score 0) are never rescored.
 */
export function cvssAt(scanId: string, ip: string, f: FindingTemplate, epoch: number): number {
  let score = f.cvss
  if (f.cvss === 0) return score
  for (let e = 1; e <= epoch; e++) {
    const rng = keyedRng(`${scanId}|${ip}|${f.code}|${e}`)
    if (rng.int(0, 4) !== 0) continue
    const up = rng.int(0, 1) === 1 ? score + 2 : score - 2
    const next = up > 10 || up < 0.1 ? (up > 10 ? score - 2 : score + 2) : up
    score = Math.round(Math.min(10, Math.max(0.1, next)) * 10) / 10
  }
  return score
}
