// "Since your last visit" per account (issue 19; docs/decisions.md, "Since your last visit").
import {
  EXPIRING_DAYS,
  FIRST_VISIT_DAYS,
  VISIT_GAP_HOURS,
  type FixedCount,
  type SinceAnswer,
  type SinceCount,
} from '@contract/since'
import type { VisitsRepo } from '../store/visits-repo'
import {
  expiringExceptions,
  fixedSince,
  newFindings,
  scansCompleted,
  SINCE_NOTE,
  type SinceRead,
  type SnapshotSource,
} from './counts'

const HOUR = 60 * 60 * 1000
const DAY = 24 * HOUR
const GAP = VISIT_GAP_HOURS * HOUR

export interface SinceDeps {
  visits: Pick<VisitsRepo, 'seenAt' | 'record' | 'left' | 'recordLeft'>
  snapshots: SnapshotSource
  /** Reads of the account under the offline policy (the copy when out of reach). */
  read(accountId: string): SinceRead
  now?: () => Date
}

const plain = ({ value, atLeast, note, fromCache }: SinceCount): SinceCount => ({
  value,
  atLeast,
  note,
  fromCache,
})

/**
 * The counts of an account since its last dashboard visit, and the record of visits. The moment
 * moves on only when the user marks the digest reviewed, or once the dashboard was left for
 * VISIT_GAP_HOURS: drilling into a count and back, or a reload, keep it (issue 36 §1).
 */
export class SinceService {
  constructor(private readonly deps: SinceDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date()
  }

  /**
   * The moment counted from: the last visit, or FIRST_VISIT_DAYS before the start of the current
   * UTC hour before the first (a moment that stays for the hour, so the offline copy of the
   * reads that name it can answer them again; once the dashboard was left, the hour of the counts
   * seen then). A dashboard left VISIT_GAP_HOURS ago or more counts as a visit first.
   */
  sinceOf(accountId: string): { since: string; firstVisit: boolean } {
    this.settle(accountId)
    const seen = this.deps.visits.seenAt(accountId)
    if (seen && Number.isFinite(Date.parse(seen))) return { since: seen, firstVisit: false }
    // A first visit left and not counted yet keeps the hour its counts were made in.
    const until = Date.parse(this.deps.visits.left(accountId)?.until ?? '')
    const hour = Math.floor((Number.isFinite(until) ? until : this.now().getTime()) / HOUR) * HOUR
    const since = new Date(hour - FIRST_VISIT_DAYS * DAY).toISOString()
    return { since, firstVisit: true }
  }

  async counts(accountId: string): Promise<SinceAnswer> {
    const { since, firstVisit } = this.sinceOf(accountId)
    const from = Date.parse(since)
    const now = this.now().getTime()
    const read = this.deps.read(accountId)
    const [newCritical, newHigh, scans, expiring] = await Promise.all([
      newFindings(read, 'critical', from),
      newFindings(read, 'high', from),
      scansCompleted(read, from),
      expiringExceptions(read, now, now + EXPIRING_DAYS * DAY),
    ])
    // Taken once the service answered: every finding it counted was first seen before this.
    const until = this.now().toISOString()
    const fixed: FixedCount =
      scans.value === null
        ? { value: null, atLeast: false, note: SINCE_NOTE.noScans, fromCache: false, scanIds: [] }
        : await fixedSince(
            this.deps.snapshots,
            accountId,
            scans.rows.map((r) => r.id),
            from,
          )
    return {
      accountId,
      since,
      until,
      firstVisit,
      newCritical: plain(newCritical),
      newHigh: plain(newHigh),
      fixed,
      scansCompleted: plain(scans),
      expiring: plain(expiring),
    }
  }

  /**
   * The user left the dashboard having seen counts up to `until`: the digest stays where it is,
   * and moves there once the dashboard stayed left VISIT_GAP_HOURS (the latest leaving counts).
   */
  left(accountId: string, until: string): { since: string } {
    this.settle(accountId)
    const leftAt = this.now().toISOString()
    this.deps.visits.recordLeft(accountId, { leftAt, until: this.notLater(until) })
    return { since: this.sinceOf(accountId).since }
  }

  /** The user marked the digest reviewed: it counts from `until` (what they saw) from now on. */
  reviewed(accountId: string, until: string): { since: string } {
    this.moveTo(accountId, this.notLater(until))
    return { since: this.sinceOf(accountId).since }
  }

  /** A dashboard left VISIT_GAP_HOURS ago or more is a visit: the digest moves to its `until`. */
  private settle(accountId: string): void {
    const left = this.deps.visits.left(accountId)
    if (!left) return
    const at = Date.parse(left.leftAt)
    if (!Number.isFinite(at) || this.now().getTime() - at < GAP) return
    this.moveTo(accountId, left.until)
  }

  /** The digest counts from `at`, never from earlier than a moment already reviewed. */
  private moveTo(accountId: string, at: string): void {
    const seen = this.deps.visits.seenAt(accountId)
    const later = seen && Date.parse(seen) > Date.parse(at) ? seen : at
    this.deps.visits.record(accountId, later)
  }

  /** A moment the renderer sent, never later than now (a clock ahead would hide what comes). */
  private notLater(at: string): string {
    const now = this.now()
    return Date.parse(at) > now.getTime() ? now.toISOString() : new Date(at).toISOString()
  }
}
