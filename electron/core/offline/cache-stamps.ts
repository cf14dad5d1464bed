// Fetch times renewed without a new answer (a 304, or the same answer again): sealing a new stamp
// and writing it on every such read cost more than the rest of a cached read together. A stamp
// is written at most once a minute per entry; a newer time within that minute is kept here (reads
// give it) and sealed later, so a crash leaves a stamp less than a minute older than the copy is.
import type { AccountKey } from '../accounts/account-keys'
import type { Recent } from './cache-recent'
import { sealStamp } from './cache-seal'

/** A renewed fetch time is sealed on disk at most this often per entry. */
export const STAMP_EVERY_MS = 60_000

/** A renewed fetch time not sealed on disk yet, with what sealing it takes. */
interface Renewal {
  key: AccountKey
  accountId: string
  id: Buffer
  /** The tag of the answer blob it belongs to. */
  tag: string
  at: string
}

/** Writes a sealed stamp onto an entry's row; returns the rows changed. */
export type StampWriter = (accountId: string, id: Buffer, stamp: Buffer) => number

/** The renewed fetch times held in memory, by entry (account + identity + request). */
export class StampRenewals {
  private readonly held = new Map<string, Renewal>()

  /**
   * The entry's answer counts as fetched at `at`: true when that is kept here (its stamp on disk
   * is less than STAMP_EVERY_MS older), false when the caller must seal and write it now.
   */
  hold(name: string, key: AccountKey, accountId: string, known: Recent, at: string): boolean {
    const ms = Date.parse(at)
    if (!(ms >= known.stampedAt && ms - known.stampedAt < STAMP_EVERY_MS)) return false
    this.held.set(name, { key, accountId, id: known.id, tag: known.tag, at })
    return true
  }

  /** The time held for the entry's answer (the blob tagged `tag`), or null. */
  renewedAt(name: string, tag: string): string | null {
    const held = this.held.get(name)
    return held?.tag === tag ? held.at : null
  }

  /** The entry's stamp was written (or its row replaced): nothing is held for it any more. */
  drop(name: string): void {
    this.held.delete(name)
  }

  /** Forgets what is held for the account (its rows are gone). */
  dropAccount(accountId: string): void {
    for (const [name, held] of [...this.held])
      if (held.accountId === accountId) this.held.delete(name)
  }

  /**
   * Seals and writes what is held (the account's, or every account's); `stamped` hears each
   * entry's new sealed time.
   */
  sealAll(
    write: StampWriter,
    stamped: (name: string, tag: string, at: number) => void,
    accountId?: string,
  ): void {
    for (const [name, h] of [...this.held]) {
      if (accountId !== undefined && h.accountId !== accountId) continue
      write(h.accountId, h.id, sealStamp(h.key, h.accountId, h.id, { at: h.at, of: h.tag }))
      this.held.delete(name)
      stamped(name, h.tag, Date.parse(h.at))
    }
  }

  /** True when nothing is held for the account (or at all). */
  empty(accountId?: string): boolean {
    for (const held of this.held.values())
      if (accountId === undefined || held.accountId === accountId) return false
    return true
  }
}
