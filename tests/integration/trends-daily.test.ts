// The account's open findings recorded once a day (issue 20 §2), against the real sandbox over
// HTTP: the first ask records today's totals from the list's totals (one page of one row per
// severity), sealed in the account's store; asking again, or after a restart, reads them back
// without asking the service; with Work offline on nothing is recorded and the answer says why.
import { describe, expect, it } from 'vitest'
import type { RemovalPlan } from '@contract/sessions'
import type { DailyTotalsAnswer } from '@contract/trends'
import { openDatabase } from '../../electron/core/store/database'
import { localDay } from '../../electron/core/store/daily-totals-repo'
import { addAnalyst, startTestCore, type TestCore } from './core-helpers'
import { useSandboxAndCore } from './fixture'
import { until } from './sessions-helpers'

const s = useSandboxAndCore({ each: 'none' })
const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const

/** Reads of the vulnerabilities list (the sandbox logs paths without their query). */
const totalsAsked = () =>
  s.sandbox.requests.filter((l) => l.startsWith('GET /v2/vulnerabilities →')).length

/** The list's total per severity, asked here through the core as any screen would. */
async function listTotals(t: TestCore, accountId: string) {
  const out: Record<string, number> = {}
  for (const severity of SEVERITIES) {
    const answer = await t.ok<{ data: { meta: { pagination: { total_count: number } } } }>(
      'api.call',
      { accountId, op: 'vulnerabilities.list', input: { query: { severity, per_page: 5 } } },
    )
    out[severity] = answer.data.meta.pagination.total_count
  }
  return out
}

describe('daily totals of open findings', () => {
  it('records today’s totals once, sealed, and reads them back after a restart', async () => {
    s.sandbox.reset()
    let t = await startTestCore()
    const vault = t.vault
    const dataDir = t.dataDir
    try {
      const { id: accountId } = await addAnalyst(t, s.sandbox)
      const before = totalsAsked()
      const first = await t.ok<DailyTotalsAnswer>('trends.daily', { accountId, days: 90 })
      // The sandbox logs a request once its answer went out.
      await until(() => totalsAsked() - before >= 5)
      expect(totalsAsked() - before).toBe(5)
      const expected = await listTotals(t, accountId)
      expect(Object.values(expected).some((n) => n > 0)).toBe(true)
      expect(first.notes).toEqual([])
      expect(first.days).toEqual([
        { day: localDay(new Date()), takenAt: expect.any(String), totals: expected },
      ])

      // Once a day: asked again, nothing is asked of the service.
      await until(() => totalsAsked() - before >= 10)
      const asked = totalsAsked()
      const again = await t.ok<DailyTotalsAnswer>('trends.daily', { accountId })
      expect(again.days).toEqual(first.days)
      expect(totalsAsked()).toBe(asked)

      // Sealed: in clear only the day and when it was taken.
      const db = openDatabase(dataDir)
      try {
        const rows = db.prepare('SELECT * FROM daily_totals').all() as Record<string, unknown>[]
        expect(rows.map((r) => [r.account_id, r.day])).toEqual([[accountId, first.days[0].day]])
        const sealed = rows[0].sealed as Buffer
        expect(sealed.includes(Buffer.from('critical'))).toBe(false)
      } finally {
        db.close()
      }

      await t.close()
      t = await startTestCore({ dataDir, vault })
      const restarted = await t.ok<DailyTotalsAnswer>('trends.daily', { accountId })
      expect(restarted.days).toEqual(first.days)
      expect(totalsAsked()).toBe(asked)

      // The removal confirmation counts them, and they go with the account.
      const plan = await t.ok<RemovalPlan>('accounts.removalPlan', { accountId })
      expect(plan.dailyTotals).toBe(1)
      await t.ok('accounts.remove', { accountId })
      const after = openDatabase(dataDir)
      try {
        expect(after.prepare('SELECT COUNT(*) AS n FROM daily_totals').get()).toEqual({ n: 0 })
      } finally {
        after.close()
      }
    } finally {
      await t.close()
    }
  })

  it('records nothing while Work offline is on, and says why', async () => {
    s.sandbox.reset()
    const t = await startTestCore()
    try {
      const { id: accountId } = await addAnalyst(t, s.sandbox)
      await t.ok('connectivity.setWorkOffline', { on: true })
      const before = totalsAsked()
      const answer = await t.ok<DailyTotalsAnswer>('trends.daily', { accountId })
      expect(answer.days).toEqual([])
      expect(answer.notes).toHaveLength(1)
      expect(answer.notes[0]).toMatch(/^Today’s totals were not recorded: /)
      expect(totalsAsked()).toBe(before)

      await t.ok('connectivity.setWorkOffline', { on: false })
      const online = await t.ok<DailyTotalsAnswer>('trends.daily', { accountId })
      expect(online.days).toHaveLength(1)
    } finally {
      await t.close()
    }
  })
})
