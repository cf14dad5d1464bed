// Schedules through the core against the real sandbox (issue 8): the date calculations compute
// real recurrences in the requested IANA time zone (DST keeps the local time; a monthly day the
// month lacks is the month's last day), and schedules keep their next run as the clock moves.
import { describe, expect, it } from 'vitest'
import { analystApi, useSandboxAndCore } from './fixture'

const s = useSandboxAndCore({ each: 'analyst' })

type RunDate = { at: string; local: string }

const { api, apiErr } = analystApi(s)

const nextDates = async (body: Record<string, unknown>) =>
  (
    await api<{ data: { time_zone: string; dates: RunDate[] } }>('schedules.next_schedule_dates', {
      body,
    })
  ).data

describe('schedules.next_schedule_dates', () => {
  it('keeps a weekly Berlin run at 09:00 local across the change to summer time', async () => {
    const data = await nextDates({
      frequency: 'weekly',
      start_at: '2030-03-11T09:00',
      time_zone: 'Europe/Berlin',
      after: '2030-03-01T00:00:00Z',
      count: 4,
    })
    expect(data.time_zone).toBe('Europe/Berlin')
    expect(data.dates).toEqual([
      { at: '2030-03-11T08:00:00.000Z', local: '2030-03-11T09:00:00+01:00' },
      { at: '2030-03-18T08:00:00.000Z', local: '2030-03-18T09:00:00+01:00' },
      { at: '2030-03-25T08:00:00.000Z', local: '2030-03-25T09:00:00+01:00' },
      { at: '2030-04-01T07:00:00.000Z', local: '2030-04-01T09:00:00+02:00' },
    ])
  })

  it('runs daily at the same local time in New York across the autumn change', async () => {
    const data = await nextDates({
      frequency: 'daily',
      start_at: '2030-11-01T23:30',
      time_zone: 'America/New_York',
      after: '2030-11-01T12:00:00Z',
      count: 4,
    })
    expect(data.dates.map((d) => d.local)).toEqual([
      '2030-11-01T23:30:00-04:00',
      '2030-11-02T23:30:00-04:00',
      '2030-11-03T23:30:00-05:00',
      '2030-11-04T23:30:00-05:00',
    ])
    expect(data.dates.map((d) => d.at)).toEqual([
      '2030-11-02T03:30:00.000Z',
      '2030-11-03T03:30:00.000Z',
      '2030-11-04T04:30:00.000Z',
      '2030-11-05T04:30:00.000Z',
    ])
  })

  it('puts a monthly run on the 31st on the last day of shorter months, then back on the 31st', async () => {
    const data = await nextDates({
      frequency: 'monthly',
      start_at: '2032-01-31T06:00',
      time_zone: 'Asia/Tokyo',
      after: '2032-01-01T00:00:00Z',
      count: 6,
    })
    expect(data.dates.map((d) => d.local)).toEqual([
      '2032-01-31T06:00:00+09:00',
      '2032-02-29T06:00:00+09:00', // a leap year
      '2032-03-31T06:00:00+09:00',
      '2032-04-30T06:00:00+09:00',
      '2032-05-31T06:00:00+09:00',
      '2032-06-30T06:00:00+09:00',
    ])
    expect(data.dates[0].at).toBe('2032-01-30T21:00:00.000Z')
  })

  it('counts strictly after the given instant and honours count', async () => {
    const data = await nextDates({
      frequency: 'quarterly',
      start_at: '2030-01-15T12:00:00Z',
      time_zone: 'UTC',
      after: '2030-04-15T12:00:00Z',
      count: 2,
    })
    expect(data.dates.map((d) => d.at)).toEqual([
      '2030-07-15T12:00:00.000Z',
      '2030-10-15T12:00:00.000Z',
    ])
  })

  it('refuses a time zone that does not exist and a date that does not exist', async () => {
    const zone = await apiErr('schedules.next_schedule_dates', {
      body: { frequency: 'weekly', start_at: '2030-03-11T09:00', time_zone: 'Mars/Olympus' },
    })
    expect(zone.code).toBe('VALIDATION')
    expect(zone.fieldErrors?.time_zone).toBeDefined()
    const date = await apiErr('schedules.first_schedule_date', {
      body: { frequency: 'monthly', start_at: '2030-02-31T09:00', time_zone: 'UTC' },
    })
    expect(date.code).toBe('VALIDATION')
    expect(date.fieldErrors?.start_at).toContain('is not a valid date and time')
  })
})

describe('schedules.first_schedule_date', () => {
  it('is the start when it lies ahead, and the next run from now when it is past', async () => {
    const ahead = await api<{ data: { first: RunDate | null } }>('schedules.first_schedule_date', {
      body: { frequency: 'weekly', start_at: '2031-06-02T07:15', time_zone: 'Europe/Berlin' },
    })
    expect(ahead.data.first).toEqual({
      at: '2031-06-02T05:15:00.000Z',
      local: '2031-06-02T07:15:00+02:00',
    })

    const past = await api<{ data: { first: RunDate } }>('schedules.first_schedule_date', {
      body: { frequency: 'weekly', start_at: '2020-01-06T09:00', time_zone: 'Europe/Berlin' },
    })
    const at = Date.parse(past.data.first.at)
    expect(at).toBeGreaterThan(Date.now() - 60_000)
    expect(at - Date.now()).toBeLessThanOrEqual(7 * 86_400_000)
    // a Monday (2020-01-06 was one) at 09:00 Berlin time
    expect(past.data.first.local).toMatch(/T09:00:00\+0[12]:00$/)
    const localDay = new Date(`${past.data.first.local.slice(0, 10)}T00:00:00Z`).getUTCDay()
    expect(localDay).toBe(1)

    const once = await api<{ data: { first: RunDate | null } }>('schedules.first_schedule_date', {
      body: { frequency: 'once', start_at: '2020-01-06T09:00', time_zone: 'UTC' },
    })
    expect(once.data.first).toBeNull()
  })

  it('follows the sandbox clock', async () => {
    // (moved by less than the 8 h session lifetime, so the account stays signed in)
    const body = { frequency: 'daily', start_at: '2020-01-01T00:00:00Z', time_zone: 'UTC' }
    const nextMidnight = (ms: number) => Math.floor(ms / 86_400_000 + 1) * 86_400_000
    const before = await api<{ data: { first: RunDate } }>('schedules.first_schedule_date', {
      body,
    })
    expect(Date.parse(before.data.first.at)).toBe(nextMidnight(Date.now()))
    s.sandbox.advanceClock(7 * 3_600_000)
    const after = await api<{ data: { first: RunDate } }>('schedules.first_schedule_date', {
      body,
    })
    expect(Date.parse(after.data.first.at)).toBe(nextMidnight(Date.now() + 7 * 3_600_000))
  })
})

describe('stored schedules', () => {
  it('keep next_run_at on the rule as the clock passes runs, and recompute it on update', async () => {
    const start = new Date(Date.now() + 2 * 3_600_000).toISOString().slice(0, 13) + ':00'
    const created = await api('schedules.create', {
      body: { name: 'Daily test', frequency: 'daily', start_at: start, time_zone: 'UTC' },
    })
    const first = `${start}:00.000Z`
    expect(created.data.attributes.next_run_at).toBe(first)

    s.sandbox.advanceClock(3 * 3_600_000)
    const moved = await api('schedules.show', { path: { id: created.data.id } })
    expect(moved.data.attributes.next_run_at).toBe(
      new Date(Date.parse(first) + 86_400_000).toISOString(),
    )

    const weekly = await api('schedules.update', {
      path: { id: created.data.id },
      body: { frequency: 'weekly', time_zone: 'Europe/Berlin' },
    })
    const next = Date.parse(String(weekly.data.attributes.next_run_at))
    expect(next).toBeGreaterThan(Date.now() + 3 * 3_600_000 - 60_000)
    expect(next - Date.now()).toBeLessThanOrEqual(8 * 86_400_000)
  })
})
