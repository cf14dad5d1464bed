import { describe, expect, expectTypeOf, it } from 'vitest'
import type { ApiAnswer } from '@/bridge/bridge'
import {
  answered,
  attributesOf,
  recordOf,
  rowsOf,
  totalOf,
  type AttributesOf,
  type RecordOf,
  type RowOf,
} from './envelope'

const scan = { id: 'scn-1', type: 'scan', attributes: { name: 'Nightly', progress: 40 } }

describe('taking an answer out of its envelope', () => {
  it('gives a single answer’s record and its attributes, nothing before an answer', () => {
    expect(recordOf({ data: scan })).toBe(scan)
    expect(attributesOf({ data: scan })).toBe(scan.attributes)
    expect(recordOf(undefined)).toBeUndefined()
    expect(attributesOf(null)).toBeUndefined()
  })

  it('gives an object that is not a record as it is (statistics, dates)', () => {
    expect(recordOf({ data: { hosts_count: 12 } })).toEqual({ hosts_count: 12 })
  })

  it('gives a collection’s rows and the total the service counts', () => {
    const page = { data: [scan], meta: { pagination: { total_count: 40 } } }
    expect(rowsOf(page)).toEqual([scan])
    expect(totalOf(page)).toBe(40)
  })

  it('counts the rows given when the service does not say how many there are', () => {
    expect(totalOf({ data: [scan, scan] })).toBe(2)
    expect(totalOf({ data: [scan], meta: {} })).toBe(1)
    expect(rowsOf(undefined)).toEqual([])
    expect(totalOf(undefined)).toBe(0)
  })

  it('reads a call’s answer past its transport fields', () => {
    const answer = { data: { data: scan }, fetchedAt: '2030-01-01T00:00:00Z', fromCache: false }
    expect(answered(answer)).toBe(scan)
  })

  it('tolerates an unchecked answer that is no envelope', () => {
    const loose: unknown = 'text'
    expect(recordOf(loose)).toBeUndefined()
    expect(recordOf(null as unknown)).toBeUndefined()
    expect(answered({ data: null })).toBeUndefined()
  })

  it('is typed by the catalog', () => {
    expectTypeOf<RecordOf<'scans.show'>['attributes']>().toEqualTypeOf<AttributesOf<'scans.show'>>()
    expectTypeOf<RowOf<'scans.list'>>().toEqualTypeOf<RecordOf<'scans.show'>>()
    expectTypeOf(answered({} as ApiAnswer<'targets.calculate_hosts'>)).toHaveProperty('hosts_count')
    expectTypeOf(answered({ data: 1 as unknown })).toBeUnknown()
  })
})
