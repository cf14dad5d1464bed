import { beforeEach, describe, expect, it } from 'vitest'
import { AccountKeys } from '../accounts/account-keys'
import { MemoryVault } from '../accounts/memory-vault'
import { DailyTotalsRepo } from '../store/daily-totals-repo'
import { useTestDb } from '../store/test-db'
import { DailyTotals, type ListRead } from './daily'

const A = 'acc-00000001'
const TOTALS: Record<string, number> = { critical: 2, high: 5, medium: 8, low: 13, info: 21 }
const t = useTestDb('scandesk-daily-', [A])
let now: Date
let asked: { severity: string; per_page: number }[]
let keys: AccountKeys

/** The service's list: its total per severity, one row asked per page. */
const service =
  (total: (severity: string) => unknown = (s) => TOTALS[s]): ListRead =>
  async (_op, input) => {
    asked.push(input.query)
    await new Promise((r) => setTimeout(r, 1))
    return { data: [], meta: { pagination: { total_count: total(input.query.severity) } } }
  }

function totalsWith(read: ListRead) {
  return new DailyTotals({
    repo: new DailyTotalsRepo(t.db, keys),
    online: () => read,
    now: () => now,
    log: () => {},
  })
}

beforeEach(() => {
  now = new Date(2026, 10, 26, 9, 0)
  asked = []
  keys = new AccountKeys(new MemoryVault())
})

describe('daily totals', () => {
  it('asks one row per severity and takes a day once, even when asked twice at once', async () => {
    const daily = totalsWith(service())
    const [first, second] = await Promise.all([daily.daily(A, 90), daily.daily(A, 90)])
    expect(asked).toEqual(
      ['critical', 'high', 'medium', 'low', 'info'].map((severity) => ({ severity, per_page: 1 })),
    )
    expect(first).toEqual(second)
    expect(first.days).toEqual([{ day: '2026-11-26', takenAt: now.toISOString(), totals: TOTALS }])

    // The next day is another row; the window counts back from today.
    now = new Date(2026, 10, 27, 9, 0)
    expect((await daily.daily(A, 2)).days.map((d) => d.day)).toEqual(['2026-11-26', '2026-11-27'])
    expect((await daily.daily(A, 1)).days.map((d) => d.day)).toEqual(['2026-11-27'])
    expect(asked).toHaveLength(10)
  })

  it('records nothing when the list does not say its total, and says why', async () => {
    const daily = totalsWith(service((s) => (s === 'low' ? undefined : TOTALS[s])))
    const answer = await daily.daily(A, 90)
    expect(answer.days).toEqual([])
    expect(answer.notes).toEqual([
      'Today’s totals were not recorded: the service’s list did not say how many findings it holds.',
    ])
    expect(daily.count(A)).toBe(0)
  })

  it('says why when the service cannot be asked, and shows the days it has', async () => {
    await totalsWith(service()).daily(A, 90)
    now = new Date(2026, 10, 27, 9, 0)
    const offline = totalsWith(async () => {
      throw new Error('Work offline is on.')
    })
    const answer = await offline.daily(A, 90)
    expect(answer.days.map((d) => d.day)).toEqual(['2026-11-26'])
    expect(answer.notes).toEqual(['Today’s totals were not recorded: Work offline is on.'])
  })
})
