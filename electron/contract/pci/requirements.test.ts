import { describe, expect, it } from 'vitest'
import { findingsQuery, monthAgo, pciDataFor } from './requirements'

describe('6.3.3’s month', () => {
  it('is the same day of the previous calendar month, in UTC', () => {
    expect(monthAgo(new Date('2026-11-26T12:00:00Z'))).toBe('2026-10-26')
    // Across the year, and by the UTC day whatever the hour.
    expect(monthAgo(new Date('2026-01-15T23:59:59Z'))).toBe('2025-12-15')
    expect(monthAgo(new Date('2026-03-01T00:00:00Z'))).toBe('2026-02-01')
  })

  it('is the previous month’s last day when that month is shorter', () => {
    expect(monthAgo(new Date('2026-03-31T08:00:00Z'))).toBe('2026-02-28')
    expect(monthAgo(new Date('2028-03-30T08:00:00Z'))).toBe('2028-02-29')
    expect(monthAgo(new Date('2026-05-31T08:00:00Z'))).toBe('2026-04-30')
    expect(monthAgo(new Date('2026-12-31T08:00:00Z'))).toBe('2026-11-30')
  })
})

describe('a requirement’s findings query', () => {
  const now = new Date('2026-07-31T10:00:00Z')
  it('asks 6.3.3’s critical and high findings first seen before the month’s line', () => {
    expect(findingsQuery(pciDataFor('6.3.3')!, now)).toEqual({
      cvss_score_min: 7,
      first_seen_before: '2026-06-30',
    })
  })

  it('leaves the scanning requirements’ failing findings without a line', () => {
    expect(findingsQuery(pciDataFor('11.3.2')!, now)).toEqual({ pci_compliant: 'false' })
  })
})
