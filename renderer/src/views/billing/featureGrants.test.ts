import { describe, expect, it } from 'vitest'
import {
  catalogProblem,
  changesOf,
  grantText,
  grantsOf,
  isDirty,
  problemOf,
  rowsOf,
  type FeatureInfo,
} from './featureGrants'

const FEATURES: FeatureInfo[] = [
  { code: 'targets_limit', name: 'Targets', kind: 'limit' },
  { code: 'scans_per_month', name: 'Scans per month', kind: 'limit' },
  { code: 'saq_access', name: 'SAQ', kind: 'toggle' },
  { code: 'webhooks', name: 'Webhooks', kind: 'toggle' },
]
const before = grantsOf({
  targets_limit: { limit: 10, active: true, unlimited: false },
  saq_access: { limit: 0, active: true, unlimited: false },
  legacy_thing: { limit: 3 },
})
const row = (rows: ReturnType<typeof rowsOf>, code: string) => rows.find((r) => r.code === code)!

describe('the rows of the features editor', () => {
  it('lists every known feature, then grants of features the list does not know', () => {
    const rows = rowsOf(FEATURES, before)
    expect(rows.map((r) => [r.code, r.granted])).toEqual([
      ['targets_limit', true],
      ['scans_per_month', false],
      ['saq_access', true],
      ['webhooks', false],
      ['legacy_thing', true],
    ])
    // missing fields are filled as the service fills them
    expect(row(rows, 'legacy_thing')).toMatchObject({ active: true, unlimited: false, limit: '3' })
    expect(rows.some((r) => isDirty(r, before))).toBe(false)
    expect(changesOf(rows, before)).toEqual({ assign: {}, revoke: [] })
  })
})

describe('what Save sends', () => {
  it('assigns new and changed grants whole, and revokes the unticked ones', () => {
    const rows = rowsOf(FEATURES, before)
    row(rows, 'targets_limit').unlimited = true
    Object.assign(row(rows, 'scans_per_month'), { granted: true, limit: '250' })
    row(rows, 'saq_access').granted = false
    expect(changesOf(rows, before)).toEqual({
      assign: {
        targets_limit: { limit: 10, active: true, unlimited: true },
        scans_per_month: { limit: 250, active: true, unlimited: false },
      },
      revoke: ['saq_access'],
    })
    expect(catalogProblem(changesOf(rows, before))).toBeNull()
  })

  it('counts a change back to the stored value as no change', () => {
    const rows = rowsOf(FEATURES, before)
    row(rows, 'targets_limit').limit = '11'
    expect(isDirty(row(rows, 'targets_limit'), before)).toBe(true)
    row(rows, 'targets_limit').limit = ' 10 '
    expect(isDirty(row(rows, 'targets_limit'), before)).toBe(false)
  })

  it('keeps the stored limit of an unlimited row whose box holds something unusable', () => {
    const rows = rowsOf(FEATURES, before)
    Object.assign(row(rows, 'targets_limit'), { unlimited: true, limit: 'lots' })
    expect(problemOf(row(rows, 'targets_limit'))).toBeNull()
    expect(changesOf(rows, before).assign.targets_limit).toEqual({
      limit: 10,
      active: true,
      unlimited: true,
    })
  })
})

describe('limits the form refuses', () => {
  it.each([
    ['-1', 'The limit must be a whole number, 0 or more.'],
    ['2.5', 'The limit must be a whole number, 0 or more.'],
    ['1e3', 'The limit must be a whole number, 0 or more.'],
    ['99999999999999999999', 'The limit must be a whole number, 0 or more.'],
    ['', 'Give a limit (0 or more), or switch on Unlimited.'],
  ])('refuses %j with a message for its row', (typed, message) => {
    const rows = rowsOf(FEATURES, before)
    row(rows, 'targets_limit').limit = typed
    expect(problemOf(row(rows, 'targets_limit'))).toBe(message)
  })

  it('does not check a limit that is not used (toggle, unlimited, not granted)', () => {
    const rows = rowsOf(FEATURES, before)
    row(rows, 'saq_access').limit = '-4'
    Object.assign(row(rows, 'scans_per_month'), { granted: false, limit: '-4' })
    expect(problemOf(row(rows, 'saq_access'))).toBeNull()
    expect(problemOf(row(rows, 'scans_per_month'))).toBeNull()
  })

  it('lets the catalog’s own body refuse what the service would', () => {
    expect(
      catalogProblem({
        assign: { 'Not A Code': { limit: 1, active: true, unlimited: false } },
        revoke: [],
      }),
    ).toMatch(/^The features cannot be sent: /)
    expect(
      catalogProblem({
        assign: { targets_limit: { limit: -1, active: true, unlimited: false } },
        revoke: [],
      }),
    ).toMatch(/^The features cannot be sent: /)
  })
})

describe('how a grant reads', () => {
  it('says Off, On, Unlimited or the limit', () => {
    expect(grantText({ limit: 5, active: false, unlimited: false })).toBe('Off')
    expect(grantText({ limit: 0, active: true, unlimited: false }, 'toggle')).toBe('On')
    expect(grantText({ limit: 0, active: true, unlimited: true })).toBe('Unlimited')
    expect(grantText({ limit: 1500, active: true, unlimited: false })).toBe('Up to 1,500')
  })
})
