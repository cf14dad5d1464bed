// The demo's findings were first seen over the past months, not all in the latest weeks' runs: so
// ScanDesk's due dates (issue 20) have overdue findings of every severity under the default policy.
import type { SandboxContext } from '../../types'
import { isOpen } from './evolution'
import { hash } from './hash'

const DAY = 86_400_000

/**
 * Moves the first-seen time of two findings in three that the scan's first run found back by up to
 * 240 days (an earlier run the history no longer lists found them), keyed by the finding's id so
 * the seed stays the same. Later runs' findings keep their times (they are new there).
 */
export function spreadFirstSeen(ctx: SandboxContext): void {
  const firstRun = new Map<string, number>()
  for (const v of ctx.db.list('vulnerabilities')) {
    const t = Date.parse(String(v.attributes.first_seen_at))
    const scan = String(v.attributes.scan_id)
    if (!firstRun.has(scan) || t < firstRun.get(scan)!) firstRun.set(scan, t)
  }
  for (const v of ctx.db.list('vulnerabilities')) {
    const t = Date.parse(String(v.attributes.first_seen_at))
    if (!isOpen(v) || t !== firstRun.get(String(v.attributes.scan_id))) continue
    const h = hash(v.id)
    if (h % 3 === 0) continue
    const back = new Date(t - ((h >>> 2) % 240) * DAY).toISOString()
    ctx.db.update('vulnerabilities', v.id, { first_seen_at: back, created_at: back })
  }
}
