import { describe, expect, it } from 'vitest'
import { GROUP_IDS } from '@contract/catalog/types'
import { GROUP_NAV } from './navigation'

describe('the sidebar', () => {
  it('lists every catalog group once, in catalog order, each with its own path', () => {
    expect(GROUP_NAV.map((g) => g.group)).toEqual([...GROUP_IDS])
    expect(new Set(GROUP_NAV.map((g) => g.path)).size).toBe(GROUP_IDS.length)
    expect(GROUP_NAV.find((g) => g.group === 'saq')?.label).toBe('Questionnaires (SAQ)')
  })
})
