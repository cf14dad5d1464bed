import type {
  DocumentFormat,
  EvidenceOrigin,
  LedgerEntry,
  LedgerKind,
  Verdict,
} from '@contract/files'
import type { Db } from './database'

/** Fields of a ledger entry that a re-verification changes. */
export type LedgerPatch = Partial<Pick<LedgerEntry, 'verdict' | 'detail' | 'verifiedAt' | 'path'>>

interface RawEntry {
  id: string
  account_id: string
  account_label: string
  current_label: string | null
  kind: string
  resource_id: string
  resource_name: string
  format: string
  path: string
  size: number
  sha256: string
  verdict: string
  detail: string | null
  downloaded_at: string
  verified_at: string | null
  saq_type: string | null
  saq_status: string | null
  requirement: string | null
  linked_at: string | null
  origin: string | null
}

/** The stored origin (JSON, migration 17), or null when absent or unreadable. */
function originOf(text: string | null): EvidenceOrigin | null {
  if (!text) return null
  try {
    const o = JSON.parse(text) as EvidenceOrigin
    return o && typeof o.operation === 'string' ? o : null
  } catch {
    return null
  }
}

function fromRaw(r: RawEntry): LedgerEntry {
  return {
    id: r.id,
    accountId: r.account_id,
    // The account's current label; the stored one (marked) once the account was removed.
    accountLabel: r.current_label ?? `${r.account_label} (removed)`,
    kind: r.kind as LedgerKind,
    resourceId: r.resource_id,
    resourceName: r.resource_name,
    format: r.format as DocumentFormat | 'file',
    saq:
      r.saq_type !== null || r.saq_status !== null
        ? { saqType: r.saq_type ?? '', status: r.saq_status ?? '', requirement: r.requirement }
        : null,
    path: r.path,
    size: r.size,
    sha256: r.sha256,
    verdict: r.verdict as Verdict,
    detail: r.detail,
    downloadedAt: r.downloaded_at,
    verifiedAt: r.verified_at,
    linkedAt: r.linked_at,
    origin: originOf(r.origin),
  }
}

const SELECT = `SELECT l.*, a.label AS current_label FROM file_ledger l
  LEFT JOIN accounts a ON a.id = l.account_id`

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/**
 * The file_ledger table (migration 2, rebuilt by 5): one row per download or SAQ evidence file,
 * kept when its account is removed (the file stays on disk).
 */
export class LedgerRepo {
  constructor(private readonly db: Db) {}

  /** Records one download (or evidence file). */
  insert(entry: LedgerEntry): void {
    const { saq, linkedAt, origin, ...rest } = entry
    this.db
      .prepare(
        `INSERT INTO file_ledger (id, account_id, account_label, kind, resource_id, resource_name,
           format, path, size, sha256, verdict, detail, downloaded_at, verified_at, saq_type,
           saq_status, requirement, linked_at, origin)
         VALUES (@id, @accountId, @accountLabel, @kind, @resourceId, @resourceName, @format, @path,
           @size, @sha256, @verdict, @detail, @downloadedAt, @verifiedAt, @saqType, @saqStatus,
           @requirement, @linkedAt, @origin)`,
      )
      .run({
        ...rest,
        linkedAt: linkedAt ?? null,
        origin: origin ? JSON.stringify(origin) : null,
        saqType: saq?.saqType ?? null,
        saqStatus: saq?.status ?? null,
        requirement: saq?.requirement ?? null,
      })
  }

  /**
   * The entries of one kind about one resource of an account (an SAQ's evidence), oldest first
   * (in insertion order within the same millisecond).
   */
  listFor(accountId: string, kind: LedgerKind, resourceId: string): LedgerEntry[] {
    const rows = this.db
      .prepare(
        `${SELECT} WHERE l.account_id = ? AND l.kind = ? AND l.resource_id = ?
         ORDER BY l.downloaded_at, l.rowid`,
      )
      .all(accountId, kind, resourceId) as RawEntry[]
    return rows.map(fromRaw)
  }

  /**
   * Re-points the entries of one kind from one resource id to another, recording when (`at`, an
   * ISO time) in `linked_at`; returns how many.
   */
  relink(accountId: string, kind: LedgerKind, fromId: string, toId: string, at: string): number {
    return this.db
      .prepare(
        `UPDATE file_ledger SET resource_id = ?, linked_at = ?
         WHERE account_id = ? AND kind = ? AND resource_id = ?`,
      )
      .run(toId, at, accountId, kind, fromId).changes
  }

  /** Deletes one entry; true when it existed. */
  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM file_ledger WHERE id = ?').run(id).changes > 0
  }

  /** One entry, or undefined. */
  get(id: string): LedgerEntry | undefined {
    const raw = this.db.prepare(`${SELECT} WHERE l.id = ?`).get(id) as RawEntry | undefined
    return raw && fromRaw(raw)
  }

  /** Entries, newest first; optionally of one account and matching `search` (name, path, format). */
  list(filter: { accountId?: string; search?: string } = {}): LedgerEntry[] {
    const where: string[] = []
    const values: Record<string, string> = {}
    if (filter.accountId) {
      where.push('l.account_id = @accountId')
      values.accountId = filter.accountId
    }
    const search = filter.search?.trim()
    if (search) {
      where.push(
        `(l.resource_name LIKE @q ESCAPE '\\' OR l.path LIKE @q ESCAPE '\\'
          OR l.format LIKE @q ESCAPE '\\' OR l.resource_id LIKE @q ESCAPE '\\'
          OR l.saq_type LIKE @q ESCAPE '\\' OR l.requirement LIKE @q ESCAPE '\\')`,
      )
      values.q = `%${escapeLike(search)}%`
    }
    const sql = `${SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY l.downloaded_at DESC, l.id`
    return (this.db.prepare(sql).all(values) as RawEntry[]).map(fromRaw)
  }

  /** Changes the verdict (and detail, time, path); returns the updated entry. */
  update(id: string, patch: LedgerPatch): LedgerEntry | undefined {
    const sets: string[] = []
    const values: Record<string, unknown> = { id }
    const columns = {
      verdict: 'verdict',
      detail: 'detail',
      verifiedAt: 'verified_at',
      path: 'path',
    }
    for (const [key, column] of Object.entries(columns) as [keyof LedgerPatch, string][]) {
      if (!(key in patch)) continue
      sets.push(`${column} = @${key}`)
      values[key] = patch[key] ?? null
    }
    if (sets.length)
      this.db.prepare(`UPDATE file_ledger SET ${sets.join(', ')} WHERE id = @id`).run(values)
    return this.get(id)
  }
}
