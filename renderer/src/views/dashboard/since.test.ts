import { describe, expect, it } from 'vitest'
import type { SinceAnswer, SinceCount } from '@contract/since'
import { shownCount, sinceLines } from './since'

const count = (value: number | null, extra: Partial<SinceCount> = {}): SinceCount => ({
  value,
  atLeast: false,
  note: null,
  fromCache: false,
  ...extra,
})

const answer = (over: Partial<SinceAnswer> = {}): SinceAnswer => ({
  accountId: 'acc',
  since: '2026-05-01T00:00:00Z',
  until: '2026-05-02T09:30:00.000Z',
  firstVisit: false,
  newCritical: count(3),
  newHigh: count(0),
  fixed: { ...count(2), scanIds: ['scn-001'] },
  scansCompleted: count(500, { atLeast: true }),
  expiring: count(null, { note: 'Not known offline.' }),
  ...over,
})

describe('the lines of "Since your last visit"', () => {
  it('links each known, non-zero count to its list: new findings filtered to exactly them', () => {
    const lines = Object.fromEntries(sinceLines(answer()).map((l) => [l.key, l]))
    // …up to the moment they were counted, with the count (the list says if it moved since).
    expect(lines.newCritical.to).toEqual({
      name: 'vulnerabilities',
      query: {
        severity: 'critical',
        first_seen_after: '2026-05-01T00:00:00Z',
        first_seen_before: '2026-05-02T09:30:00.000Z',
        counted: '3',
        counted_at: '2026-05-02T09:30:00.000Z',
      },
    })
    // Filtered, not sorted: no words about what the list cannot do.
    expect(lines.newCritical.linkNote).toBeNull()
    // Lists that cannot filter by the time open sorted with the counted records first.
    expect(lines.scansCompleted).toMatchObject({
      shown: '500+',
      to: { name: 'scans', query: { status: 'completed', sort: '-finished_at' } },
    })
    // One scan's comparison: its Changes tab lists them.
    expect(lines.fixed.to).toMatchObject({ params: { id: 'scn-001' }, query: { tab: 'changes' } })
  })

  it('does not link a zero or an unknown count, and says why it is not known', () => {
    const lines = Object.fromEntries(sinceLines(answer()).map((l) => [l.key, l]))
    expect(lines.newHigh).toMatchObject({ shown: '0', to: null, linkNote: null })
    expect(lines.expiring).toMatchObject({ shown: '?', to: null, note: 'Not known offline.' })
  })

  it('says in words where no list shows the fixed findings of several scans', () => {
    const lines = sinceLines(answer({ fixed: { ...count(4), scanIds: ['a', 'b'] } }))
    const fixed = lines.find((l) => l.key === 'fixed')!
    expect(fixed.to).toBeNull()
    expect(fixed.linkNote).toMatch(/Changes tab lists them/)
    expect(shownCount(count(7))).toBe('7')
  })
})
