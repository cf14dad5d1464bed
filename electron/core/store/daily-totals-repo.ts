import { DAILY_TOTALS_KEPT_DAYS, type DailyTotal, type SeverityTotals } from '@contract/trends'
import { fail } from '@contract/errors'
import { z } from 'zod'
import { openJson, sealJson, type AccountKeys } from '../accounts/account-keys'
import type { Db } from './database'

/** Why daily totals cannot be written or read now (the account's key is in the keychain). */
export const TOTALS_LOCKED =
  'The system keychain is not available, and ScanDesk seals the daily totals it records with a key it keeps there: none is recorded or shown until the keychain answers again.'

/** What sealed totals are bound to: a row moved to another account or day does not open. */
const totalsAad = (accountId: string, day: string) => `daily-totals\n${accountId}\n${day}`

const count = z.number().int().min(0)
const storedTotals = z.strictObject({
  critical: count,
  high: count,
  medium: count,
  low: count,
  info: count,
})

/** `day` (YYYY-MM-DD) moved by `n` days on the calendar. */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number)
  const t = new Date(Date.UTC(y, m - 1, d + n))
  return t.toISOString().slice(0, 10)
}

/** The day of `at` on this computer's calendar (its time zone), as YYYY-MM-DD. */
export function localDay(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`
}

/**
 * The account's open findings per severity, one row per day, sealed with the account's key
 * (AES-256-GCM bound to account and day). The first totals of a day stay (taken once a day); a
 * write and the retention it triggers are one transaction. Without the key nothing is written or
 * opened; the rows go with the account (ON DELETE CASCADE).
 */
export class DailyTotalsRepo {
  constructor(
    private readonly db: Db,
    private readonly keys: AccountKeys,
    private readonly keptDays = DAILY_TOTALS_KEPT_DAYS,
  ) {}

  has(accountId: string, day: string): boolean {
    return !!this.db
      .prepare('SELECT 1 FROM daily_totals WHERE account_id = ? AND day = ?')
      .get(accountId, day)
  }

  /** Rows the account keeps (no key needed: counted, not opened). */
  count(accountId: string): number {
    const row = this.db
      .prepare('SELECT COUNT(*) AS n FROM daily_totals WHERE account_id = ?')
      .get(accountId) as { n: number }
    return row.n
  }

  /**
   * Keeps `totals` as the day's unless the day has some already; drops the days older than the
   * retention (counted back from `day`). False when the day had totals or the account is gone.
   */
  async put(accountId: string, day: string, takenAt: string, totals: SeverityTotals) {
    if (!this.db.prepare('SELECT 1 FROM accounts WHERE id = ?').get(accountId)) return false
    const { key } = await this.keys.keyFor(accountId)
    if (!key) fail('KEYCHAIN_UNAVAILABLE', TOTALS_LOCKED)
    const sealed = sealJson(key, totalsAad(accountId, day), storedTotals.parse(totals))
    return this.db.transaction(() => {
      const inserted = this.db
        .prepare(
          `INSERT INTO daily_totals (account_id, day, taken_at, sealed) VALUES (?, ?, ?, ?)
           ON CONFLICT (account_id, day) DO NOTHING`,
        )
        .run(accountId, day, takenAt, sealed).changes
      this.db
        .prepare('DELETE FROM daily_totals WHERE account_id = ? AND day <= ?')
        .run(accountId, addDays(day, -this.keptDays))
      return inserted > 0
    })()
  }

  /**
   * The days from `from` on (YYYY-MM-DD), oldest first, opened; `damaged` counts the rows that
   * did not open (altered, or sealed under another key).
   */
  async list(accountId: string, from: string): Promise<{ days: DailyTotal[]; damaged: number }> {
    const rows = this.db
      .prepare(
        'SELECT day, taken_at, sealed FROM daily_totals WHERE account_id = ? AND day >= ? ORDER BY day',
      )
      .all(accountId, from) as { day: string; taken_at: string; sealed: Buffer }[]
    if (rows.length === 0) return { days: [], damaged: 0 }
    const { key } = await this.keys.keyFor(accountId)
    if (!key) fail('KEYCHAIN_UNAVAILABLE', TOTALS_LOCKED)
    const days: DailyTotal[] = []
    let damaged = 0
    for (const r of rows) {
      const parsed = storedTotals.safeParse(openJson(key, totalsAad(accountId, r.day), r.sealed))
      if (parsed.success) days.push({ day: r.day, takenAt: r.taken_at, totals: parsed.data })
      else damaged++
    }
    return { days, damaged }
  }
}
