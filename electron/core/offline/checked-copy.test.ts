// A stored copy checked against its operation's answer schema, once per stored answer: reading
// the same warm copy again gives the same reading without checking again, yet another operation,
// or the same data with other warnings, is checked on its own.
import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import type { OperationDef } from '@contract/catalog/types'
import type { CachedAnswer } from './cache-store'
import { checkedCopy } from './checked-copy'

/** An operation reduced to what the check reads: its answer schema, counting the checks. */
function operation(response: z.ZodType): OperationDef & { parses: () => number } {
  let parses = 0
  const counted = {
    safeParse: (value: unknown) => {
      parses++
      return response.safeParse(value)
    },
  }
  return { response: counted, parses: () => parses } as unknown as OperationDef & {
    parses: () => number
  }
}

const list = z.object({ data: z.array(z.object({ id: z.string(), name: z.string() })) })
const copy = (data: unknown, warnings?: string[]): CachedAnswer => ({
  data,
  fetchedAt: '2026-11-25T08:00:00.000Z',
  etag: '"v1"',
  lastModified: null,
  ...(warnings ? { warnings } : {}),
})

describe('a stored copy read again', () => {
  it('gives the schema’s reading each time, checked once per stored answer and operation', () => {
    const op = operation(list)
    const stored = copy({ data: [{ id: 't1', name: 'Web' }] })
    const first = checkedCopy(op, stored)
    const renewed = checkedCopy(op, { ...stored, fetchedAt: '2026-11-25T08:01:00.000Z' })
    expect(first).toEqual(stored)
    expect(renewed).toEqual({ ...stored, fetchedAt: '2026-11-25T08:01:00.000Z' })
    expect(op.parses()).toBe(1)
    // The same data for an operation whose answer it does not fit: checked, and refused.
    const other = operation(z.object({ data: z.object({ count: z.number() }) }))
    expect(checkedCopy(other, stored)).toBeNull()
    const checks = other.parses()
    expect(checkedCopy(other, stored)).toBeNull()
    expect(other.parses()).toBe(checks)
  })

  it('keeps what was said when the answer arrived and adds what a tolerant reading finds', () => {
    const op = operation(list)
    const data = { data: [{ id: 't1', name: 42 }] }
    const said = ['Some fields were shown as text.']
    const first = checkedCopy(op, copy(data, said))
    expect(first?.data).toEqual({
      data: [{ id: 't1', name: '42', __scandesk: { asText: ['name'] } }],
    })
    expect(first?.warnings?.slice(0, 1)).toEqual(said)
    // Other warnings stored with the same data: checked again, and kept.
    const again = checkedCopy(op, copy(data, ['Something else was said.']))
    expect(again?.warnings?.[0]).toBe('Something else was said.')
    expect(data).toEqual({ data: [{ id: 't1', name: 42 }] })
  })
})
