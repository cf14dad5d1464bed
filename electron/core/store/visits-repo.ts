import type { Db } from './database'

/** The dashboard last left and not counted as a visit yet: when, and up to when it counted. */
export interface LeftVisit {
  leftAt: string
  until: string
}

/**
 * An account's dashboard visits (plain: not secret): the moment its "Since your last visit" counts
 * from (migration 14), and the last time the dashboard was left, which counts as a visit only
 * later (migration 18; docs/decisions.md, "Since your last visit").
 */
export class VisitsRepo {
  constructor(private readonly db: Db) {}

  /** The moment the account's digest counts from, or null before its first visit counted. */
  seenAt(accountId: string): string | null {
    const row = this.db
      .prepare('SELECT seen_at FROM dashboard_visits WHERE account_id = ?')
      .get(accountId) as { seen_at: string } | undefined
    return row?.seen_at ?? null
  }

  /**
   * Makes the digest count from `at` (one transaction that also forgets the dashboard left before
   * it); false when there is no such account.
   */
  record(accountId: string, at: string): boolean {
    if (!this.exists(accountId)) return false
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO dashboard_visits (account_id, seen_at) VALUES (?, ?)
           ON CONFLICT (account_id) DO UPDATE SET seen_at = excluded.seen_at`,
        )
        .run(accountId, at)
      this.db.prepare('DELETE FROM dashboard_left WHERE account_id = ?').run(accountId)
    })()
    return true
  }

  /** The dashboard last left and not yet counted as a visit, or null. */
  left(accountId: string): LeftVisit | null {
    const row = this.db
      .prepare('SELECT left_at, until FROM dashboard_left WHERE account_id = ?')
      .get(accountId) as { left_at: string; until: string } | undefined
    return row ? { leftAt: row.left_at, until: row.until } : null
  }

  /** Records that the dashboard was left at `leftAt` having counted up to `until` (the newest wins). */
  recordLeft(accountId: string, visit: LeftVisit): boolean {
    if (!this.exists(accountId)) return false
    this.db
      .prepare(
        `INSERT INTO dashboard_left (account_id, left_at, until) VALUES (?, ?, ?)
         ON CONFLICT (account_id) DO UPDATE SET left_at = excluded.left_at, until = excluded.until`,
      )
      .run(accountId, visit.leftAt, visit.until)
    return true
  }

  private exists(accountId: string): boolean {
    return !!this.db.prepare('SELECT 1 FROM accounts WHERE id = ?').get(accountId)
  }
}
