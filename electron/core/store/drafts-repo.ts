import type { DraftKind, DraftView } from '@contract/drafts'
import { fail } from '@contract/errors'
import type { Kept } from '@contract/kept'
import { openJson, sealJson, type KeySource } from '../accounts/account-keys'
import type { Db } from './database'
import type { SessionStore } from './session-store'

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
  'The system keychain is not available, and ScanDesk seals this account’s drafts with a key it keeps there: drafts already saved stay on this computer as they are, unopened, until it answers again. What you enter meanwhile is kept in memory until ScanDesk closes.'

/**
 * One drafts table (on disk, or the session store's in memory) sealed with keys from `keys`.
 * Each save is one statement, so one transaction: a crash leaves the previous or the new draft,
 * never half. Without a key nothing is opened or written (KEYCHAIN_UNAVAILABLE), and nothing
 * stored is touched; a draft that does not open under the key reads as absent and is kept.
 */
class DraftTable {
  constructor(
    private readonly db: Db,
    private readonly keys: KeySource,
    private readonly kept: Kept,
    private readonly now: () => Date,
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
    return { kind: row.kind, key: row.key, data, savedAt: row.saved_at, kept: this.kept }
  }

  has(accountId: string, kind: DraftKind, key: string): boolean {
    return !!this.db
      .prepare('SELECT 1 FROM drafts WHERE account_id = ? AND kind = ? AND key = ?')
      .get(accountId, kind, key)
  }

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

  list(accountId: string, kind: DraftKind): Omit<DraftView, 'data'>[] {
    const rows = this.db
      .prepare(
        'SELECT kind, key, saved_at FROM drafts WHERE account_id = ? AND kind = ? ORDER BY saved_at DESC',
      )
      .all(accountId, kind) as Omit<Row, 'data' | 'sealed'>[]
    return rows.map((r) => ({ kind: r.kind, key: r.key, savedAt: r.saved_at, kept: this.kept }))
  }
}

const KINDS: DraftKind[] = ['scan-wizard', 'saq', 'saved-views', 'dialog']

/** What open form dialogs hold (kind 'dialog'), per account and dialog: this run's memory only. */
class DialogDrafts {
  private readonly held = new Map<
    string,
    { accountId: string; key: string; data: unknown; savedAt: string }
  >()
  private readonly id = (accountId: string, key: string) => `${accountId}\n${key}`

  constructor(private readonly now: () => Date) {}

  get(accountId: string, key: string): DraftView | null {
    const d = this.held.get(this.id(accountId, key))
    return d ? { kind: 'dialog', key, data: d.data, savedAt: d.savedAt, kept: 'memory' } : null
  }

  save(accountId: string, key: string, data: unknown): { savedAt: string; kept: Kept } {
    const savedAt = this.now().toISOString()
    this.held.set(this.id(accountId, key), { accountId, key, data, savedAt })
    return { savedAt, kept: 'memory' }
  }

  delete(accountId: string, key: string): boolean {
    return this.held.delete(this.id(accountId, key))
  }

  list(accountId: string): Omit<DraftView, 'data'>[] {
    return [...this.held.values()]
      .filter((d) => d.accountId === accountId)
      .map((d) => ({
        kind: 'dialog' as const,
        key: d.key,
        savedAt: d.savedAt,
        kept: 'memory' as const,
      }))
  }

  forget(accountId: string): void {
    for (const [id, d] of this.held) if (d.accountId === accountId) this.held.delete(id)
  }
}

/**
 * Drafts: work in progress kept per account (scan wizard, SAQ answers, saved views), sealed with
 * the account's key on disk. With a session store, an account that has no key now (no keychain)
 * keeps its drafts there, in memory until ScanDesk closes, and each answer says where a draft is
 * (`kept`). A draft held in memory is read from there first; once the key is at hand it moves to
 * disk with its next save, unless a draft on disk has the same place: that one was never opened
 * in this run and is not overwritten (the memory one stays until ScanDesk closes).
 */
export class DraftsRepo {
  private readonly disk: DraftTable
  private readonly memory: DraftTable | null
  private readonly dialogs: DialogDrafts

  constructor(
    private readonly db: Db,
    keys: KeySource,
    now: () => Date = () => new Date(),
    private readonly session: SessionStore | null = null,
  ) {
    this.disk = new DraftTable(db, keys, 'disk', now)
    this.dialogs = new DialogDrafts(now)
    this.memory = session ? new DraftTable(session.db, session.keys, 'memory', now) : null
  }

  private inMemory(accountId: string, kind: DraftKind, key: string): boolean {
    return !!this.memory?.has(accountId, kind, key)
  }

  async get(accountId: string, kind: DraftKind, key: string): Promise<DraftView | null> {
    if (kind === 'dialog') return this.dialogs.get(accountId, key)
    if (this.memory && this.inMemory(accountId, kind, key))
      return this.memory.get(accountId, kind, key)
    return this.disk.get(accountId, kind, key)
  }

  /** Stores the draft (replacing the previous one); null when the account does not exist. */
  async save(
    accountId: string,
    kind: DraftKind,
    key: string,
    data: unknown,
  ): Promise<{ savedAt: string; kept: Kept } | null> {
    if (kind === 'dialog') {
      if (!this.db.prepare('SELECT 1 FROM accounts WHERE id = ?').get(accountId)) return null
      return this.dialogs.save(accountId, key, data)
    }
    if (!this.memory || !this.session) {
      const savedAt = await this.disk.save(accountId, kind, key, data)
      return savedAt ? { savedAt, kept: 'disk' } : null
    }
    const place = await this.session.placeOf(accountId)
    if (!place) return null
    const held = this.inMemory(accountId, kind, key)
    if (place === 'memory' || (held && this.disk.has(accountId, kind, key))) {
      this.session.ensureAccount(accountId)
      const savedAt = await this.memory.save(accountId, kind, key, data)
      return savedAt ? { savedAt, kept: 'memory' } : null
    }
    const savedAt = await this.disk.save(accountId, kind, key, data)
    if (savedAt && held) this.memory.delete(accountId, kind, key)
    return savedAt ? { savedAt, kept: 'disk' } : null
  }

  delete(accountId: string, kind: DraftKind, key: string): boolean {
    if (kind === 'dialog') return this.dialogs.delete(accountId, key)
    const fromMemory = this.memory?.delete(accountId, kind, key) ?? false
    return this.disk.delete(accountId, kind, key) || fromMemory
  }

  /** The account's drafts of a kind, newest first (what is listed needs no key: no content). */
  list(accountId: string, kind: DraftKind): Omit<DraftView, 'data'>[] {
    if (kind === 'dialog') return this.dialogs.list(accountId)
    const held = this.memory?.list(accountId, kind) ?? []
    const keys = new Set(held.map((d) => d.key))
    return [...held, ...this.disk.list(accountId, kind).filter((d) => !keys.has(d.key))].sort(
      (a, b) => b.savedAt.localeCompare(a.savedAt),
    )
  }

  /** How many drafts of each kind the account keeps (what removing it deletes). */
  counts(accountId: string): Record<DraftKind, number> {
    const counts: Record<DraftKind, number> = {
      'scan-wizard': 0,
      saq: 0,
      'saved-views': 0,
      dialog: 0,
    }
    for (const kind of KINDS) counts[kind] = this.list(accountId, kind).length
    return counts
  }

  /** Forgets what this run held in memory of the account (it was removed). */
  forget(accountId: string): void {
    this.dialogs.forget(accountId)
  }
}
