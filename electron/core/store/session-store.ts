import type { Kept } from '@contract/kept'
import { SessionKeys, type KeySource } from '../accounts/account-keys'
import { openMemoryDatabase, type Db } from './database'

/**
 * Where ScanDesk keeps, for this run only, what it would seal with an account's key while the
 * account has none (no keychain, or one that does not answer): drafts, saved views, bulk runs and
 * their writes, queued changes. An in-memory SQLite database with the same schema, sealed with
 * keys of this run (`SessionKeys`), so the repositories that keep them on disk keep them here
 * with the same code and the same guarantees (a bulk write is still sent once); nothing of it
 * reaches the disk, and all of it is gone when ScanDesk closes.
 */
export class SessionStore {
  /** The in-memory tables. */
  readonly db: Db = openMemoryDatabase()
  /** This run's sealing keys, one per account. */
  readonly keys = new SessionKeys()

  constructor(
    /** The store on disk: the accounts whose things may be kept here are its accounts. */
    private readonly disk: Db,
    /** The accounts' own keys: an account without one keeps new things here. */
    private readonly accountKeys: KeySource,
  ) {}

  /**
   * Where what is kept of the account now goes: on disk when its key is at hand, else here (the
   * account's row is copied first, for the foreign keys; null when there is no such account).
   */
  async placeOf(accountId: string): Promise<Kept | null> {
    if (!this.accountExists(accountId)) return null
    const { key } = await this.accountKeys.keyFor(accountId)
    if (key) return 'disk'
    this.ensureAccount(accountId)
    return 'memory'
  }

  /** True when the account is stored (on disk). */
  accountExists(accountId: string): boolean {
    return !!this.disk.prepare('SELECT 1 FROM accounts WHERE id = ?').get(accountId)
  }

  /** Copies the account's label into the memory tables (the rest is not needed here). */
  ensureAccount(accountId: string): boolean {
    const row = this.disk.prepare('SELECT label FROM accounts WHERE id = ?').get(accountId) as
      { label: string } | undefined
    if (!row) return false
    const now = new Date().toISOString()
    this.db
      .prepare(
        `INSERT OR IGNORE INTO accounts
           (id, label, base_url, username, release, color, auth_method, created_at, updated_at)
         VALUES (?, ?, '', '', '', '', 'password', ?, ?)`,
      )
      .run(accountId, row.label, now, now)
    return true
  }

  /** Forgets everything kept here of the account (it was removed): its rows and its key. */
  forget(accountId: string): void {
    this.db.prepare('DELETE FROM accounts WHERE id = ?').run(accountId)
    this.keys.forget(accountId)
  }

  close(): void {
    this.db.close()
  }
}
