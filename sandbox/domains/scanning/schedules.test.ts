import { describe, expect, it } from 'vitest'
import { firstRun, instantOf, localText, parseStart, runsFrom, type Rule } from './schedules'

const berlin = 'Europe/Berlin'
const iso = (ms: number) => new Date(ms).toISOString()

describe('schedule date math', () => {
  it('keeps a weekly Berlin run at 09:00 local across the spring DST change', () => {
    const rule: Rule = {
      frequency: 'weekly',
      start: parseStart('2030-03-18T09:00', berlin)!,
      timeZone: berlin,
    }
    const runs = runsFrom(rule, Date.parse('2030-03-01T00:00:00Z'), 4)
    expect(runs.map(iso)).toEqual([
      '2030-03-18T08:00:00.000Z',
      '2030-03-25T08:00:00.000Z',
      '2030-04-01T07:00:00.000Z',
      '2030-04-08T07:00:00.000Z',
    ])
    expect(runs.map((ms) => localText(ms, berlin).slice(11))).toEqual([
      '09:00:00+01:00',
      '09:00:00+01:00',
      '09:00:00+02:00',
      '09:00:00+02:00',
    ])
  })

  it('moves a wall time inside the spring gap forward and picks the earlier of an ambiguous one', () => {
    const gap = instantOf({ year: 2030, month: 3, day: 31, hour: 2, minute: 30, second: 0 }, berlin)
    expect(localText(gap, berlin)).toBe('2030-03-31T03:30:00+02:00')
    const twice = instantOf(
      { year: 2030, month: 10, day: 27, hour: 2, minute: 30, second: 0 },
      berlin,
    )
    expect(iso(twice)).toBe('2030-10-27T00:30:00.000Z')
  })

  it('clamps a monthly run on the 31st to shorter months without drifting', () => {
    const ny = 'America/New_York'
    const rule: Rule = {
      frequency: 'monthly',
      start: parseStart('2030-01-31T22:00', ny)!,
      timeZone: ny,
    }
    const local = runsFrom(rule, Date.parse('2030-01-01T00:00:00Z'), 4).map((ms) =>
      localText(ms, ny),
    )
    expect(local).toEqual([
      '2030-01-31T22:00:00-05:00',
      '2030-02-28T22:00:00-05:00',
      '2030-03-31T22:00:00-04:00',
      '2030-04-30T22:00:00-04:00',
    ])
  })

  it('steps quarterly and finds the first run after a long-past start', () => {
    const rule: Rule = {
      frequency: 'quarterly',
      start: parseStart('2020-02-15T06:00', 'UTC')!,
      timeZone: 'UTC',
    }
    expect(iso(firstRun(rule, Date.parse('2030-03-01T00:00:00Z'))!)).toBe(
      '2030-05-15T06:00:00.000Z',
    )
    const daily: Rule = {
      frequency: 'daily',
      start: parseStart('2020-01-01T03:30', 'UTC')!,
      timeZone: 'UTC',
    }
    expect(iso(firstRun(daily, Date.parse('2030-01-01T03:30:00Z'))!)).toBe(
      '2030-01-01T03:30:00.000Z',
    )
    expect(runsFrom(daily, Date.parse('2030-01-01T03:30:00Z'), 1, true).map(iso)).toEqual([
      '2030-01-02T03:30:00.000Z',
    ])
  })

  it('has no run left for a one-off schedule in the past, and refuses impossible dates', () => {
    const once: Rule = {
      frequency: 'once',
      start: parseStart('2020-01-01T00:00', berlin)!,
      timeZone: berlin,
    }
    expect(firstRun(once, Date.parse('2025-01-01T00:00:00Z'))).toBeNull()
    expect(parseStart('2030-02-30T09:00', berlin)).toBeNull()
    expect(parseStart('2030-03-01T09:00:00Z', berlin)).toEqual({
      year: 2030,
      month: 3,
      day: 1,
      hour: 10,
      minute: 0,
      second: 0,
    })
  })
})
