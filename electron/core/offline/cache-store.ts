import { createHash } from 'node:crypto'
import { deflateRawSync, inflateRawSync } from 'node:zlib'
import type Database from 'better-sqlite3'
import type { CacheStatus } from '@contract/offline'
import type { Db } from '../store/database'
import { entryName, open, seal, type CacheKeys } from './cache-keys'

/** One stored answer with the validators the service gave it. */
export interface CachedAnswer {
  data: unknown
  fetchedAt: string
  etag: string | null
  lastModified: string | null
  /** What a tolerant reading had to say about the answer (shown once by the view). */
  warnings?: string[]
}

/** What the store needs besides its database. */
export interface CacheStoreOptions {
  keys: CacheKeys
  /** The cap per account, read at each write (Settings.cacheMaxBytes). */
  maxBytes: () => number
  /** Why the previous file was set aside at start (shown in the status), or null. */
  setAside?: string | null
  /** Bytes written after which the WAL is checkpointed once writes pause. */
  checkpointBytes?: number
  log?: (level: 'info' | 'warn' | 'error', message: string) => void
  now?: () => Date
}

interface Row {
  blob: Buffer
  fetched_at: string
}

const CHECKPOINT_IDLE_MS = 1_000

function digestOf(text: string): string {
  return createHash('sha256').update(text).digest('base64')
}

const recentKey = (accountId: string, request: string) => `${accountId}\n${request}`

/** Answers held in memory for accounts without a key, least recently used first (Map order). */
type MemoryCopy = Map<string, { answer: CachedAnswer; size: number }>

/**
 * The offline copy: per account, the last answer of each cacheable read, compressed and
 * encrypted with the account's key (AES-256-GCM, bound to account and entry), named by an HMAC of
 * the request, evicted least recently used above the cap. Without a key (no keychain) nothing is
 * written to disk: answers are held in memory for this run only, under the same cap. A row that
 * does not open (altered, or sealed under a key that was replaced) is removed and counts as
 * absent.
 */
/** What is remembered in memory of a stored entry: its validators and a digest of its content. */
interface Recent {
  etag: string | null
  lastModified: string | null
  digest: string
  /** When its use was last written (the eviction order), ms. */
  usedAt: number
}

/** Entries whose validators and digest are remembered (the most recently used). */
const RECENT_MAX = 2_000
/** Decoded answers kept warm: how many, and the largest (JSON characters). */
const HOT_MAX = 256
const HOT_MAX_CHARS = 256 * 1024

export class CacheStore {
  private readonly memory = new Map<string, MemoryCopy>()
  /** account + request → validators and digest, so a read need not open its copy to ask. */
  private readonly recent = new Map<string, Recent>()
  /** The most recently used answers, decoded (small ones only): a 304 needs no decryption. */
  private readonly hot = new Map<string, CachedAnswer>()
  private readonly statements = new Map<string, Database.Statement>()
  private unwritten = 0
  private checkpointTimer: NodeJS.Timeout | null = null
  private closed = false

  constructor(
    private readonly db: Db,
    private readonly options: CacheStoreOptions,
  ) {}

  private now(): Date {
    return this.options.now?.() ?? new Date()
  }

  /** A prepared statement, prepared once. */
  private sql(text: string): Database.Statement {
    let statement = this.statements.get(text)
    if (!statement) {
      statement = this.db.prepare(text)
      this.statements.set(text, statement)
    }
    return statement
  }

  private aad(accountId: string, id: Buffer): Buffer {
    return Buffer.concat([Buffer.from(`${accountId}\n`, 'utf8'), id])
  }

  private async key(accountId: string) {
    const outcome = await this.options.keys.keyFor(accountId)
    // A new key cannot open rows sealed under an earlier one (a keychain that lost it).
    if (outcome.key && outcome.fresh) this.clear(accountId)
    return outcome.key
  }

  /** The stored answer of `request` (its canonical text), or null. */
  async get(accountId: string, request: string): Promise<CachedAnswer | null> {
    if (this.closed) return null
    const key = await this.key(accountId)
    if (!key) return this.fromMemory(accountId, request)
    const id = entryName(key, request)
    const warm = this.hot.get(recentKey(accountId, request))
    if (warm) {
      this.hot.delete(recentKey(accountId, request))
      this.hot.set(recentKey(accountId, request), warm)
      this.used(accountId, request, id)
      return warm
    }
    const row = this.sql(
      'SELECT blob, fetched_at FROM cache_entries WHERE account_id = ? AND id = ?',
    ).get(accountId, id) as Row | undefined
    if (!row) return null
    const plain = open(key, this.aad(accountId, id), row.blob)
    let answer: CachedAnswer | null = null
    if (plain) {
      try {
        const text = inflateRawSync(plain).toString('utf8')
        const parsed = JSON.parse(text) as Omit<CachedAnswer, 'fetchedAt'>
        answer = { ...parsed, fetchedAt: row.fetched_at }
        this.remember(accountId, request, {
          etag: answer.etag,
          lastModified: answer.lastModified,
          digest: digestOf(text),
          usedAt: 0,
        })
        this.warm(accountId, request, answer, text.length)
      } catch {
        answer = null
      }
    }
    if (!answer) {
      this.options.log?.('warn', 'an offline copy entry did not open and was removed')
      this.db
        .prepare('DELETE FROM cache_entries WHERE account_id = ? AND id = ?')
        .run(accountId, id)
      return null
    }
    this.used(accountId, request, id)
    return answer
  }

  /** Records a use for the eviction order, at most once a minute per entry (a write each). */
  private used(accountId: string, request: string, id: Buffer): void {
    const recent = this.recent.get(recentKey(accountId, request))
    const now = this.now().getTime()
    if (recent && now - recent.usedAt < 60_000) return
    if (recent) recent.usedAt = now
    this.sql('UPDATE cache_entries SET used_at = ? WHERE account_id = ? AND id = ?').run(
      now,
      accountId,
      id,
    )
  }

  private warm(accountId: string, request: string, answer: CachedAnswer, size: number): void {
    const key = recentKey(accountId, request)
    this.hot.delete(key)
    if (size > HOT_MAX_CHARS) return
    this.hot.set(key, answer)
    if (this.hot.size > HOT_MAX) this.hot.delete(this.hot.keys().next().value!)
  }

  /** Stores (or replaces) the answer of `request`; false when it was not kept. */
  async put(accountId: string, request: string, answer: CachedAnswer): Promise<boolean> {
    if (this.closed) return false
    const key = await this.key(accountId)
    if (!key) return this.toMemory(accountId, request, answer)
    const id = entryName(key, request)
    const { data, etag, lastModified, warnings } = answer
    const text = JSON.stringify({ data, etag, lastModified, warnings })
    const digest = digestOf(text)
    // The same answer as stored: it only counts as fetched now (no compress, seal, rewrite).
    if (this.recent.get(recentKey(accountId, request))?.digest === digest) {
      const { changes } = this.sql(
        'UPDATE cache_entries SET fetched_at = ?, used_at = ? WHERE account_id = ? AND id = ?',
      ).run(answer.fetchedAt, this.now().getTime(), accountId, id)
      if (changes > 0) {
        this.warm(accountId, request, answer, text.length)
        return true
      }
    }
    const plain = deflateRawSync(Buffer.from(text), { level: 1 })
    const blob = seal(key, this.aad(accountId, id), plain)
    const cap = this.options.maxBytes()
    if (blob.length > cap) return false
    this.db.transaction(() => {
      this.sql(
        `INSERT INTO cache_entries (account_id, id, blob, size, fetched_at, used_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, id) DO UPDATE SET blob = excluded.blob, size = excluded.size,
           fetched_at = excluded.fetched_at, used_at = excluded.used_at`,
      ).run(accountId, id, blob, blob.length, answer.fetchedAt, this.now().getTime())
      this.evict(accountId, cap)
    })()
    this.remember(accountId, request, { etag, lastModified, digest, usedAt: this.now().getTime() })
    this.warm(accountId, request, answer, text.length)
    this.wrote(blob.length)
    return true
  }

  /** The service said the copy is current (304): it counts as fetched now. */
  async touch(accountId: string, request: string, fetchedAt: string): Promise<void> {
    if (this.closed) return
    const key = await this.key(accountId)
    if (!key) {
      const held = this.memory.get(accountId)?.get(request)
      if (held) held.answer = { ...held.answer, fetchedAt }
      return
    }
    this.sql(
      'UPDATE cache_entries SET fetched_at = ?, used_at = ? WHERE account_id = ? AND id = ?',
    ).run(fetchedAt, this.now().getTime(), accountId, entryName(key, request))
    const warm = this.hot.get(recentKey(accountId, request))
    if (warm) this.hot.set(recentKey(accountId, request), { ...warm, fetchedAt })
  }

  /**
   * The validators of the stored answer (to ask the service "changed since?"), or null when
   * there is none; read from memory when known, without opening the copy.
   */
  async validators(
    accountId: string,
    request: string,
  ): Promise<{ etag: string | null; lastModified: string | null } | null> {
    const known = this.recent.get(recentKey(accountId, request))
    if (known) return { etag: known.etag, lastModified: known.lastModified }
    const copy = await this.get(accountId, request)
    return copy ? { etag: copy.etag, lastModified: copy.lastModified } : null
  }

  private remember(accountId: string, request: string, recent: Recent): void {
    const key = recentKey(accountId, request)
    this.recent.delete(key)
    this.recent.set(key, recent)
    if (this.recent.size > RECENT_MAX) this.recent.delete(this.recent.keys().next().value!)
  }

  private fromMemory(accountId: string, request: string): CachedAnswer | null {
    const copy = this.memory.get(accountId)
    const held = copy?.get(request)
    if (!copy || !held) return null
    copy.delete(request)
    copy.set(request, held)
    return held.answer
  }

  private toMemory(accountId: string, request: string, answer: CachedAnswer): boolean {
    const size = Buffer.byteLength(JSON.stringify(answer.data))
    const cap = this.options.maxBytes()
    if (size > cap) return false
    let copy = this.memory.get(accountId)
    if (!copy) this.memory.set(accountId, (copy = new Map()))
    copy.delete(request)
    copy.set(request, { answer, size })
    let total = 0
    for (const held of copy.values()) total += held.size
    for (const [name, held] of copy) {
      if (total <= cap) break
      copy.delete(name)
      total -= held.size
    }
    return true
  }

  /** Removes the least recently used entries until the account's copy is within 90% of `cap`. */
  private evict(accountId: string, cap: number): void {
    let total = this.bytes(accountId)
    if (total <= cap) return
    const rows = this.db
      .prepare('SELECT id, size FROM cache_entries WHERE account_id = ? ORDER BY used_at, rowid')
      .iterate(accountId) as IterableIterator<{ id: Buffer; size: number }>
    const drop: Buffer[] = []
    for (const row of rows) {
      if (total <= cap * 0.9) break
      drop.push(row.id)
      total -= row.size
    }
    const del = this.sql('DELETE FROM cache_entries WHERE account_id = ? AND id = ?')
    for (const id of drop) del.run(accountId, id)
    // Rows are named by HMAC, not by request: forget every warm answer of the account.
    if (drop.length)
      for (const key of [...this.hot.keys()])
        if (key.startsWith(`${accountId}\n`)) this.hot.delete(key)
  }

  private bytes(accountId: string): number {
    const row = this.sql(
      'SELECT COALESCE(SUM(size), 0) AS bytes FROM cache_entries WHERE account_id = ?',
    ).get(accountId) as { bytes: number }
    return row.bytes
  }

  /** Entries, size and ages of the account's copy, and whether it is kept on disk at all. */
  async status(accountId: string): Promise<CacheStatus> {
    const outcome = await this.options.keys.keyFor(accountId)
    if (!outcome.key) {
      const held = [...(this.memory.get(accountId)?.values() ?? [])]
      const times = held.map((h) => h.answer.fetchedAt).sort()
      return {
        accountId,
        entries: held.length,
        bytes: held.reduce((sum, h) => sum + h.size, 0),
        oldest: times[0] ?? null,
        newest: times.at(-1) ?? null,
        maxBytes: this.options.maxBytes(),
        persisted: false,
        message: outcome.reason,
      }
    }
    const row = this.db
      .prepare(
        `SELECT COUNT(*) AS entries, COALESCE(SUM(size), 0) AS bytes, MIN(fetched_at) AS oldest,
           MAX(fetched_at) AS newest FROM cache_entries WHERE account_id = ?`,
      )
      .get(accountId) as {
      entries: number
      bytes: number
      oldest: string | null
      newest: string | null
    }
    const setAside = this.options.setAside
      ? `The offline copy on this computer was damaged (${this.options.setAside}) and was set aside; it fills again as you work online.`
      : null
    return {
      accountId,
      ...row,
      maxBytes: this.options.maxBytes(),
      persisted: true,
      message: setAside,
    }
  }

  /** Deletes the account's copy (on request, or with the account). */
  clear(accountId: string): void {
    this.memory.delete(accountId)
    for (const map of [this.recent, this.hot])
      for (const key of [...map.keys()]) if (key.startsWith(`${accountId}\n`)) map.delete(key)
    if (this.closed) return
    const { changes } = this.db
      .prepare('DELETE FROM cache_entries WHERE account_id = ?')
      .run(accountId)
    if (changes > 0) this.wrote(1)
  }

  /** Deletes the account's copy and forgets its key (the account was removed). */
  dropAccount(accountId: string): void {
    this.clear(accountId)
    this.options.keys.forget(accountId)
  }

  /** After a bulk of writes, once they pause: fold the WAL back into the file. */
  private wrote(bytes: number): void {
    this.unwritten += bytes
    if (this.unwritten < (this.options.checkpointBytes ?? 8 * 1024 ** 2)) return
    if (this.checkpointTimer) clearTimeout(this.checkpointTimer)
    this.checkpointTimer = setTimeout(() => this.checkpoint(), CHECKPOINT_IDLE_MS)
    this.checkpointTimer.unref()
  }

  /** Checkpoints the WAL now (TRUNCATE); returns the pages moved. */
  checkpoint(): number {
    if (this.checkpointTimer) clearTimeout(this.checkpointTimer)
    this.checkpointTimer = null
    if (this.closed) return 0
    this.unwritten = 0
    const [result] = this.db.pragma('wal_checkpoint(TRUNCATE)') as { checkpointed: number }[]
    return result?.checkpointed ?? 0
  }

  close(): void {
    if (this.closed) return
    if (this.unwritten > 0) this.checkpoint()
    this.closed = true
    this.memory.clear()
    this.db.close()
  }
}
