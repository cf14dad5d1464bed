import { describe, expect, it } from 'vitest'
import { RUN_MARGIN_MS, runsOfScan, scansThatRan, scopesOfScanners } from './runs'

const from = Date.parse('2026-01-01T00:00:00Z')
const counts = { critical: 0, high: 0, medium: 0, low: 1, info: 0 }

describe('the runs behind the PCI requirements', () => {
  it('gives internal scanners the internal scope, external and PCI scanners the external one', () => {
    const scopes = scopesOfScanners([
      { id: 'scr-1', attributes: { app_type: 'external_scan' } },
      { id: 'scr-2', attributes: { app_type: 'internal_scan' } },
      { id: 'scr-3', attributes: { app_type: 'pci_scan' } },
      { id: 'scr-4', attributes: { app_type: 'something_else' } },
    ])
    expect([...scopes]).toEqual([
      ['scr-1', 'external'],
      ['scr-2', 'internal'],
      ['scr-3', 'external'],
    ])
  })

  it('reads only the histories of scans that started in the period or just before it', () => {
    const ran = scansThatRan(
      [
        { id: 'never', attributes: { started_at: null } },
        { id: 'long-ago', attributes: { started_at: '2025-06-01T00:00:00Z' } },
        {
          id: 'just-before',
          attributes: { started_at: new Date(from - RUN_MARGIN_MS + 1000).toISOString() },
        },
        { id: 'inside', attributes: { started_at: '2026-02-01T00:00:00Z' } },
      ],
      from,
    )
    expect(ran.map((s) => s.id)).toEqual(['just-before', 'inside'])
  })

  it('keeps the runs that ended in the period (or started, while unfinished), with the scan’s name and scope', () => {
    const scan = { id: 'scn-1', attributes: { name: 'Perimeter' } }
    const runs = runsOfScan(
      scan,
      [
        {
          id: 'r1',
          attributes: {
            status: 'completed',
            started_at: '2025-12-31T23:00:00Z',
            finished_at: '2026-01-01T00:30:00Z',
            severity_counts: counts,
          },
        },
        {
          id: 'r2',
          attributes: {
            status: 'completed',
            started_at: '2025-12-30T10:00:00Z',
            finished_at: '2025-12-30T11:00:00Z',
            severity_counts: counts,
          },
        },
        {
          id: 'r3',
          attributes: {
            status: 'running',
            started_at: '2026-02-01T10:00:00Z',
            severity_counts: counts,
          },
        },
      ],
      'external',
      from,
    )
    expect(runs).toEqual([
      {
        scanId: 'scn-1',
        scanName: 'Perimeter',
        scope: 'external',
        status: 'completed',
        startedAt: '2025-12-31T23:00:00Z',
        finishedAt: '2026-01-01T00:30:00Z',
        counts,
      },
      {
        scanId: 'scn-1',
        scanName: 'Perimeter',
        scope: 'external',
        status: 'running',
        startedAt: '2026-02-01T10:00:00Z',
        finishedAt: null,
        counts,
      },
    ])
  })

  it('says a scan with runs in the period but no scope cannot be counted (null), one without runs is empty', () => {
    const scan = { id: 'scn-2', attributes: { name: 'Lab' } }
    const inside = {
      id: 'r',
      attributes: {
        status: 'completed',
        started_at: '2026-01-05T00:00:00Z',
        severity_counts: counts,
      },
    }
    expect(runsOfScan(scan, [inside], undefined, from)).toBeNull()
    expect(runsOfScan(scan, [], undefined, from)).toEqual([])
  })
})
