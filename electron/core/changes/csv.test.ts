import { describe, expect, it } from 'vitest'
import type { ChangesAnswer } from '@contract/changes'
import { formatCsv } from '@contract/csv'
import type { SnapshotFinding } from '@contract/findings/compare'
import { changesCsv } from './csv'

const f = (id: string, title: string, over: Partial<SnapshotFinding> = {}): SnapshotFinding => ({
  id,
  title,
  severity: 'high',
  cvss_score: 7.5,
  cve_ids: ['CVE-2014-0160'],
  host_id: 'hst-1',
  host_ip: '203.0.113.1',
  port: 443,
  protocol: 'tcp',
  first_seen_at: '2026-11-01T00:00:00Z',
  last_seen_at: '2026-11-08T00:00:00Z',
  ...over,
})

const answer = (comparison: ChangesAnswer['comparison']): ChangesAnswer => ({
  basis: 'snapshots',
  from: null,
  to: null,
  comparison,
  notes: [],
  fromCache: false,
})

describe('the Changes CSV', () => {
  it('has one row per finding and group, changed rows with the earlier severity, formulas escaped', () => {
    const rescored = f('vul-3', 'Rescored', { severity: 'critical', cvss_score: 9.5 })
    const rows = changesCsv(
      answer({
        new: [f('vul-1', '=HYPERLINK("http://x","y")')],
        fixed: [f('vul-2', 'Gone', { port: null, protocol: null })],
        stillOpen: [rescored],
        changed: [{ before: f('vul-3', 'Rescored'), after: rescored }],
        leftOut: 0,
      }),
    )
    expect(rows.map((r) => r[0])).toEqual(['change', 'new', 'fixed', 'changed', 'still open'])
    expect(rows[3].slice(2, 6)).toEqual(['critical', '9.5', 'high', '7.5'])
    expect(rows[2][7]).toBe('')
    const csv = formatCsv(rows)
    expect(csv.escapedCells).toBe(1)
    expect(csv.text).toContain(`"'=HYPERLINK(""http://x"",""y"")"`)
  })

  it('is only the header when the data cannot say, and never says changed when changes are unknown', () => {
    expect(changesCsv(answer(null))).toHaveLength(1)
    const rows = changesCsv(
      answer({ new: [], fixed: [], stillOpen: [f('vul-1', 'Open')], changed: null, leftOut: 0 }),
    )
    expect(rows.map((r) => r[0])).toEqual(['change', 'still open'])
  })
})
