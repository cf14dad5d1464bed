import { describe, expect, it } from 'vitest'
import { countsOf, seriesOf, timeOf, trendOfRuns, type RunSummary, type TrendPoint } from './trend'

const counts = (critical: number, high = 0) => ({ critical, high, medium: 1, low: 0, info: 2 })
function run(id: string, finished: string | null, status = 'completed', c = counts(1)): RunSummary {
  return {
    id,
    attributes: {
      scan_id: id.split('/')[0],
      status,
      started_at: null,
      finished_at: finished,
      severity_counts: c,
    },
  }
}

describe('a trend of runs', () => {
  it('puts completed runs oldest first, whatever order they came in (several scans interleave)', () => {
    const t = trendOfRuns(
      [
        run('a/2', '2026-11-20T10:00:00Z', 'completed', counts(3)),
        run('b/1', '2026-11-18T10:00:00Z', 'completed', counts(5, 1)),
        run('a/1', '2026-11-13T10:00:00Z', 'completed', counts(4)),
      ],
      { noteOf: (r) => `scan ${r.attributes.scan_id}` },
    )
    expect(t.points.map((p) => [p.key, p.counts.critical, p.note])).toEqual([
      ['a/1', 4, 'scan a'],
      ['b/1', 5, 'scan b'],
      ['a/2', 3, 'scan a'],
    ])
    expect(t.notCompleted).toBe(0)
  })

  it('leaves out and counts runs that did not complete or have no time', () => {
    const t = trendOfRuns([
      run('a/1', '2026-11-13T10:00:00Z'),
      run('a/2', '2026-11-14T10:00:00Z', 'stopped'),
      run('a/3', null, 'running'),
      run('a/4', 'not a date'),
      run('a/5', '2026-11-15T10:00:00Z', 'failed'),
    ])
    expect(t.points.map((p) => p.key)).toEqual(['a/1'])
    expect(t.notCompleted).toBe(4)
  })

  it('keeps the newest runs up to the limit and counts the older ones', () => {
    const runs = [1, 2, 3, 4, 5].map((d) => run(`a/${d}`, `2026-11-0${d}T00:00:00Z`))
    const t = trendOfRuns(runs, { limit: 3 })
    expect(t.points.map((p) => p.key)).toEqual(['a/3', 'a/4', 'a/5'])
    expect(t.older).toBe(2)
  })

  it('reads odd counts as 0 and takes a run once', () => {
    expect(countsOf({ critical: -2, high: 'x', medium: 2.4 })).toEqual({
      critical: 0,
      high: 0,
      medium: 2,
      low: 0,
      info: 0,
    })
    expect(
      trendOfRuns([run('a/1', '2026-11-01T00:00:00Z'), run('a/1', '2026-11-01T00:00:00Z')]).points,
    ).toHaveLength(1)
  })
})

describe('the lines of a trend', () => {
  const day = (at: string, critical: number): TrendPoint => ({
    key: at,
    at,
    counts: counts(critical),
  })

  it('gives one line per severity, worst first, with a pair per point', () => {
    const s = seriesOf([day('2026-11-01', 2), day('2026-11-02', 3)], { days: true })
    expect(s.map((x) => x.severity)).toEqual(['critical', 'high', 'medium', 'low', 'info'])
    expect(s[0].data).toEqual([
      [timeOf('2026-11-01'), 2],
      [timeOf('2026-11-02'), 3],
    ])
  })

  it('breaks a line of days over a day without a count instead of joining across it', () => {
    const s = seriesOf([day('2026-11-01', 2), day('2026-11-04', 3)], { days: true })
    expect(s[0].data.map((d) => d[1])).toEqual([2, null, 3])
    // runs are not days: far apart, still joined
    const runs = seriesOf([day('2026-11-01T00:00:00Z', 2), day('2026-11-20T00:00:00Z', 3)])
    expect(runs[0].data.map((d) => d[1])).toEqual([2, 3])
  })

  it('takes a day as its local midnight', () => {
    expect(new Date(timeOf('2026-03-29')).getDate()).toBe(29)
    expect(new Date(timeOf('2026-03-29')).getHours()).toBe(0)
  })
})
