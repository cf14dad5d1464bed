import { createHash } from 'node:crypto'
import type { CacheStatus } from '@contract/offline'
import { entryName, type AccountKey } from '../accounts/account-keys'
import { keepJsonText, toJsonText } from '../json-text'
import type { Db } from '../store/database'
import { statementCache, type Statements } from '../store/statements'
import type { CachedAnswer, CacheOwner, CacheStoreOptions } from './cache-types'
import { MemoryCopies } from './cache-memory'
import { nameOf, recentKey, RecentEntries, type Recent } from './cache-recent'
import { blobTag, openRow, openStamp, sealAnswer, sealStamp, type SealedRow } from './cache-seal'
import { StampRenewals } from './cache-stamps'

export type { CachedAnswer, CacheOwner, CacheStoreOptions } from './cache-types'

const CHECKPOINT_IDLE_MS = 1_000

function digestOf(text: string): string {
  return createHash('sha256').update(text).digest('base64')
}

/**
 * The offline copy: per account and signed-in identity, the last answer of each cacheable read,
 * compressed and encrypted with the account's key (AES-256-GCM, bound to account and entry),
 * named by an HMAC of identity and request, its fetch time sealed beside it (bound to the entry
 * and its answer), evicted least recently used above the cap. Without a key (the keychain is
 * missing or does not answer) nothing on disk is opened or written: answers are held in memory
 * for this run only, under the same cap. A row that does not open (altered, or sealed under a key
 * that was replaced) is removed and counts as absent.
 */
export class CacheStore {
  private readonly memory = new MemoryCopies()
  /** What is remembered of stored entries, and warm answers: a 304 needs no decryption. */
  private readonly memo = new RecentEntries()
  /** Fetch times renewed since their stamp was written (cache-stamps.ts). */
  private readonly renewals = new StampRenewals()
  /** Prepared statements, each prepared once. */
  private readonly sql: Statements
  private unwritten = 0
  private checkpointTimer: NodeJS.Timeout | null = null
  private closed = false

  constructor(
    private readonly db: Db,
    private readonly options: CacheStoreOptions,
  ) {
    this.sql = statementCache(db)
    // A new key cannot open rows sealed under an earlier one (the keychain said it had none).
    options.keys.onKey((accountId, _key, fresh) => {
      if (fresh) this.clear(accountId)
    })
  }

  private now(): Date {
    return this.options.now?.() ?? new Date()
  }

  private async key(accountId: string): Promise<AccountKey | null> {
    if (this.closed) return null
    return (await this.options.keys.keyFor(accountId)).key
  }

  /** The stored answer of `request` (its canonical text) for this identity, or null. */
  async get(owner: CacheOwner, request: string): Promise<CachedAnswer | null> {
    const key = await this.key(owner.accountId)
    if (this.closed) return null
    if (!key) return this.memory.get(owner.accountId, nameOf(owner, request))
    const { accountId } = owner
    const id = this.idOf(key, owner, request)
    const warm = this.memo.warmAnswer(recentKey(owner, request))
    if (warm) {
      this.used(owner, request, id)
      return warm
    }
    const row = this.sql(
      'SELECT blob, stamp FROM cache_entries WHERE account_id = ? AND id = ?',
    ).get(accountId, id) as SealedRow | undefined
    if (!row) return null
    const answer = this.opened(key, owner, request, id, row)
    if (!answer) {
      this.options.log?.('warn', 'an offline copy entry did not open and was removed')
      this.sql('DELETE FROM cache_entries WHERE account_id = ? AND id = ?').run(accountId, id)
      return null
    }
    this.used(owner, request, id)
    return answer
  }

  /** The entry's name: remembered, or the HMAC of identity and request under the key. */
  private idOf(key: AccountKey, owner: CacheOwner, request: string): Buffer {
    return this.memo.get(recentKey(owner, request))?.id ?? entryName(key, nameOf(owner, request))
  }

  /**
   * The answer of a row that opens (see cache-seal), remembered and kept warm, with a fetch time
   * renewed since its stamp was sealed; or null.
   */
  private opened(
    key: AccountKey,
    owner: CacheOwner,
    request: string,
    id: Buffer,
    row: SealedRow,
  ): CachedAnswer | null {
    const sealed = openRow(key, owner.accountId, id, row)
    if (!sealed) return null
    try {
      const parsed = JSON.parse(sealed.text) as Omit<CachedAnswer, 'fetchedAt'>
      const key = recentKey(owner, request)
      const fetchedAt = this.renewals.renewedAt(key, sealed.tag) ?? sealed.fetchedAt
      const answer = { ...parsed, fetchedAt }
      this.memo.remember(key, {
        id,
        etag: answer.etag,
        lastModified: answer.lastModified,
        digest: digestOf(sealed.text),
        tag: sealed.tag,
        usedAt: 0,
        stampedAt: Date.parse(sealed.fetchedAt),
      })
      this.memo.warm(key, answer, sealed.text.length)
      return answer
    } catch {
      return null
    }
  }

  /** Records a use for the eviction order, at most once a minute per entry (a write each). */
  private used(owner: CacheOwner, request: string, id: Buffer): void {
    const recent = this.memo.get(recentKey(owner, request))
    const now = this.now().getTime()
    if (recent && now - recent.usedAt < 60_000) return
    if (recent) recent.usedAt = now
    this.sql('UPDATE cache_entries SET used_at = ? WHERE account_id = ? AND id = ?').run(
      now,
      owner.accountId,
      id,
    )
  }

  /** Stores (or replaces) the answer of `request` for this identity; false when it was not kept. */
  async put(owner: CacheOwner, request: string, answer: CachedAnswer): Promise<boolean> {
    const key = await this.key(owner.accountId)
    if (this.closed) return false
    const cap = this.options.maxBytes()
    // The answer's data is never changed in place from here on: its text, written once for the
    // entry, is the one the bridge sends (json-text.ts).
    keepJsonText(answer.data)
    if (!key) return this.memory.put(owner.accountId, nameOf(owner, request), answer, cap)
    const { accountId } = owner
    const name = recentKey(owner, request)
    const id = this.idOf(key, owner, request)
    const { data, etag, lastModified, warnings } = answer
    const text = toJsonText({ data, etag, lastModified, warnings }, 1)!
    const digest = digestOf(text)
    // The same answer as stored: only a new stamp (no compress, seal, rewrite of the answer).
    const known = this.memo.get(name)
    if (known?.digest === digest && this.renew(key, owner, request, known, answer.fetchedAt)) {
      this.memo.warm(name, answer, text.length)
      return true
    }
    const blob = sealAnswer(key, accountId, id, text)
    const tag = blobTag(blob)
    const stamp = sealStamp(key, accountId, id, { at: answer.fetchedAt, of: tag })
    const size = blob.length + stamp.length
    if (size > cap) return false
    this.db.transaction(() => {
      this.sql(
        `INSERT INTO cache_entries (account_id, id, blob, stamp, size, used_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (account_id, id) DO UPDATE SET blob = excluded.blob, stamp = excluded.stamp,
           size = excluded.size, used_at = excluded.used_at`,
      ).run(accountId, id, blob, stamp, size, this.now().getTime())
      this.evict(accountId, cap)
    })()
    this.renewals.drop(name)
    this.memo.remember(name, {
      id,
      etag,
      lastModified,
      digest,
      tag,
      usedAt: this.now().getTime(),
      stampedAt: Date.parse(answer.fetchedAt),
    })
    this.memo.warm(name, answer, text.length)
    this.wrote(size)
    return true
  }

  /**
   * The entry's answer counts as fetched at `fetchedAt`: held in memory, or its stamp sealed and
   * written now (cache-stamps.ts). False when the row is gone.
   */
  private renew(
    key: AccountKey,
    owner: CacheOwner,
    request: string,
    known: Recent,
    fetchedAt: string,
  ): boolean {
    const name = recentKey(owner, request)
    const { accountId } = owner
    if (this.renewals.hold(name, key, accountId, known, fetchedAt)) {
      this.used(owner, request, known.id)
      return true
    }
    this.renewals.drop(name)
    const now = this.now().getTime()
    const stamp = sealStamp(key, accountId, known.id, { at: fetchedAt, of: known.tag })
    const { changes } = this.sql(
      'UPDATE cache_entries SET stamp = ?, used_at = ? WHERE account_id = ? AND id = ?',
    ).run(stamp, now, accountId, known.id)
    if (changes === 0) return false
    known.stampedAt = Date.parse(fetchedAt)
    known.usedAt = now
    return true
  }

  /** Writes the fetch times held in memory: the account's, or every account's. */
  private sealRenewals(accountId?: string): void {
    if (this.closed || this.renewals.empty(accountId)) return
    const update = this.sql('UPDATE cache_entries SET stamp = ? WHERE account_id = ? AND id = ?')
    this.db.transaction(() =>
      this.renewals.sealAll(
        (account, id, stamp) => update.run(stamp, account, id).changes,
        (name, tag, at) => {
          const known = this.memo.get(name)
          if (known?.tag === tag) known.stampedAt = at
        },
        accountId,
      ),
    )()
  }

  /** The service said the copy is current (304): it counts as fetched at `fetchedAt`. */
  async touch(owner: CacheOwner, request: string, fetchedAt: string): Promise<void> {
    const key = await this.key(owner.accountId)
    if (this.closed) return
    if (!key) return this.memory.touch(owner.accountId, nameOf(owner, request), fetchedAt)
    const name = recentKey(owner, request)
    const known = this.memo.get(name)
    if (known) {
      if (this.renew(key, owner, request, known, fetchedAt)) this.memo.renewWarm(name, fetchedAt)
      return
    }
    // Not remembered: the stamp on disk names the answer the new one is bound to.
    const { accountId } = owner
    const id = entryName(key, nameOf(owner, request))
    const row = this.sql('SELECT stamp FROM cache_entries WHERE account_id = ? AND id = ?').get(
      accountId,
      id,
    ) as { stamp: Buffer } | undefined
    const tag = row && openStamp(key, accountId, id, row.stamp)?.of
    if (!tag) return
    this.sql('UPDATE cache_entries SET stamp = ?, used_at = ? WHERE account_id = ? AND id = ?').run(
      sealStamp(key, accountId, id, { at: fetchedAt, of: tag }),
      this.now().getTime(),
      accountId,
      id,
    )
    this.memo.renewWarm(name, fetchedAt)
  }

  /**
   * The validators of the stored answer (to ask the service "changed since?"), or null when
   * there is none; read from memory when known, without opening the copy.
   */
  async validators(
    owner: CacheOwner,
    request: string,
  ): Promise<{ etag: string | null; lastModified: string | null } | null> {
    const known = this.memo.get(recentKey(owner, request))
    if (known) return { etag: known.etag, lastModified: known.lastModified }
    const copy = await this.get(owner, request)
    return copy ? { etag: copy.etag, lastModified: copy.lastModified } : null
  }

  /** Removes the least recently used entries until the account's copy is within 90% of `cap`. */
  private evict(accountId: string, cap: number): void {
    let total = this.stored(accountId).bytes
    if (total <= cap) return
    // What survives keeps its renewed times; what goes is forgotten below.
    this.sealRenewals(accountId)
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
    if (!drop.length) return
    const dropped = new Set(drop.map((id) => id.toString('base64')))
    this.memo.forgetRows(accountId, (id) => dropped.has(id.toString('base64')))
  }

  /** Rows and bytes of the account's copy on disk (every identity; opened or not). */
  stored(accountId: string): { entries: number; bytes: number } {
    if (this.closed) return { entries: 0, bytes: 0 }
    return this.sql(
      'SELECT COUNT(*) AS entries, COALESCE(SUM(size), 0) AS bytes FROM cache_entries WHERE account_id = ?',
    ).get(accountId) as { entries: number; bytes: number }
  }

  /** How many answers the account's copy holds, every identity's, on disk and in memory. */
  entries(accountId: string): number {
    return this.stored(accountId).entries + this.memory.summary(accountId).entries
  }

  /** Entries, size and ages of the account's copy, and whether it is kept on disk at all. */
  async status(accountId: string): Promise<CacheStatus> {
    const outcome = await this.options.keys.keyFor(accountId)
    const onDisk = this.stored(accountId)
    if (!outcome.key) {
      // The copy on disk stays as it is (it cannot be opened now); what this run holds is shown.
      const held = this.memory.summary(accountId)
      return {
        accountId,
        ...held,
        entries: held.entries + onDisk.entries,
        bytes: held.bytes + onDisk.bytes,
        maxBytes: this.options.maxBytes(),
        persisted: false,
        message: outcome.reason,
      }
    }
    // Ages only from stamps that open: a time written in clear by anyone else is not shown.
    this.sealRenewals(accountId)
    const times: string[] = []
    if (!this.closed)
      for (const row of this.sql(
        'SELECT id, stamp FROM cache_entries WHERE account_id = ?',
      ).iterate(accountId) as IterableIterator<{ id: Buffer; stamp: Buffer }>) {
        const stamp = openStamp(outcome.key, accountId, row.id, row.stamp)
        if (stamp) times.push(stamp.at)
      }
    times.sort()
    const setAside = this.options.setAside
      ? `The offline copy on this computer was damaged (${this.options.setAside}) and was set aside; it fills again as you work online.`
      : null
    return {
      accountId,
      ...onDisk,
      oldest: times[0] ?? null,
      newest: times.at(-1) ?? null,
      maxBytes: this.options.maxBytes(),
      persisted: true,
      message: setAside,
    }
  }

  /** Deletes the account's copy, every identity's (on request, at sign-out, with the account). */
  clear(accountId: string): void {
    this.memory.clear(accountId)
    this.memo.forgetAccount(accountId)
    this.renewals.dropAccount(accountId)
    if (this.closed) return
    const { changes } = this.sql('DELETE FROM cache_entries WHERE account_id = ?').run(accountId)
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
    this.sealRenewals()
    if (this.unwritten > 0) this.checkpoint()
    this.closed = true
    this.memory.clearAll()
    this.db.close()
  }
}
