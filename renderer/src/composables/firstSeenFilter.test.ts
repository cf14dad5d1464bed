import { describe, expect, it } from 'vitest'
import { firstSeenAfterOf, narrowedRange } from './firstSeenFilter'

describe('the vulnerabilities list’s "first seen after" filter', () => {
  it('reads an instant or a date from the address, and leaves out what the list refuses', () => {
    expect(firstSeenAfterOf({ first_seen_after: '2026-05-01T10:00:00.000Z' })).toBe(
      '2026-05-01T10:00:00.000Z',
    )
    expect(firstSeenAfterOf({ first_seen_after: '2026-05-01' })).toBe('2026-05-01')
    // No zone, not a date, absent: no filter (as the list does with a refused value).
    expect(firstSeenAfterOf({ first_seen_after: '2026-05-01T10:00:00' })).toBeNull()
    expect(firstSeenAfterOf({ first_seen_after: 'yesterday' })).toBeNull()
    expect(firstSeenAfterOf({ severity: 'high' })).toBeNull()
  })

  it('narrows a due range to the later lower bound, keeping its upper bound', () => {
    const overdue = { first_seen_before: '2026-04-01T00:00:00.000Z' }
    expect(narrowedRange(overdue, '2026-03-01T00:00:00Z')).toEqual({
      first_seen_before: '2026-04-01T00:00:00.000Z',
      first_seen_after: '2026-03-01T00:00:00Z',
    })
    const within = {
      first_seen_after: '2026-03-10T00:00:00.000Z',
      first_seen_before: '2026-03-17T00:00:00.000Z',
    }
    // The due range starts later: it holds as it is.
    expect(narrowedRange(within, '2026-03-01')).toEqual(within)
    // The filter starts later: its bound wins.
    expect(narrowedRange(within, '2026-03-12T06:00:00Z')).toMatchObject({
      first_seen_after: '2026-03-12T06:00:00Z',
      first_seen_before: '2026-03-17T00:00:00.000Z',
    })
    expect(narrowedRange({}, null)).toEqual({})
    expect(narrowedRange({}, '2026-03-01')).toEqual({ first_seen_after: '2026-03-01' })
  })
})
