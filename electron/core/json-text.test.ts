// The bridge's JSON text: the very text JSON.stringify writes, for anything; a value marked as
// never changed in place is written once and its text reused, inside the envelopes around it
// too; anything unmarked is written afresh each time (a changed value is never sent stale).
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { jsonText, keepJsonText, toJsonText } from './json-text'

afterEach(() => vi.restoreAllMocks())

/** Values JSON.stringify treats in its own ways: left out, written as null, toJSON, key order. */
const odd = fc.constantFrom<unknown>(
  undefined,
  () => 1,
  Symbol('s'),
  Number.NaN,
  Number.POSITIVE_INFINITY,
  -0,
  new Date(Date.UTC(2026, 10, 27)),
  { toJSON: () => 'own toJSON' },
  Object.create(null) as unknown,
  { 2: 'b', 1: 'a', z: 'z', y: 'y' },
  [undefined, () => 1],
  '\ud800 lone surrogate',
)
const anything = fc.oneof(fc.jsonValue(), odd)
/** Envelopes as the bridge's are: small plain objects, some keys left undefined. */
const envelope = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    anything,
    fc.dictionary(fc.string(), tie('value'), { maxKeys: 10 }),
  ),
})).value

/** How often JSON.stringify was handed `value` itself. */
function writesOf(value: unknown): () => number {
  const spy = vi.spyOn(JSON, 'stringify')
  return () => spy.mock.calls.filter(([arg]) => arg === value).length
}

describe('toJsonText', () => {
  it('writes what JSON.stringify writes, at any depth, marked values or not', () => {
    fc.assert(
      fc.property(envelope, fc.boolean(), fc.integer({ min: 0, max: 3 }), (value, mark, depth) => {
        if (mark) keepJsonText(value)
        expect(toJsonText(value, depth)).toBe(JSON.stringify(value))
        expect(jsonText(value)).toBe(JSON.stringify(value))
      }),
      { numRuns: 500 },
    )
  })

  it('writes a marked value once, inside api.call’s Result, however often it is sent', () => {
    const data = { data: [{ id: 'sc-1', name: 'Weekly' }], meta: { total: 1 } }
    keepJsonText(data)
    const writes = writesOf(data)
    const sent = (fetchedAt: string) =>
      toJsonText({ ok: true, data: { data, fetchedAt, fromCache: false, warnings: undefined } })
    const first = sent('2026-11-27T05:00:00.000Z')
    const second = sent('2026-11-27T05:00:01.000Z')
    expect(writes()).toBe(1)
    expect(JSON.parse(first!)).toEqual({
      ok: true,
      data: { data, fetchedAt: '2026-11-27T05:00:00.000Z', fromCache: false },
    })
    expect(JSON.parse(second!).data.fetchedAt).toBe('2026-11-27T05:00:01.000Z')
  })

  it('writes an unmarked value afresh each time, so a change is sent', () => {
    const data = { count: 1 }
    const writes = writesOf(data)
    expect(toJsonText({ ok: true, data: { data } })).toBe('{"ok":true,"data":{"data":{"count":1}}}')
    data.count = 2
    expect(toJsonText({ ok: true, data: { data } })).toBe('{"ok":true,"data":{"data":{"count":2}}}')
    expect(writes()).toBe(2)
  })

  it('leaves a wide object to JSON.stringify whole rather than building it by hand', () => {
    const wide = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i]))
    const writes = writesOf(wide)
    expect(toJsonText({ ok: true, data: wide })).toBe(JSON.stringify({ ok: true, data: wide }))
    expect(writes()).toBe(1)
  })
})
