import { beforeEach, describe, expect, it } from 'vitest'
import { AccountKeys } from '../accounts/account-keys'
import { MemoryVault } from '../accounts/memory-vault'
import { AccountsRepo } from './accounts-repo'
import { addDays, DailyTotalsRepo, localDay } from './daily-totals-repo'
import { useTestDb } from './test-db'

const A = 'acc-00000001'
const B = 'acc-00000002'
const T = '2026-11-20T08:00:00.000Z'
const totals = (critical: number) => ({ critical, high: 7, medium: 11, low: 3, info: 1234567 })
const t = useTestDb('scandesk-totals-', [A, B])
let repo: DailyTotalsRepo

beforeEach(() => {
  repo = new DailyTotalsRepo(t.db, new AccountKeys(new MemoryVault()), 5)
})

describe('daily totals', () => {
  it('seals a day’s totals and opens them again', async () => {
    expect(await repo.put(A, '2026-11-20', T, totals(2))).toBe(true)
    const row = t.db.prepare('SELECT sealed FROM daily_totals').get() as { sealed: Buffer }
    expect(row.sealed.includes(Buffer.from('1234567'))).toBe(false)
    expect(row.sealed.includes(Buffer.from('critical'))).toBe(false)
    expect(await repo.list(A, '2026-11-01')).toEqual({
      days: [{ day: '2026-11-20', takenAt: T, totals: totals(2) }],
      damaged: 0,
    })
  })

  it('keeps a day’s first totals: once a day', async () => {
    await repo.put(A, '2026-11-20', T, totals(2))
    expect(await repo.put(A, '2026-11-20', '2026-11-20T18:00:00.000Z', totals(9))).toBe(false)
    expect((await repo.list(A, '2026-11-20')).days.map((d) => d.totals.critical)).toEqual([2])
    expect(repo.has(A, '2026-11-20')).toBe(true)
    expect(repo.has(B, '2026-11-20')).toBe(false)
  })

  it('lists from a day on, oldest first, and keeps the retention’s days only', async () => {
    for (const day of ['2026-11-14', '2026-11-16', '2026-11-15', '2026-11-19'])
      await repo.put(A, day, T, totals(Number(day.slice(-2))))
    expect((await repo.list(A, '2026-11-15')).days.map((d) => d.day)).toEqual([
      '2026-11-15',
      '2026-11-16',
      '2026-11-19',
    ])
    // 5 days kept counted back from the newest written: 2026-11-15 … 2026-11-19
    expect(repo.count(A)).toBe(3)
  })

  it('does not open a row moved to another account or day', async () => {
    await repo.put(A, '2026-11-20', T, totals(2))
    await repo.put(B, '2026-11-19', T, totals(3))
    t.db.prepare("UPDATE daily_totals SET day = '2026-11-18' WHERE account_id = ?").run(B)
    t.db
      .prepare(
        'UPDATE daily_totals SET sealed = (SELECT sealed FROM daily_totals WHERE account_id = ?) WHERE account_id = ?',
      )
      .run(A, B)
    expect(await repo.list(B, '2026-11-01')).toEqual({ days: [], damaged: 1 })
  })

  it('goes with its account', async () => {
    await repo.put(A, '2026-11-20', T, totals(2))
    await repo.put(B, '2026-11-20', T, totals(2))
    new AccountsRepo(t.db).delete(A)
    expect(repo.count(A)).toBe(0)
    expect(repo.count(B)).toBe(1)
    expect(await repo.put(A, '2026-11-21', T, totals(1))).toBe(false)
  })

  it('writes and opens nothing while the keychain does not answer', async () => {
    await repo.put(A, '2026-11-20', T, totals(2))
    const locked = new DailyTotalsRepo(
      t.db,
      new AccountKeys(new MemoryVault({ available: false, message: 'locked' })),
    )
    await expect(locked.put(A, '2026-11-21', T, totals(1))).rejects.toMatchObject({
      error: { code: 'KEYCHAIN_UNAVAILABLE' },
    })
    await expect(locked.list(A, '2026-11-01')).rejects.toMatchObject({
      error: { code: 'KEYCHAIN_UNAVAILABLE' },
    })
    expect(repo.count(A)).toBe(1)
  })
})

describe('calendar days', () => {
  it('moves across months, years and a leap day', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28')
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29')
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
    expect(addDays('2026-11-26', -89)).toBe('2026-08-29')
  })

  it('names the day of this computer’s calendar', () => {
    expect(localDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05')
  })
})
