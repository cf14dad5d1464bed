import type { AxiosError } from 'axios'
import { describe, expect, it } from 'vitest'
import { statusFailure } from './errors'
import { retryDelay } from './retry'
import { parseHttpDate, retryAfterMs } from './retry-after'

const now = Date.UTC(2026, 2, 10, 12, 0, 0) // Tue, 10 Mar 2026 12:00:00 GMT
const o = { baseMs: 100, maxMs: 1_000, retryAfterCapMs: 10_000, random: () => 0.5 }
const answer = (value: string) =>
  ({ response: { status: 429, headers: { 'retry-after': value } } }) as unknown as AxiosError

describe('Retry-After as delay-seconds', () => {
  it('reads a non-negative whole number of seconds', () => {
    expect(retryAfterMs('0', now)).toBe(0)
    expect(retryAfterMs('7', now)).toBe(7_000)
    expect(retryAfterMs(' 120 ', now)).toBe(120_000)
    expect(retryAfterMs(['3', '9'], now)).toBe(3_000)
    expect(retryAfterMs('99999999999999999999', now)).toBe(Number.MAX_SAFE_INTEGER)
  })

  it.each([
    '-1',
    '-0',
    '+5',
    '1.5',
    '1e3',
    '0x10',
    '5 s',
    'soon',
    '',
    '2026-03-10T12:00:05Z',
    '2026-03-10',
  ])('ignores %j (the caller backs off instead)', (value) => {
    expect(retryAfterMs(value, now)).toBeUndefined()
  })

  it('ignores a number that is negative or not whole', () => {
    expect(retryAfterMs(-1, now)).toBeUndefined()
    expect(retryAfterMs(1.5, now)).toBeUndefined()
    expect(retryAfterMs(3, now)).toBe(3_000)
  })
})

describe('Retry-After as an HTTP date', () => {
  it('reads IMF-fixdate, rfc850-date and asctime-date', () => {
    const at = Date.UTC(2026, 2, 10, 12, 0, 30)
    expect(parseHttpDate('Tue, 10 Mar 2026 12:00:30 GMT', now)).toBe(at)
    expect(parseHttpDate('Tuesday, 10-Mar-26 12:00:30 GMT', now)).toBe(at)
    expect(parseHttpDate('Tue Mar 10 12:00:30 2026', now)).toBe(at)
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994', now)).toBe(Date.UTC(1994, 10, 6, 8, 49, 37))
    expect(retryAfterMs('Tue, 10 Mar 2026 12:00:30 GMT', now)).toBe(30_000)
  })

  it('reads a two-digit rfc850 year more than 50 years ahead as the past century', () => {
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', now)).toBe(
      Date.UTC(1994, 10, 6, 8, 49, 37),
    )
    expect(parseHttpDate('Monday, 01-Jan-76 00:00:00 GMT', now)).toBe(Date.UTC(2076, 0, 1))
    expect(parseHttpDate('Friday, 01-Jan-77 00:00:00 GMT', now)).toBe(Date.UTC(1977, 0, 1))
  })

  it('answers 0 for a date that has passed', () => {
    expect(retryAfterMs('Tue, 10 Mar 2026 11:59:00 GMT', now)).toBe(0)
  })

  it('reads a leap second as the next second', () => {
    expect(parseHttpDate('Wed, 31 Dec 2025 23:59:60 GMT', now)).toBe(Date.UTC(2026, 0, 1))
  })

  it.each([
    'Tue, 10 Mar 2026 12:00:30 UTC', // only GMT
    'Tue, 10 Mar 2026 12:00:30 +0000',
    'tue, 10 Mar 2026 12:00:30 GMT', // names are case-sensitive
    'Tue, 10 MAR 2026 12:00:30 GMT',
    'Tue, 10 Mar 26 12:00:30 GMT', // IMF-fixdate has a four-digit year
    'Tue,  10 Mar 2026 12:00:30 GMT',
    'Tue, 1 Mar 2026 12:00:30 GMT', // and a two-digit day
    'Tue, 31 Feb 2026 12:00:30 GMT', // no such day
    'Tue, 10 Mar 2026 24:00:00 GMT',
    'Tue, 10 Mar 2026 12:60:00 GMT',
    'Tue, 10 Mar 2026 12:00:61 GMT',
    'Tue, 10 Mar 2026 12:00 GMT',
    'Tues, 10 Mar 2026 12:00:30 GMT',
    'Tue, 10-Mar-26 12:00:30 GMT', // rfc850 needs the long day name
    'Tue Mar 10 12:00:30 2026 GMT',
    'Tue Mar 6 12:00:30 2026', // asctime pads the day with a space
    'March 10, 2026',
    '10 Mar 2026',
    'Tue, 10 Mar 2026 12:00:30 GMT junk',
  ])('refuses %j', (value) => {
    expect(parseHttpDate(value, now)).toBeUndefined()
    expect(retryAfterMs(value, now)).toBeUndefined()
  })
})

describe('junk Retry-After and the retry that follows', () => {
  it('backs off instead of retrying at once', () => {
    // the jittered backoff of attempt 1 with random 0.5 is 50 ms; "-1" used to mean 0 ms
    for (const junk of ['-1', 'soon', '1.5', '2026-03-10'])
      expect(retryDelay(1, answer(junk), o)).toBe(50)
    expect(retryDelay(1, answer('2'), o)).toBe(2_000)
    expect(retryDelay(1, answer('Tue, 10 Mar 2099 12:00:30 GMT'), o)).toBe(10_000)
  })

  it('does not tell the user to wait when the header is junk', () => {
    const redact = (text: string) => text
    const junk = statusFailure(
      { status: 429, json: undefined, html: false, retryAfter: '-1' },
      redact,
    )
    expect(junk.error.message).toBe(
      'The service is receiving too many requests. Try again in a moment.',
    )
    expect(junk.error.retryAfterMs).toBeUndefined()
    const good = statusFailure(
      { status: 429, json: undefined, html: false, retryAfter: '5' },
      redact,
    )
    expect(good.error.retryAfterMs).toBe(5_000)
  })
})
