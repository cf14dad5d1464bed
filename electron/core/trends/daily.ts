// The account's open findings per severity, recorded once a day (issue 20 §2; docs/decisions.md,
// "Trends over runs"): the vulnerabilities list's total per severity, from the service itself.
import type { DailyTotalsAnswer, SeverityTotals } from '@contract/trends'
import { fail } from '@contract/errors'
import { addDays, localDay, type DailyTotalsRepo } from '../store/daily-totals-repo'

const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const

/** One list read from the service itself (never the offline copy). */
export type ListRead = (
  op: 'vulnerabilities.list',
  input: { query: { severity: string; per_page: number } },
) => Promise<unknown>

/** What the daily totals need from the rest of main. */
export interface DailyTotalsDeps {
  repo: DailyTotalsRepo
  /** The account's reads from the service (fail while it is offline or signed out). */
  online(accountId: string): ListRead
  now?: () => Date
  log: (level: 'info' | 'warn' | 'error', message: string) => void
}

export const TOTALS_NOTE = {
  notToday: (why: string) => `Today’s totals were not recorded: ${why}`,
  noTotal: 'the service’s list did not say how many findings it holds.',
  damaged: (n: number) =>
    `${n} recorded ${n === 1 ? 'day does' : 'days do'} not open (altered, or sealed under another key) and ${n === 1 ? 'is' : 'are'} left out.`,
}

/** The list's total as the service counts it (meta.pagination.total_count), else null. */
function totalOf(answer: unknown): number | null {
  const total = (answer as { meta?: { pagination?: { total_count?: unknown } } } | null)?.meta
    ?.pagination?.total_count
  return typeof total === 'number' && Number.isInteger(total) && total >= 0 ? total : null
}

/** Records and reads the daily totals of the accounts. */
export class DailyTotals {
  private readonly taking = new Map<string, Promise<boolean>>()
  private readonly now: () => Date

  constructor(private readonly deps: DailyTotalsDeps) {
    this.now = deps.now ?? (() => new Date())
  }

  /**
   * Records today's totals when the account has none for today: one list read per severity,
   * a page of one row each (its total, never its rows). Asked twice at once, taken once. True
   * when a row was written.
   */
  ensureToday(accountId: string): Promise<boolean> {
    const day = localDay(this.now())
    const key = `${accountId}\n${day}`
    let pending = this.taking.get(key)
    if (!pending) {
      pending = this.take(accountId, day).finally(() => this.taking.delete(key))
      this.taking.set(key, pending)
    }
    return pending
  }

  private async take(accountId: string, day: string): Promise<boolean> {
    if (this.deps.repo.has(accountId, day)) return false
    const read = this.deps.online(accountId)
    const totals = {} as SeverityTotals
    for (const severity of SEVERITIES) {
      const total = totalOf(
        await read('vulnerabilities.list', { query: { severity, per_page: 1 } }),
      )
      if (total === null) fail('BAD_RESPONSE', TOTALS_NOTE.noTotal)
      totals[severity] = total
    }
    const written = await this.deps.repo.put(accountId, day, this.now().toISOString(), totals)
    if (written) this.deps.log('info', `daily totals of ${accountId} recorded for ${day}`)
    return written
  }

  /** Days the account keeps (counted, not opened: no key needed). */
  count(accountId: string): number {
    return this.deps.repo.count(accountId)
  }

  /** The last `days` days (today included), today's recorded first when it can be. */
  async daily(accountId: string, days: number): Promise<DailyTotalsAnswer> {
    const notes: string[] = []
    try {
      await this.ensureToday(accountId)
    } catch (err) {
      notes.push(TOTALS_NOTE.notToday((err as Error).message))
    }
    const from = addDays(localDay(this.now()), -(days - 1))
    const listed = await this.deps.repo.list(accountId, from)
    if (listed.damaged) notes.push(TOTALS_NOTE.damaged(listed.damaged))
    return { days: listed.days, notes }
  }
}
