import { describe, expect, it } from 'vitest'
import { auditPeriod } from './audit-events-part'

const NOW = new Date('2030-05-06T07:08:09.000Z')

describe('the period of an SAQ’s audit events', () => {
  it('runs from its creation to its approval, as UTC instants', () => {
    expect(
      auditPeriod(
        { createdAt: '2030-01-02T10:00:00+02:00', approvedAt: '2030-02-03T04:05:06.5Z' },
        NOW,
      ),
    ).toEqual({
      from: '2030-01-02T08:00:00.000Z',
      to: '2030-02-03T04:05:06.500Z',
      ends: 'approval',
    })
  })

  it('ends now when the service gave no approval time', () => {
    expect(auditPeriod({ createdAt: '2030-01-02T00:00:00Z', approvedAt: null }, NOW)).toEqual({
      from: '2030-01-02T00:00:00.000Z',
      to: NOW.toISOString(),
      ends: 'now',
    })
  })

  it('starts at the log’s beginning when the creation time is missing or not a time', () => {
    for (const createdAt of [null, 'soon'])
      expect(auditPeriod({ createdAt, approvedAt: '2030-02-03T00:00:00Z' }, NOW).from).toBeNull()
  })

  it('never starts after it ends (a creation time later than the approval)', () => {
    expect(
      auditPeriod({ createdAt: '2030-03-01T00:00:00Z', approvedAt: '2030-02-01T00:00:00Z' }, NOW),
    ).toEqual({
      from: '2030-02-01T00:00:00.000Z',
      to: '2030-02-01T00:00:00.000Z',
      ends: 'approval',
    })
  })
})
