import { describe, expect, it } from 'vitest'
import type { BulkItemView } from '@contract/bulk'
import { sameItems } from './items'

const item = (n: number, over: Partial<BulkItemView> = {}): BulkItemView => ({
  writeId: `w-${n}`,
  target: `vul-${n}`,
  label: `Finding ${n}`,
  host: null,
  state: 'done',
  message: null,
  code: null,
  resultId: `exc-${n}`,
  attempts: 1,
  ...over,
})

describe('sameItems', () => {
  it('is true for the same writes read again', () => {
    expect(sameItems([item(1), item(2)], [item(1), item(2)])).toBe(true)
    expect(sameItems([], [])).toBe(true)
  })

  it('sees any write that moved, or another page', () => {
    const page = [item(1), item(2)]
    expect(sameItems(page, [item(1), item(2, { state: 'failed' })])).toBe(false)
    expect(sameItems(page, [item(1), item(2, { message: 'Refused' })])).toBe(false)
    expect(sameItems(page, [item(1), item(2, { resultId: null })])).toBe(false)
    expect(sameItems(page, [item(1), item(2, { attempts: 2 })])).toBe(false)
    expect(sameItems(page, [item(1), item(2, { code: 'CONFLICT' })])).toBe(false)
    expect(sameItems(page, [item(2), item(1)])).toBe(false)
    expect(sameItems(page, [item(1)])).toBe(false)
    expect(sameItems(page, [item(1), item(3)])).toBe(false)
  })
})
