import { describe, expect, it } from 'vitest'
import { operations } from '@contract/catalog'
import { GROUP_IDS } from '@contract/catalog/types'
import { GROUP_NAV, visibleGroups } from './navigation'

describe('the sidebar', () => {
  it('lists every catalog group once, in catalog order, each with its own path', () => {
    expect(GROUP_NAV.map((g) => g.group)).toEqual([...GROUP_IDS])
    expect(new Set(GROUP_NAV.map((g) => g.path)).size).toBe(GROUP_IDS.length)
    expect(GROUP_NAV.find((g) => g.group === 'saq')?.label).toBe('Questionnaires (SAQ)')
  })
})

describe('the sidebar for an account’s release', () => {
  const groupsOf = (release: Parameters<typeof visibleGroups>[0]) =>
    visibleGroups(release, operations).map((g) => g.group)

  it('hides groups whose operations are all outside the release', () => {
    const beta = groupsOf('5.0.0-beta1')
    for (const gone of ['advanced_reports', 'saq', 'credentials', 'webhooks', 'white_label'])
      expect(beta).not.toContain(gone)
    expect(beta).toContain('scans')
    expect(beta).toContain('reports')
    expect(groupsOf('5.3.0')).toContain('webhooks')
    expect(groupsOf('5.3.0')).not.toContain('saq')
  })

  it('keeps a group with at least one operation in the release', () => {
    const ops = [
      { group: 'saq' as const, releases: ['latest' as const] },
      { group: 'saq' as const, releases: ['5.0.0-beta1' as const] },
    ]
    expect(visibleGroups('5.0.0-beta1', ops).map((g) => g.group)).toEqual(['saq'])
  })

  it('shows every group when the release is not known, and all of them on latest', () => {
    expect(groupsOf(null)).toEqual([...GROUP_IDS])
    expect(groupsOf('latest')).toEqual([...GROUP_IDS])
  })
})
