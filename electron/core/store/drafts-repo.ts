import type { DraftKind, DraftView } from '@contract/drafts'
import type { Db } from './database'

interface Row {
  kind: DraftKind
  key: string
  data: string
  saved_at: string
}

/**
 * Drafts: work in progress kept per account (scan wizard, SAQ answers). Each save is one
 * statement, so one transaction: a crash leaves the previous or the new draft, never half.
 */
export class DraftsRepo {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get(accountId: string, kind: DraftKind, key: string): DraftView | null {
    const row = this.db
      .prepare(
        'SELECT kind, key, data, saved_at FROM drafts WHERE account_id = ? AND kind = ? AND key = ?',
      )
      .get(accountId, kind, key) as Row | undefined
    return row
      ? { kind: row.kind, key: row.key, data: JSON.parse(row.data), savedAt: row.saved_at }
      : null
  }

  /** Stores the draft (replacing the previous one); false when the account does not exist. */
  save(accountId: string, kind: DraftKind, key: string, data: unknown): string | null {
    const savedAt = this.now().toISOString()
    try {
      this.db
        .prepare(
          `INSERT INTO drafts (account_id, kind, key, data, saved_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (account_id, kind, key) DO UPDATE SET data = excluded.data,
             saved_at = excluded.saved_at`,
        )
        .run(accountId, kind, key, JSON.stringify(data), savedAt)
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return null
      throw error
    }
    return savedAt
  }

  delete(accountId: string, kind: DraftKind, key: string): boolean {
    const info = this.db
      .prepare('DELETE FROM drafts WHERE account_id = ? AND kind = ? AND key = ?')
      .run(accountId, kind, key)
    return info.changes > 0
  }

  list(accountId: string, kind: DraftKind): Omit<DraftView, 'data'>[] {
    const rows = this.db
      .prepare(
        'SELECT kind, key, saved_at FROM drafts WHERE account_id = ? AND kind = ? ORDER BY saved_at DESC',
      )
      .all(accountId, kind) as Omit<Row, 'data'>[]
    return rows.map((r) => ({ kind: r.kind, key: r.key, savedAt: r.saved_at }))
  }
}
