import type { Db } from './database'

/** When the user last left each account's dashboard (migration 14; plain: not secret). */
export class VisitsRepo {
  constructor(private readonly db: Db) {}

  /** The account's last recorded visit, or null before its first. */
  seenAt(accountId: string): string | null {
    const row = this.db
      .prepare('SELECT seen_at FROM dashboard_visits WHERE account_id = ?')
      .get(accountId) as { seen_at: string } | undefined
    return row?.seen_at ?? null
  }

  /** Records a visit at `at` (one statement); false when there is no such account. */
  record(accountId: string, at: string): boolean {
    if (!this.db.prepare('SELECT 1 FROM accounts WHERE id = ?').get(accountId)) return false
    this.db
      .prepare(
        `INSERT INTO dashboard_visits (account_id, seen_at) VALUES (?, ?)
         ON CONFLICT (account_id) DO UPDATE SET seen_at = excluded.seen_at`,
      )
      .run(accountId, at)
    return true
  }
}
