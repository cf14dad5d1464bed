// "Since your last visit" per account (issue 19; docs/decisions.md, "Since your last visit").
import {
  EXPIRING_DAYS,
  FIRST_VISIT_DAYS,
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

export interface SinceDeps {
  visits: Pick<VisitsRepo, 'seenAt' | 'record'>
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

/** The counts of an account since its last dashboard visit, and the record of visits. */
export class SinceService {
  constructor(private readonly deps: SinceDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date()
  }

  /**
   * The moment counted from: the last visit, or FIRST_VISIT_DAYS before the start of the current
   * UTC hour before the first (a moment that stays for the hour, so the offline copy of the
   * reads that name it can answer them again).
   */
  sinceOf(accountId: string): { since: string; firstVisit: boolean } {
    const seen = this.deps.visits.seenAt(accountId)
    if (seen && Number.isFinite(Date.parse(seen))) return { since: seen, firstVisit: false }
    const hour = Math.floor(this.now().getTime() / HOUR) * HOUR
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
      firstVisit,
      newCritical: plain(newCritical),
      newHigh: plain(newHigh),
      fixed,
      scansCompleted: plain(scans),
      expiring: plain(expiring),
    }
  }

  /** Records a visit now. */
  seen(accountId: string): { seenAt: string } {
    const seenAt = this.now().toISOString()
    this.deps.visits.record(accountId, seenAt)
    return { seenAt }
  }
}
