import { describe, expect, it } from 'vitest'
import { cveText, dueText, exceptionText, type FactException } from './findingFacts'

const DAY = 86_400_000
const day = (v: number | string) => new Date(v).toISOString().slice(0, 10)
const exc = (state: string, expires: string, kind = 'accepted_risk'): FactException => ({
  id: `exc-${state}-${expires}`,
  state,
  kind,
  expires_at: expires,
})

describe('a finding’s facts in words', () => {
  it('lists its CVEs, or says the service gave none', () => {
    expect(cveText(['CVE-2021-44228', 'CVE-2021-45046'])).toBe('CVE-2021-44228, CVE-2021-45046')
    expect(cveText([])).toBe('None given by the service')
    expect(cveText(undefined)).toBe('None given by the service')
  })

  it('says the due day, how late it is, a pause, or that the policy has none', () => {
    const due = Date.parse('2030-03-01T00:00:00Z')
    expect(dueText({ kind: 'due', dueAt: due, overdueMs: -DAY }, day, 'high')).toEqual({
      text: '2030-03-01',
      overdue: false,
    })
    expect(dueText({ kind: 'due', dueAt: due, overdueMs: 3 * DAY + 5 }, day, 'high')).toEqual({
      text: '2030-03-01 — overdue by 3 days',
      overdue: true,
    })
    expect(dueText({ kind: 'due', dueAt: due, overdueMs: 5 }, day, 'high').text).toBe(
      '2030-03-01 — overdue by under a day',
    )
    expect(dueText({ kind: 'paused' }, day, 'high').text).toBe(
      'Paused while an exception is in force',
    )
    expect(dueText({ kind: 'none' }, day, 'info').text).toBe(
      'No due date for info findings in the account’s policy',
    )
    expect(dueText(null, day, 'high').text).toBe('Reading the exceptions…')
  })

  it('names the exception in force first, then a pending one, then the latest expired', () => {
    expect(exceptionText([], day)).toBe('None')
    expect(
      exceptionText(
        [exc('expired', '2029-01-01T00:00:00Z'), exc('active', '2031-01-01T00:00:00Z')],
        day,
      ),
    ).toBe('Accepted risk, in force until 2031-01-01 (and 1 more)')
    expect(exceptionText([exc('pending', '2031-01-01T00:00:00Z', 'false_positive')], day)).toBe(
      'False positive, pending (not in force until activated)',
    )
    expect(
      exceptionText(
        [exc('expired', '2028-01-01T00:00:00Z'), exc('expired', '2029-01-01T00:00:00Z')],
        day,
      ),
    ).toBe('Accepted risk, expired 2029-01-01 (and 1 more)')
  })
})
