import { describe, expect, it } from 'vitest'
import type { RunSummary } from '@/components/charts/trend'
import { accountTrend, dayOf, FROM_RUNS, RECORDED, shiftDay } from './accountTrend'

const TODAY = '2026-11-26'
const totals = (critical: number) => ({ critical, high: 1, medium: 0, low: 0, info: 0 })
/** A completed run of `scan` finished at noon (local) on `day`. */
function run(scan: string, day: string, critical: number, status = 'completed'): RunSummary {
  const [y, m, d] = day.split('-').map(Number)
  return {
    id: `${scan}-${day}`,
    attributes: {
      scan_id: scan,
      status,
      finished_at: new Date(y, m - 1, d, 12).toISOString(),
      severity_counts: totals(critical),
    },
  }
}
const recorded = (day: string, critical: number) => ({
  day,
  takenAt: `${day}T09:00:00.000Z`,
  totals: totals(critical),
})

describe('the account’s trend by day', () => {
  it('sums each scan’s latest completed run per day before the first recorded day', () => {
    const points = accountTrend({
      recorded: [recorded('2026-11-25', 9), recorded('2026-11-26', 8)],
      runs: [
        run('a', '2026-11-20', 3),
        run('b', '2026-11-21', 4),
        run('a', '2026-11-22', 1),
        run('b', '2026-11-23', 0, 'stopped'),
      ],
      everyScan: true,
      today: TODAY,
      days: 90,
    })
    expect(points.map((p) => [p.at, p.counts.critical, p.note])).toEqual([
      ['2026-11-20', 3, FROM_RUNS],
      ['2026-11-21', 7, FROM_RUNS],
      ['2026-11-22', 5, FROM_RUNS], // a's newer run replaces its older one
      ['2026-11-23', 5, FROM_RUNS], // a stopped run changes nothing
      ['2026-11-24', 5, FROM_RUNS],
      ['2026-11-25', 9, RECORDED],
      ['2026-11-26', 8, RECORDED],
    ])
  })

  it('leaves a day without a record after the first recorded one as a gap', () => {
    const points = accountTrend({
      recorded: [recorded('2026-11-26', 2), recorded('2026-11-22', 4)],
      runs: [run('a', '2026-11-01', 7)],
      everyScan: true,
      today: TODAY,
      days: 5,
    })
    expect(points.map((p) => [p.at, p.counts.critical])).toEqual([
      ['2026-11-22', 4],
      ['2026-11-26', 2],
    ])
  })

  it('keeps to the window: runs before it still count, days before it are not shown', () => {
    const points = accountTrend({
      recorded: [recorded('2026-08-01', 1)],
      runs: [run('a', '2026-08-01', 6)],
      everyScan: true,
      today: TODAY,
      days: 3,
    })
    expect(points.map((p) => [p.at, p.counts.critical])).toEqual([
      ['2026-11-24', 6],
      ['2026-11-25', 6],
      ['2026-11-26', 6],
    ])
  })

  it('sums nothing from runs when not every scan was read', () => {
    const points = accountTrend({
      recorded: [recorded('2026-11-26', 2)],
      runs: [run('a', '2026-11-20', 3)],
      everyScan: false,
      today: TODAY,
      days: 90,
    })
    expect(points.map((p) => p.at)).toEqual(['2026-11-26'])
  })

  it('has no point without runs or records, and one day from one run today', () => {
    const none = { recorded: [], everyScan: true, today: TODAY, days: 90 }
    expect(accountTrend({ ...none, runs: [] })).toEqual([])
    expect(accountTrend({ ...none, runs: [run('a', TODAY, 2)] }).map((p) => p.at)).toEqual([TODAY])
  })
})

describe('calendar days', () => {
  it('moves across months and leap days, and names a local day', () => {
    expect(shiftDay('2028-03-01', -1)).toBe('2028-02-29')
    expect(shiftDay('2026-11-26', -89)).toBe('2026-08-29')
    expect(dayOf(new Date(2026, 10, 26, 23, 30))).toBe('2026-11-26')
  })
})
