import type { DraftKind, DraftView } from '@contract/drafts'
import { fail } from '@contract/errors'
import { openJson, sealJson, type AccountKeys } from '../accounts/account-keys'
import type { Db } from './database'

interface Row {
  kind: DraftKind
  key: string
  sealed: Buffer | null
  /** Plain JSON of a draft saved before drafts were sealed (until its account's key is at hand). */
  data: string | null
  saved_at: string
}

/** What a sealed draft is bound to: a row moved to another account, kind or key does not open. */
export const draftAad = (accountId: string, kind: DraftKind, key: string) =>
  `draft\n${accountId}\n${kind}\n${key}`

/** Why a draft cannot be opened or saved now (the account's key is in the keychain). */
export const DRAFTS_LOCKED =
  'The system keychain is not available, and ScanDesk seals this account’s drafts with a key it keeps there: drafts already saved stay on this computer as they are, and new changes are saved once the keychain answers again. What you entered stays on screen.'

/**
 * Drafts: work in progress kept per account (scan wizard, SAQ answers), sealed with the account's
 * key. Each save is one statement, so one transaction: a crash leaves the previous or the new
 * draft, never half. Without the key nothing is opened or written (KEYCHAIN_UNAVAILABLE), and
 * nothing stored is touched; a draft that does not open under the account's key (altered, or
 * sealed under a key the keychain no longer has) reads as absent and is kept.
 */
export class DraftsRepo {
  constructor(
    private readonly db: Db,
    private readonly keys: AccountKeys,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async get(accountId: string, kind: DraftKind, key: string): Promise<DraftView | null> {
    const row = this.db
      .prepare(
        'SELECT kind, key, sealed, data, saved_at FROM drafts WHERE account_id = ? AND kind = ? AND key = ?',
      )
      .get(accountId, kind, key) as Row | undefined
    if (!row) return null
    let data: unknown
    if (row.sealed === null) data = JSON.parse(row.data ?? 'null')
    else {
      const { key: sealKey } = await this.keys.keyFor(accountId)
      if (!sealKey) fail('KEYCHAIN_UNAVAILABLE', DRAFTS_LOCKED)
      data = openJson(sealKey, draftAad(accountId, kind, key), row.sealed)
      if (data === undefined) return null
    }
    return { kind: row.kind, key: row.key, data, savedAt: row.saved_at }
  }

  /** Stores the draft sealed (replacing the previous one); null when the account does not exist. */
  async save(
    accountId: string,
    kind: DraftKind,
    key: string,
    data: unknown,
  ): Promise<string | null> {
    // No key is made for an account that is not there.
    if (!this.db.prepare('SELECT 1 FROM accounts WHERE id = ?').get(accountId)) return null
    const { key: sealKey } = await this.keys.keyFor(accountId)
    if (!sealKey) fail('KEYCHAIN_UNAVAILABLE', DRAFTS_LOCKED)
    const sealed = sealJson(sealKey, draftAad(accountId, kind, key), data)
    const savedAt = this.now().toISOString()
    try {
      this.db
        .prepare(
          `INSERT INTO drafts (account_id, kind, key, sealed, data, saved_at) VALUES (?, ?, ?, ?, NULL, ?)
           ON CONFLICT (account_id, kind, key) DO UPDATE SET sealed = excluded.sealed, data = NULL,
             saved_at = excluded.saved_at`,
        )
        .run(accountId, kind, key, sealed, savedAt)
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

  /** The account's drafts of a kind, newest first (what is listed needs no key: no content). */
  list(accountId: string, kind: DraftKind): Omit<DraftView, 'data'>[] {
    const rows = this.db
      .prepare(
        'SELECT kind, key, saved_at FROM drafts WHERE account_id = ? AND kind = ? ORDER BY saved_at DESC',
      )
      .all(accountId, kind) as Omit<Row, 'data' | 'sealed'>[]
    return rows.map((r) => ({ kind: r.kind, key: r.key, savedAt: r.saved_at }))
  }

  /** How many drafts of each kind the account keeps (what removing it deletes). */
  counts(accountId: string): Record<DraftKind, number> {
    const rows = this.db
      .prepare('SELECT kind, COUNT(*) AS n FROM drafts WHERE account_id = ? GROUP BY kind')
      .all(accountId) as { kind: DraftKind; n: number }[]
    const counts: Record<DraftKind, number> = { 'scan-wizard': 0, saq: 0, 'saved-views': 0 }
    for (const r of rows) counts[r.kind] = r.n
    return counts
  }
}
