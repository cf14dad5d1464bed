import { describe, expect, it } from 'vitest'
import {
  EXPIRING_SOON_DAYS,
  dayOf,
  daysLeft,
  endOfDay,
  expiresLabel,
  expiryProblem,
  firstExpiryDay,
} from './expiry'

// Local noon on 10 March 2031 (the tests run in the machine's time zone, like the app).
const NOW = new Date(2031, 2, 10, 12, 0, 0).getTime()
const at = (day: number, hours = 12) => new Date(2031, 2, day, hours, 0, 0).toISOString()

describe('the expiry day of an exception', () => {
  it('ends at the end of the picked day on this computer, and reads back as that day', () => {
    const instant = endOfDay('2031-03-31')
    expect(new Date(instant).getDate()).toBe(31)
    expect(new Date(instant).getHours()).toBe(23)
    expect(dayOf(instant)).toBe('2031-03-31')
    expect(endOfDay('')).toBe('')
    expect(endOfDay('31/03/2031')).toBe('')
    expect(dayOf('not a date')).toBe('')
  })

  it('must be after today', () => {
    expect(firstExpiryDay(NOW)).toBe('2031-03-11')
    expect(expiryProblem(endOfDay('2031-03-10'), NOW)).toBe('Pick a day after today.')
    expect(expiryProblem(endOfDay('2031-03-01'), NOW)).toBe('Pick a day after today.')
    expect(expiryProblem('', NOW)).toBe('Pick the day the exception ends.')
    expect(expiryProblem(undefined, NOW)).toBe('Pick the day the exception ends.')
    expect(expiryProblem(endOfDay('2031-03-11'), NOW)).toBeNull()
  })
})

describe('exceptions expiring soon', () => {
  it('counts calendar days for exceptions in force or waiting, up to the threshold', () => {
    expect(daysLeft({ state: 'active', expires_at: at(10, 18) }, NOW)).toBe(0)
    expect(daysLeft({ state: 'pending', expires_at: at(11, 1) }, NOW)).toBe(1)
    expect(daysLeft({ state: 'active', expires_at: at(30) }, NOW)).toBe(20)
    const last = new Date(2031, 2, 10 + EXPIRING_SOON_DAYS, 23).toISOString()
    expect(daysLeft({ state: 'active', expires_at: last }, NOW)).toBe(EXPIRING_SOON_DAYS)
    const beyond = new Date(2031, 2, 11 + EXPIRING_SOON_DAYS, 1).toISOString()
    expect(daysLeft({ state: 'active', expires_at: beyond }, NOW)).toBeNull()
  })

  it('leaves out expired exceptions, past dates and odd values', () => {
    expect(daysLeft({ state: 'expired', expires_at: at(12) }, NOW)).toBeNull()
    expect(daysLeft({ state: 'active', expires_at: at(10, 11) }, NOW)).toBeNull()
    expect(daysLeft({ state: 'active', expires_at: 'soon' }, NOW)).toBeNull()
    expect(daysLeft({ state: 'active' }, NOW)).toBeNull()
  })

  it('says when in words', () => {
    expect(expiresLabel(0)).toBe('Expires today')
    expect(expiresLabel(1)).toBe('Expires tomorrow')
    expect(expiresLabel(12)).toBe('Expires in 12 days')
  })
})
