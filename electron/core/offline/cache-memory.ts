import { jsonText } from '../json-text'
import type { CachedAnswer } from './cache-types'

/** One account's answers held in memory, least recently used first (Map order). */
type Held = Map<string, { answer: CachedAnswer; size: number }>

/**
 * The offline copy of accounts without a key (the keychain is missing or does not answer): held
 * in memory for this run only, under the same cap per account, never written to disk.
 */
export class MemoryCopies {
  private readonly accounts = new Map<string, Held>()

  /** The held answer of `name` (identity and request), or null; counts as a use. */
  get(accountId: string, name: string): CachedAnswer | null {
    const copy = this.accounts.get(accountId)
    const held = copy?.get(name)
    if (!copy || !held) return null
    copy.delete(name)
    copy.set(name, held)
    return held.answer
  }

  /** Holds an answer, evicting the least recently used above `cap`; false when it alone is larger. */
  put(accountId: string, name: string, answer: CachedAnswer, cap: number): boolean {
    const size = Buffer.byteLength(jsonText(answer.data)!)
    if (size > cap) return false
    let copy = this.accounts.get(accountId)
    if (!copy) this.accounts.set(accountId, (copy = new Map()))
    copy.delete(name)
    copy.set(name, { answer, size })
    let total = 0
    for (const held of copy.values()) total += held.size
    for (const [key, held] of copy) {
      if (total <= cap) break
      copy.delete(key)
      total -= held.size
    }
    return true
  }

  /** The service said the held answer is current: it counts as fetched at `fetchedAt`. */
  touch(accountId: string, name: string, fetchedAt: string): void {
    const held = this.accounts.get(accountId)?.get(name)
    if (held) held.answer = { ...held.answer, fetchedAt }
  }

  /** Entries, size and ages of what is held for the account. */
  summary(accountId: string) {
    const held = [...(this.accounts.get(accountId)?.values() ?? [])]
    const times = held.map((h) => h.answer.fetchedAt).sort()
    return {
      entries: held.length,
      bytes: held.reduce((sum, h) => sum + h.size, 0),
      oldest: times[0] ?? null,
      newest: times.at(-1) ?? null,
    }
  }

  /** Forgets what is held for the account. */
  clear(accountId: string): void {
    this.accounts.delete(accountId)
  }

  /** Forgets everything (closing). */
  clearAll(): void {
    this.accounts.clear()
  }
}
