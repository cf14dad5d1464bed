import { describe, expect, it } from 'vitest'
import { formatInZone, relativeTime } from './datetime'

describe('formatting a scheduled time', () => {
  it('shows the wall-clock time of the scan’s own time zone', () => {
    const text = formatInZone('2030-06-01T12:00:00Z', 'Asia/Tokyo', 'en-GB')
    expect(text).toContain('21:00')
    expect(text).toContain('Asia/Tokyo')
    expect(formatInZone('2030-06-01T12:00:00Z', 'UTC', 'en-GB')).toContain('12:00')
  })

  it('falls back to the local zone for a zone name it does not know', () => {
    expect(formatInZone('2030-06-01T12:00:00Z', 'Not/AZone', 'en-GB')).toMatch(/2030/)
  })

  it('shows an unreadable time as it came', () => {
    expect(formatInZone('soon', 'UTC')).toBe('soon')
  })
})

describe('relative times', () => {
  const now = Date.parse('2030-01-01T00:00:00Z')
  it('says how far away a time is in its largest unit', () => {
    expect(relativeTime('2030-01-04T00:00:00Z', now)).toBe('in 3 days')
    expect(relativeTime('2029-12-31T22:00:00Z', now)).toBe('2 hours ago')
    expect(relativeTime('2030-01-01T00:00:20Z', now)).toBe('now')
    expect(relativeTime('2030-01-10T00:00:00Z', now)).toBe('in 9 days')
    expect(relativeTime('2030-01-22T00:00:00Z', now)).toBe('in 3 weeks')
  })
})
