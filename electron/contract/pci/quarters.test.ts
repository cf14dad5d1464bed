import { describe, expect, it } from 'vitest'
import {
  lastTwelveMonthsQuarters,
  quarterOf,
  quarterlyRuns,
  rescansAfterFailures,
  runVerdict,
  type PciRun,
} from './quarters'

const clean = { critical: 0, high: 0, medium: 0, low: 2, info: 5 }
const dirty = { critical: 0, high: 1, medium: 0, low: 0, info: 0 }

function run(at: string, over: Partial<PciRun> = {}): PciRun {
  return {
    scanId: 'scn-1',
    scanName: 'Perimeter',
    scope: 'external',
    status: 'completed',
    startedAt: new Date(Date.parse(at) - 600_000).toISOString(),
    finishedAt: at,
    counts: clean,
    ...over,
  }
}

describe('run verdicts', () => {
  it('passes a completed run with nothing of CVSS 4.0 or more, fails one with', () => {
    expect(runVerdict(run('2026-05-01T00:00:00Z'))).toBe('pass')
    expect(runVerdict(run('2026-05-01T00:00:00Z', { counts: dirty }))).toBe('fail')
    expect(runVerdict(run('2026-05-01T00:00:00Z', { counts: { ...clean, medium: 1 } }))).toBe(
      'fail',
    )
  })

  it('does not judge a run that did not complete, whatever it found', () => {
    for (const status of ['stopped', 'failed', 'running'])
      expect(runVerdict(run('2026-05-01T00:00:00Z', { status }))).toBe('unknown')
  })
})

describe('quarters', () => {
  it('puts the last instant of a year in Q4 and the first of the next in Q1 (UTC)', () => {
    expect(quarterOf(new Date('2025-12-31T23:59:59.999Z')).label).toBe('2025 Q4')
    expect(quarterOf(new Date('2026-01-01T00:00:00Z')).label).toBe('2026 Q1')
    expect(quarterOf(new Date('2026-03-31T23:59:59Z')).label).toBe('2026 Q1')
    expect(quarterOf(new Date('2026-04-01T00:00:00Z')).label).toBe('2026 Q2')
  })

  it('shows the last twelve months in the quarters they touch: this one and the four before it', () => {
    expect(lastTwelveMonthsQuarters(new Date('2026-02-10T12:00:00Z')).map((q) => q.label)).toEqual([
      '2025 Q1',
      '2025 Q2',
      '2025 Q3',
      '2025 Q4',
      '2026 Q1',
    ])
    const [first] = lastTwelveMonthsQuarters(new Date('2026-02-10T12:00:00Z'))
    expect(first.start).toBe('2025-01-01T00:00:00.000Z')
    // December: four quarters that are over, the last of the year before among them (issue 36)
    expect(lastTwelveMonthsQuarters(new Date('2026-12-02T00:53:00Z')).map((q) => q.label)).toEqual([
      '2025 Q4',
      '2026 Q1',
      '2026 Q2',
      '2026 Q3',
      '2026 Q4',
    ])
    expect(lastTwelveMonthsQuarters(new Date('2026-11-26T10:00:00Z'))[4].end).toBe(
      '2027-01-01T00:00:00.000Z',
    )
    // twelve months back from a quarter's first instant is the first instant of the first quarter
    const [start] = lastTwelveMonthsQuarters(new Date('2026-10-01T00:00:00Z'))
    expect(start.start).toBe('2025-10-01T00:00:00.000Z')
  })
})

describe('quarterly runs', () => {
  const now = new Date('2026-02-10T12:00:00Z')

  it('marks a past quarter without a passing run as a gap, the current one as open', () => {
    const quarters = quarterlyRuns(
      [
        run('2025-05-02T10:00:00Z'),
        run('2025-08-01T10:00:00Z', { counts: dirty }),
        run('2025-08-20T10:00:00Z', { status: 'stopped' }),
      ],
      'external',
      now,
    )
    expect(quarters.map((q) => [q.label, q.state, q.runs.length])).toEqual([
      ['2025 Q1', 'gap', 0],
      ['2025 Q2', 'passed', 1],
      ['2025 Q3', 'gap', 2],
      ['2025 Q4', 'gap', 0],
      ['2026 Q1', 'open', 0],
    ])
    expect(quarters[2].runs.map((r) => r.verdict)).toEqual(['fail', 'unknown'])
  })

  it('puts a run finishing on New Year’s Eve in Q4, one just after midnight in Q1', () => {
    const quarters = quarterlyRuns(
      [run('2025-12-31T23:59:00Z'), run('2026-01-01T00:01:00Z', { counts: dirty })],
      'external',
      now,
    )
    expect(quarters[3]).toMatchObject({ label: '2025 Q4', state: 'passed' })
    expect(quarters[4]).toMatchObject({ label: '2026 Q1', state: 'open' })
    expect(quarters[4].runs).toHaveLength(1)
  })

  it('leaves out the other scope, runs older than the first quarter and runs after now', () => {
    const quarters = quarterlyRuns(
      [
        run('2024-12-31T23:00:00Z'),
        run('2025-10-01T10:00:00Z', { scope: 'internal' }),
        run('2026-02-11T10:00:00Z'),
      ],
      'external',
      now,
    )
    expect(quarters.flatMap((q) => q.runs)).toEqual([])
    expect(quarters.map((q) => q.state)).toEqual(['gap', 'gap', 'gap', 'gap', 'open'])
  })

  it('counts a run that has not finished by its start and lists runs oldest first', () => {
    const quarters = quarterlyRuns(
      [
        run('2026-02-01T10:00:00Z'),
        run('2026-01-05T10:00:00Z', {
          status: 'running',
          startedAt: '2026-01-05T10:00:00Z',
          finishedAt: null,
        }),
      ],
      'external',
      now,
    )
    expect(quarters[4].runs.map((r) => r.status)).toEqual(['running', 'completed'])
    expect(quarters[4].state).toBe('passed')
  })
})

describe('rescans after failures', () => {
  const now = new Date('2026-02-10T12:00:00Z')

  it('pairs each failing run with the same scan’s next run, newest failure first', () => {
    const rescans = rescansAfterFailures(
      [
        run('2025-09-01T10:00:00Z', { counts: dirty }),
        run('2025-09-08T10:00:00Z'),
        run('2025-09-05T10:00:00Z', { scanId: 'scn-2', counts: dirty }),
        run('2026-01-20T10:00:00Z', { counts: dirty }),
        run('2025-10-01T10:00:00Z', { scope: 'internal', counts: dirty }),
      ],
      'external',
      now,
    )
    expect(
      rescans.map((r) => [r.failed.scanId, r.failed.finishedAt, r.rescan?.verdict ?? null]),
    ).toEqual([
      ['scn-1', '2026-01-20T10:00:00Z', null],
      ['scn-2', '2025-09-05T10:00:00Z', null],
      ['scn-1', '2025-09-01T10:00:00Z', 'pass'],
    ])
  })

  it('ignores failures before the twelve months', () => {
    const rescans = rescansAfterFailures(
      [run('2024-12-01T10:00:00Z', { counts: dirty }), run('2025-01-02T10:00:00Z')],
      'external',
      now,
    )
    expect(rescans).toEqual([])
  })
})
