// What the offline copy remembers in memory of its stored entries, so a read need not open (or
// even name) its row: the entry's name, validators, a digest of its content, when its fetch time
// was sealed and last used (Recent), and the most recently used answers, decoded (hot).
import type { CachedAnswer, CacheOwner } from './cache-types'

/** What is remembered of a stored entry. */
export interface Recent {
  /** The entry's name: an HMAC of identity and request under the account's key. */
  id: Buffer
  etag: string | null
  lastModified: string | null
  digest: string
  /** The authentication tag of its answer blob (a new stamp is bound to it). */
  tag: string
  /** When its use was last written (the eviction order), ms. */
  usedAt: number
  /** The fetch time its stamp on disk seals, ms. */
  stampedAt: number
}

/** Entries whose validators and digest are remembered (the most recently used). */
const RECENT_MAX = 2_000
/** Decoded answers kept warm: how many, and the largest (JSON characters). */
const HOT_MAX = 256
const HOT_MAX_CHARS = 256 * 1024

/** identity + request: the name an entry's HMAC is taken of. */
export const nameOf = (owner: CacheOwner, request: string) => `${owner.identity}\n${request}`

/** account + identity + request: the key of what is remembered in memory about an entry. */
export const recentKey = (owner: CacheOwner, request: string) =>
  `${owner.accountId}\n${nameOf(owner, request)}`

/** The remembered entries and warm answers, each in least recently used order. */
export class RecentEntries {
  private readonly recent = new Map<string, Recent>()
  private readonly hot = new Map<string, CachedAnswer>()

  /** What is remembered of the entry, or undefined. */
  get(key: string): Recent | undefined {
    return this.recent.get(key)
  }

  remember(key: string, recent: Recent): void {
    this.recent.delete(key)
    this.recent.set(key, recent)
    if (this.recent.size > RECENT_MAX) this.recent.delete(this.recent.keys().next().value!)
  }

  /** The warm answer of the entry (now the most recently used), or undefined. */
  warmAnswer(key: string): CachedAnswer | undefined {
    const warm = this.hot.get(key)
    if (warm) {
      this.hot.delete(key)
      this.hot.set(key, warm)
    }
    return warm
  }

  /** Keeps a decoded answer warm (not one over HOT_MAX_CHARS of JSON). */
  warm(key: string, answer: CachedAnswer, size: number): void {
    this.hot.delete(key)
    if (size > HOT_MAX_CHARS) return
    this.hot.set(key, answer)
    if (this.hot.size > HOT_MAX) this.hot.delete(this.hot.keys().next().value!)
  }

  /** A warm answer now counts as fetched at `fetchedAt`. */
  renewWarm(key: string, fetchedAt: string): void {
    const warm = this.hot.get(key)
    if (warm) this.hot.set(key, { ...warm, fetchedAt })
  }

  /** Forgets the account's warm answers (rows were evicted: they are named by HMAC, not request). */
  coolAccount(accountId: string): void {
    for (const key of [...this.hot.keys()])
      if (key.startsWith(`${accountId}\n`)) this.hot.delete(key)
  }

  /**
   * Forgets the entries of rows that were evicted (`gone` tells them by name), and every warm
   * answer of the account (one whose entry is no longer remembered cannot be told apart).
   */
  forgetRows(accountId: string, gone: (id: Buffer) => boolean): void {
    for (const [key, recent] of [...this.recent])
      if (key.startsWith(`${accountId}\n`) && gone(recent.id)) this.recent.delete(key)
    this.coolAccount(accountId)
  }

  /** Forgets everything about the account. */
  forgetAccount(accountId: string): void {
    for (const map of [this.recent, this.hot])
      for (const key of [...map.keys()]) if (key.startsWith(`${accountId}\n`)) map.delete(key)
  }
}
