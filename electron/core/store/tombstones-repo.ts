import type { SecretKind } from '../accounts/vault'
import type { Db } from './database'

/** One secret still to be deleted from the OS keychain. */
export interface Tombstone {
  accountId: string
  kind: SecretKind
  createdAt: string
}

/**
 * The keychain_tombstones table: deletes the keychain could not take yet (names only, never a
 * secret). The resilient vault records one when a delete fails and replays them at start.
 */
export class TombstonesRepo {
  constructor(private readonly db: Db) {}

  /** Records (or keeps the first record of) a pending delete. */
  add(accountId: string, kind: SecretKind, createdAt: string): void {
    this.db
      .prepare(
        'INSERT INTO keychain_tombstones (account_id, kind, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
      )
      .run(accountId, kind, createdAt)
  }

  /** Forgets a pending delete (it was done, or the secret was written again). */
  remove(accountId: string, kind: SecretKind): void {
    this.db
      .prepare('DELETE FROM keychain_tombstones WHERE account_id = ? AND kind = ?')
      .run(accountId, kind)
  }

  /** Every pending delete, oldest first. */
  list(): Tombstone[] {
    const rows = this.db
      .prepare(
        'SELECT account_id, kind, created_at FROM keychain_tombstones ORDER BY created_at, account_id, kind',
      )
      .all() as { account_id: string; kind: SecretKind; created_at: string }[]
    return rows.map((r) => ({ accountId: r.account_id, kind: r.kind, createdAt: r.created_at }))
  }
}
