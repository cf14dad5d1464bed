import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  crossedRanges,
  DAY_MS,
  DEFAULT_POLICY,
  dueState,
  firstSeenRange,
  keptByFilter,
  leftOutByPauses,
  overdueDays,
  pausedMs,
  remediationPolicy,
  remediationPolicyDocument,
  type ClockException,
  type DueFilter,
  type RemediationPolicy,
} from './remediation'

const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const
// Instants from 2000 to 2060, leap days and DST changes included.
const instant = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2060, 0, 1) })
const policyArb: fc.Arbitrary<RemediationPolicy> = fc.record({
  critical: fc.option(fc.integer({ min: 1, max: 3650 }), { nil: null }),
  high: fc.option(fc.integer({ min: 1, max: 3650 }), { nil: null }),
  medium: fc.option(fc.integer({ min: 1, max: 3650 }), { nil: null }),
  low: fc.option(fc.integer({ min: 1, max: 3650 }), { nil: null }),
})
const filterArb: fc.Arbitrary<DueFilter> = fc.oneof(
  fc.constant({ kind: 'overdue' as const }),
  fc.integer({ min: 1, max: 365 }).map((days) => ({ kind: 'due_within' as const, days })),
)
const iso = (t: number) => new Date(t).toISOString()

describe('a finding’s due date', () => {
  it('is first seen plus the severity’s days of 24 hours, in any time zone the text is written in', () => {
    fc.assert(
      fc.property(
        instant,
        fc.constantFrom(...SEVERITIES),
        policyArb,
        fc.integer({ min: -14 * 60, max: 14 * 60 }),
        (first, sev, policy, offsetMin) => {
          // The same instant written with an offset: +05:30, -08:00 …
          const local = new Date(first + offsetMin * 60_000).toISOString().slice(0, 23)
          const sign = offsetMin < 0 ? '-' : '+'
          const abs = Math.abs(offsetMin)
          const text = `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
          const s = dueState({ severity: sev, first_seen_at: text }, policy, first)
          const d = policy[sev]
          if (d === null) expect(s).toEqual({ kind: 'none' })
          else expect(s).toEqual({ kind: 'due', dueAt: first + d * DAY_MS, overdueMs: -d * DAY_MS })
        },
      ),
    )
  })

  it('counts a leap day as one day like any other', () => {
    const s = dueState(
      { severity: 'critical', first_seen_at: '2028-02-20T10:00:00Z' },
      DEFAULT_POLICY,
      0,
    )
    // 20 Feb + 15 days in a leap year is 6 March (29 Feb counted), the same hour.
    expect(s.kind === 'due' && iso(s.dueAt)).toBe('2028-03-06T10:00:00.000Z')
    const plain = dueState(
      { severity: 'critical', first_seen_at: '2027-02-20T10:00:00Z' },
      DEFAULT_POLICY,
      0,
    )
    expect(plain.kind === 'due' && iso(plain.dueAt)).toBe('2027-03-07T10:00:00.000Z')
  })

  it('has none for info, an unreadable first-seen time or a severity without days', () => {
    expect(dueState({ severity: 'info', first_seen_at: iso(0) }, DEFAULT_POLICY, 0).kind).toBe(
      'none',
    )
    expect(dueState({ severity: 'high', first_seen_at: 'soon' }, DEFAULT_POLICY, 0).kind).toBe(
      'none',
    )
    const noLow = { ...DEFAULT_POLICY, low: null }
    expect(dueState({ severity: 'low', first_seen_at: iso(0) }, noLow, 0).kind).toBe('none')
  })

  it('is overdue by whole days once past due', () => {
    const first = Date.UTC(2026, 0, 1)
    const at = (t: number) =>
      overdueDays(dueState({ severity: 'high', first_seen_at: iso(first) }, DEFAULT_POLICY, t))
    expect(at(first + 30 * DAY_MS)).toBeNull()
    expect(at(first + 30 * DAY_MS + 1)).toBe(0)
    expect(at(first + 33 * DAY_MS + 5)).toBe(3)
  })
})

describe('an exception stops the clock', () => {
  const first = Date.UTC(2026, 0, 1)
  const finding = { severity: 'critical', first_seen_at: iso(first) }

  it('pauses the finding while it is in force: never overdue then', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 1, max: 400 }),
        (startDay, lengthDays) => {
          const exc: ClockException = {
            state: 'active',
            activated_at: iso(first + startDay * DAY_MS),
            expires_at: iso(first + (startDay + lengthDays) * DAY_MS),
          }
          const during = first + (startDay + lengthDays / 2) * DAY_MS
          expect(dueState(finding, DEFAULT_POLICY, during, [exc]).kind).toBe('paused')
        },
      ),
    )
  })

  it('moves the due date by the time it was in force, once however they overlap', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            start: fc.integer({ min: -20, max: 60 }),
            len: fc.integer({ min: 1, max: 30 }),
          }),
          { maxLength: 5 },
        ),
        (spans) => {
          const now = first + 400 * DAY_MS
          const exceptions = spans.map<ClockException>((s) => ({
            state: 'expired',
            activated_at: iso(first + s.start * DAY_MS),
            expires_at: iso(first + (s.start + s.len) * DAY_MS),
          }))
          // Brute force: the days from first seen on that some exception covered.
          const covered = new Set<number>()
          for (const s of spans)
            for (let d = Math.max(0, s.start); d < s.start + s.len; d++) covered.add(d)
          const s = dueState(finding, DEFAULT_POLICY, now, exceptions)
          expect(s.kind === 'due' && s.dueAt).toBe(first + (15 + covered.size) * DAY_MS)
        },
      ),
    )
  })

  it('ignores pending exceptions and the part of one after now', () => {
    const pending: ClockException = {
      state: 'pending',
      activated_at: iso(first),
      expires_at: iso(first + 10 * DAY_MS),
    }
    expect(pausedMs(first, first + 50 * DAY_MS, [pending])).toBe(0)
    const active: ClockException = {
      state: 'active',
      activated_at: iso(first + 5 * DAY_MS),
      expires_at: iso(first + 90 * DAY_MS),
    }
    expect(pausedMs(first, first + 8 * DAY_MS, [active])).toBe(3 * DAY_MS)
  })
})

describe('the first-seen range the service is asked for', () => {
  it('keeps exactly the findings the filter keeps, to the millisecond', () => {
    fc.assert(
      fc.property(
        filterArb,
        fc.constantFrom(...SEVERITIES),
        policyArb,
        instant,
        fc.integer({ min: -800 * DAY_MS, max: 10 * DAY_MS }),
        (filter, sev, policy, now, age) => {
          const first = now - age
          const range = firstSeenRange(filter, sev, policy, now)
          const finding = { severity: sev, first_seen_at: iso(first) }
          const kept = keptByFilter(filter, finding, policy, now)
          if (!range) {
            expect(kept).toBe(false)
            return
          }
          const before = first < Date.parse(range.first_seen_before)
          const after = range.first_seen_after ? first >= Date.parse(range.first_seen_after) : true
          expect(before && after).toBe(kept)
        },
      ),
    )
  })

  it('is null for a severity without days', () => {
    expect(firstSeenRange({ kind: 'overdue' }, 'info', DEFAULT_POLICY, 0)).toBeNull()
  })
})

describe('the stored policy', () => {
  it('takes whole days from 1 to 3650 or none, and nothing else', () => {
    expect(remediationPolicy.safeParse(DEFAULT_POLICY).success).toBe(true)
    expect(remediationPolicy.safeParse({ ...DEFAULT_POLICY, low: null }).success).toBe(true)
    for (const bad of [0, -1, 1.5, 3651, '15'])
      expect(remediationPolicy.safeParse({ ...DEFAULT_POLICY, critical: bad }).success).toBe(false)
    expect(remediationPolicy.safeParse({ ...DEFAULT_POLICY, info: 5 }).success).toBe(false)
    expect(remediationPolicyDocument.parse({ policy: DEFAULT_POLICY }).notify).toBe(false)
  })
})

describe('the ranges of findings that crossed a line since the last look', () => {
  it('hold exactly the findings overdue now but not then, or within 7 days now but not then', () => {
    fc.assert(
      fc.property(
        policyArb,
        instant,
        fc.integer({ min: 1, max: 3 * DAY_MS }),
        fc.integer({ min: -400 * DAY_MS, max: 10 * DAY_MS }),
        fc.constantFrom(...SEVERITIES),
        (policy, before, step, age, sev) => {
          const now = before + step
          const first = now - age
          const finding = { severity: sev, first_seen_at: iso(first) }
          const within = (t: number) => {
            const s = dueState(finding, policy, t)
            return s.kind === 'due' && s.dueAt - 7 * DAY_MS < t
          }
          const overdue = (t: number) => keptByFilter({ kind: 'overdue' }, finding, policy, t)
          const ranges = crossedRanges(policy, before, now).filter((r) => r.severity === sev)
          const inRange = (kind: string) =>
            ranges.some(
              (r) =>
                r.kind === kind &&
                first >= Date.parse(r.first_seen_after) &&
                first < Date.parse(r.first_seen_before),
            )
          expect(inRange('findings_overdue')).toBe(overdue(now) && !overdue(before))
          expect(inRange('findings_due_soon')).toBe(within(now) && !within(before))
        },
      ),
    )
  })
})

describe('one rule for the due filters, the columns and the counts (issue 36 §7)', () => {
  const policy = DEFAULT_POLICY
  const now = Date.parse('2026-11-20T00:00:00Z')
  const overdue = { kind: 'overdue' } as const
  // A high finding first seen 40 days ago: overdue by first seen (30 days).
  const finding = { severity: 'high', first_seen_at: iso(now - 40 * DAY_MS) }
  const paused: ClockException = {
    state: 'active',
    activated_at: iso(now - 20 * DAY_MS),
    expires_at: iso(now + 20 * DAY_MS),
  }
  // Expired two days ago after 15 days in force: its due date moved 15 days, to 5 days from now.
  const shifted: ClockException = {
    state: 'expired',
    activated_at: iso(now - 17 * DAY_MS),
    expires_at: iso(now - 2 * DAY_MS),
  }

  it('keeps a paused finding out of Overdue, as its Due column says "Paused"', () => {
    expect(dueState(finding, policy, now, [paused])).toEqual({ kind: 'paused' })
    expect(keptByFilter(overdue, finding, policy, now)).toBe(true)
    expect(keptByFilter(overdue, finding, policy, now, [paused])).toBe(false)
    // A pause that moved the due date past now: not overdue either, but due within 7 days.
    expect(keptByFilter(overdue, finding, policy, now, [shifted])).toBe(false)
    expect(keptByFilter({ kind: 'due_within', days: 7 }, finding, policy, now, [shifted])).toBe(
      true,
    )
  })

  it('counts what the service returns and the rule leaves out, of the severity asked', () => {
    const held = [
      { finding, exceptions: [paused] },
      { finding: { ...finding, severity: 'critical' }, exceptions: [paused] },
      // pending: does not stop the clock, stays overdue
      { finding, exceptions: [{ ...paused, state: 'pending' }] },
      // first seen 10 days ago: the service does not return it anyway
      { finding: { ...finding, first_seen_at: iso(now - 10 * DAY_MS) }, exceptions: [paused] },
      { finding, exceptions: [shifted] },
    ]
    expect(leftOutByPauses(overdue, 'high', held, policy, now, now)).toBe(2)
    expect(leftOutByPauses(overdue, 'critical', held, policy, now, now)).toBe(1)
  })
})
