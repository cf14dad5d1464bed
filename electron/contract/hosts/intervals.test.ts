import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  cutIpv4Interval,
  ipv4Interval,
  ipv4IntervalText,
  parseHostEntry,
  type Ipv4Interval,
} from '.'

/** The addresses of an interval, one by one (a model apart from the module under test). */
const each = ([s, e]: Ipv4Interval) => Array.from({ length: e - s + 1 }, (_, i) => s + i)

describe('the IPv4 interval of an entry', () => {
  it.each<[string, Ipv4Interval | null, Ipv4Interval | null]>([
    ['192.0.2.7', [0xc0000207, 0xc0000207], [0xc0000207, 0xc0000207]],
    ['192.0.2.0/24', [0xc0000201, 0xc00002fe], [0xc0000200, 0xc00002ff]],
    ['192.0.2.8/31', [0xc0000208, 0xc0000209], [0xc0000208, 0xc0000209]],
    ['192.0.2.1-10', [0xc0000201, 0xc000020a], [0xc0000201, 0xc000020a]],
    ['scan.example.com', null, null],
    ['2001:db8::/120', null, null],
  ])('%s scans %j and, excluded, removes %j', (text, scanned, whole) => {
    const entry = parseHostEntry(text)
    if (!entry.ok) throw new Error(entry.problem)
    expect(ipv4Interval(entry)).toEqual(scanned)
    expect(ipv4Interval(entry, true)).toEqual(whole)
  })

  it('is written back as one address or a dash range the host syntax reads', () => {
    expect(ipv4IntervalText([0xc0000207, 0xc0000207])).toBe('192.0.2.7')
    expect(ipv4IntervalText([0xc0000201, 0xc000020a])).toBe('192.0.2.1-192.0.2.10')
    const back = parseHostEntry(ipv4IntervalText([0xc00001fe, 0xc0000203]))
    expect(back.ok && ipv4Interval(back)).toEqual([0xc00001fe, 0xc0000203])
  })
})

describe('cutting exclusions out of an IPv4 interval', () => {
  it('leaves the pieces around a cut and says which cuts took something', () => {
    expect(
      cutIpv4Interval(
        [10, 20],
        [
          [0, 5],
          [12, 13],
          [18, 30],
        ],
      ),
    ).toEqual({
      left: [
        [10, 11],
        [14, 17],
      ],
      used: [1, 2],
    })
    expect(cutIpv4Interval([10, 20], [[0, 30]])).toEqual({ left: [], used: [0] })
  })

  it('leaves exactly the addresses no cut covers, in order, and names the cuts that took one', () => {
    const interval = fc
      .tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 60 }))
      .map(([s, n]): Ipv4Interval => [s, s + n])
    fc.assert(
      fc.property(interval, fc.array(interval, { maxLength: 6 }), (iv, cuts) => {
        const { left, used } = cutIpv4Interval(iv, cuts)
        const expected = each(iv).filter((a) => !cuts.some(([s, e]) => a >= s && a <= e))
        expect(left.flatMap(each)).toEqual(expected)
        // a cut takes an address no earlier cut took
        const covers = ([s, e]: Ipv4Interval, a: number) => a >= s && a <= e
        const took = cuts.flatMap((c, i) =>
          each(iv).some((a) => covers(c, a) && !cuts.slice(0, i).some((d) => covers(d, a)))
            ? [i]
            : [],
        )
        expect([...used].sort((a, b) => a - b)).toEqual(took)
      }),
    )
  })
})
