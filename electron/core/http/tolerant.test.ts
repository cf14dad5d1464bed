import { describe, expect, it } from 'vitest'
import { findOperation } from '@contract/catalog/index'
import { readTolerantly, ROW_MARK } from './tolerant'

const list = findOperation('targets.list')!.response
const single = findOperation('targets.show')!.response

const target = (i: number, over: Record<string, unknown> = {}) => ({
  id: `tgt-${String(i).padStart(3, '0')}`,
  type: 'target',
  attributes: { name: `Target ${i}`, address: `10.0.0.${i}`, hosts_count: 1, ...over },
})

const page = (rows: unknown[]) => ({ data: rows, meta: { total_count: rows.length } })

describe('reading an answer that does not quite fit', () => {
  it('shows display fields of another type as text and marks only those rows', () => {
    const rows = Array.from({ length: 100 }, (_, i) => target(i))
    rows[3] = target(3, { name: 42 })
    rows[7] = target(7, { hosts_count: 'many', tags: ['a', 5] })
    const read = readTolerantly(list, page(rows))!
    expect(list.safeParse(page(rows)).success).toBe(false)
    const data = (read.data as { data: Record<string, unknown>[] }).data
    expect(data).toHaveLength(100)
    expect(data[3]).toMatchObject({
      id: 'tgt-003',
      attributes: { name: '42' },
      [ROW_MARK]: { asText: ['attributes.name'] },
    })
    expect(data[7]).toMatchObject({
      attributes: { hosts_count: 'many', tags: '["a",5]' },
      [ROW_MARK]: { asText: expect.arrayContaining(['attributes.hosts_count', 'attributes.tags']) },
    })
    expect(data[0]).toEqual(target(0))
    expect(data[0]).not.toHaveProperty(ROW_MARK)
    expect(read.warnings).toEqual([
      '2 rows had a field of another type than expected (attributes.hosts_count, attributes.name, attributes.tags): shown as text.',
    ])
    expect(read.fields.sort()).toEqual([
      'data[].attributes.hosts_count',
      'data[].attributes.name',
      'data[].attributes.tags',
    ])
  })

  it('keeps a row whose id or kind does not fit as sent, marked partial, in its place', () => {
    const rows = [target(1), { ...target(2), id: 17 }, target(3), 'not a row']
    const read = readTolerantly(list, page(rows))!
    const data = (read.data as { data: Record<string, unknown>[] }).data
    expect(data.map((r) => r.id)).toEqual(['tgt-001', 17, 'tgt-003', undefined])
    expect(data[1][ROW_MARK]).toEqual({ partial: true })
    expect(data[3]).toEqual({ value: 'not a row', [ROW_MARK]: { partial: true } })
    expect(read.warnings).toEqual([
      '2 rows did not fit what ScanDesk expects and are shown as sent, marked.',
    ])
  })

  it('marks a row partial when a required display field is missing', () => {
    const broken = target(2)
    delete (broken.attributes as Record<string, unknown>).name
    const read = readTolerantly(list, page([target(1), broken]))!
    expect((read.data as { data: Record<string, unknown>[] }).data[1][ROW_MARK]).toEqual({
      partial: true,
    })
  })

  it('reads a single answer with a display field of another type, but not one without an id', () => {
    const read = readTolerantly(single, { data: target(1, { description: { html: '<b>x</b>' } }) })!
    expect(read.data).toMatchObject({
      data: { attributes: { description: '{"html":"<b>x</b>"}' } },
    })
    expect(readTolerantly(single, { data: { ...target(1), id: null } })).toBeNull()
  })

  it('refuses what is not an answer at all: no data, or the envelope itself wrong', () => {
    expect(readTolerantly(list, [target(1)])).toBeNull()
    expect(readTolerantly(list, { rows: [target(1)] })).toBeNull()
    expect(readTolerantly(list, { data: 'x' })).toBeNull()
  })
})
