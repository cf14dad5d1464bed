// When "Since your last visit" moves on (issue 36 §1): only when the analyst marks it reviewed, or
// once the dashboard stayed left for VISIT_GAP_HOURS; drilling into a count and back, a reload
// and a restart within that time keep it. Over the real visits table (SQLite).
import { beforeEach, describe, expect, it } from 'vitest'
import { VISIT_GAP_HOURS } from '@contract/since'
import { AccountsRepo } from '../store/accounts-repo'
import { useTestDb } from '../store/test-db'
import { VisitsRepo } from '../store/visits-repo'
import type { SinceRead } from './counts'
import { SinceService } from './service'

const ACCOUNT = 'acc-00000001'
const t = useTestDb('scandesk-since-', [ACCOUNT])
const HOUR = 3_600_000
const empty: SinceRead = async () => ({
  data: { data: [], meta: { pagination: { total_count: 0 } } },
  fromCache: false,
})

let clock: number
let service: SinceService
const make = () =>
  new SinceService({
    visits: new VisitsRepo(t.db),
    snapshots: { list: () => [], get: async () => null },
    read: () => empty,
    now: () => new Date(clock),
  })
beforeEach(() => {
  clock = Date.parse('2026-11-02T09:00:00.000Z')
  service = make()
})
const later = (ms: number) => void (clock += ms)

describe('the moment "Since your last visit" counts from', () => {
  it('stays through drilling into a count and back, a reload and a restart', async () => {
    const first = await service.counts(ACCOUNT)
    expect(first.firstVisit).toBe(true)
    service.left(ACCOUNT, first.until)
    later(5 * 60_000)
    expect(await service.counts(ACCOUNT)).toMatchObject({
      firstVisit: true,
      since: first.since,
    })
    // left again (a reload), and ScanDesk started again within the gap
    service.left(ACCOUNT, first.until)
    t.reopen()
    service = make()
    later(HOUR)
    expect(await service.counts(ACCOUNT)).toMatchObject({ since: first.since })
  })

  it('moves to what was counted once the dashboard stayed left for the gap', async () => {
    const shown = await service.counts(ACCOUNT)
    later(60_000)
    service.left(ACCOUNT, shown.until)
    later(VISIT_GAP_HOURS * HOUR - 1)
    expect((await service.counts(ACCOUNT)).since).toBe(shown.since)
    // back on it within the gap and left again later: that later leaving is the one that counts
    const again = await service.counts(ACCOUNT)
    later(30 * 60_000)
    service.left(ACCOUNT, again.until)
    later(VISIT_GAP_HOURS * HOUR)
    const next = await service.counts(ACCOUNT)
    expect(next).toMatchObject({ firstVisit: false, since: again.until })
    // the moment is what the counts on screen ran to, not when the dashboard was left
    expect(Date.parse(next.since)).toBeLessThan(clock - VISIT_GAP_HOURS * HOUR)
  })

  it('moves when marked reviewed, to what the counts on screen ran to, never backwards', async () => {
    const shown = await service.counts(ACCOUNT)
    later(10 * 60_000)
    expect(service.reviewed(ACCOUNT, shown.until)).toEqual({ since: shown.until })
    const next = await service.counts(ACCOUNT)
    expect(next).toMatchObject({ firstVisit: false, since: shown.until })
    // an older answer reviewed (another window) does not move it back; a left one before it
    // never counts over it
    service.left(ACCOUNT, shown.since)
    expect(service.reviewed(ACCOUNT, shown.since)).toEqual({ since: shown.until })
    later(VISIT_GAP_HOURS * HOUR)
    expect((await service.counts(ACCOUNT)).since).toBe(shown.until)
    // a moment ahead of this clock is taken as now
    expect(service.reviewed(ACCOUNT, '2099-01-01T00:00:00.000Z')).toEqual({
      since: new Date(clock).toISOString(),
    })
  })

  it('is forgotten with the account', async () => {
    const shown = await service.counts(ACCOUNT)
    service.left(ACCOUNT, shown.until)
    new AccountsRepo(t.db).delete(ACCOUNT)
    const visits = new VisitsRepo(t.db)
    expect(visits.left(ACCOUNT)).toBeNull()
    expect(visits.recordLeft(ACCOUNT, { leftAt: shown.until, until: shown.until })).toBe(false)
  })
})
