import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { portRangeInput } from './catalog/port-lists'
import {
  formatPortRange,
  formatPortRanges,
  MAX_PORT_ITEMS,
  parsePortRanges,
  type PortRangeValue,
} from './ports'

const tcp = (start: number, end = start): PortRangeValue => ({ start, end, protocol: 'tcp' })
const udp = (start: number, end = start): PortRangeValue => ({ start, end, protocol: 'udp' })

const problemsOf = (text: string, existing: PortRangeValue[] = []) => {
  const r = parsePortRanges(text, existing)
  if (r.ok) throw new Error(`${text} accepted`)
  return r.problems
}

describe('parsePortRanges: accepted texts', () => {
  it.each<[string, PortRangeValue[]]>([
    ['T:1-1024,U:53', [tcp(1, 1024), udp(53)]],
    ['T:80', [tcp(80)]],
    ['t:80 , u:161-162', [tcp(80), udp(161, 162)]],
    ['T:80,443,8443', [tcp(80), tcp(443), tcp(8443)]],
    ['U:53,123', [udp(53), udp(123)]],
    ['8080', [tcp(8080)]],
    ['T:22\nU:53\n\n443', [tcp(22), udp(53), tcp(443)]],
    ['T:1-65535,U:1-65535', [tcp(1, 65535), udp(1, 65535)]],
    ['T: 20 - 21', [tcp(20, 21)]],
    ['T:25,U:25', [tcp(25), udp(25)]],
    ['T:5-5', [tcp(5)]],
  ])('%j', (text, ranges) => {
    expect(parsePortRanges(text)).toEqual({ ok: true, ranges })
  })
})

describe('parsePortRanges: each refused item gets its line and reason', () => {
  it.each<[string, string]>([
    ['X:80', 'The protocol is "X"; write T: for TCP or U: for UDP.'],
    [':80', 'The protocol is nothing; write T: for TCP or U: for UDP.'],
    ['T:0', '0 is not a port; ports are 1–65535.'],
    ['T:65536', '65536 is not a port; ports are 1–65535.'],
    ['T:1-70000', '70000 is not a port; ports are 1–65535.'],
    ['T:1024-1', 'The range starts at 1024 but ends at 1; write 1-1024.'],
    ['T:http', '"http" is not a port number; ports are 1–65535.'],
    ['T:-5', 'A port is missing; write a port (1–65535) or a range like 1-1024.'],
    ['T:5-', 'A port is missing; write a port (1–65535) or a range like 1-1024.'],
    ['T:1-2-3', '"1-2-3" has more than one dash; a range is start-end.'],
    ['T:080', '080 has a leading zero; write 80.'],
    ['T:8.5', '"8.5" is not a port number; ports are 1–65535.'],
  ])('%s', (text, problem) => {
    expect(problemsOf(text)).toEqual([{ line: 1, item: text, problem }])
  })

  it('reports every bad item, not only the first, with its line', () => {
    expect(problemsOf('T:22,X:1\nU:53\nT:9-2,U:0')).toEqual([
      { line: 1, item: 'X:1', problem: expect.stringContaining('"X"') },
      { line: 3, item: 'T:9-2', problem: expect.stringContaining('starts at 9') },
      { line: 3, item: 'U:0', problem: expect.stringContaining('0 is not a port') },
    ])
  })

  it('keeps the ranges it accepted next to the problems', () => {
    const r = parsePortRanges('T:22,X:1')
    expect(r).toMatchObject({ ok: false, ranges: [tcp(22)] })
  })

  it('flags an item overlapping one before it, of the same protocol only', () => {
    expect(problemsOf('T:1-100,U:50,T:90-200')).toEqual([
      {
        line: 1,
        item: 'T:90-200',
        problem: 'Overlaps T:1-100 given before it (TCP 90-200 shares ports with it).',
      },
    ])
  })

  it('flags an item overlapping a range the list already has', () => {
    expect(problemsOf('T:443\nU:53', [tcp(400, 500)])).toEqual([
      { line: 1, item: 'T:443', problem: 'Overlaps T:400-500, already in this port list.' },
    ])
    expect(parsePortRanges('T:501', [tcp(400, 500)]).ok).toBe(true)
  })

  it('refuses an empty text and too many items at once', () => {
    expect(problemsOf(' \n , ')[0].problem).toBe('Write at least one range, e.g. T:1-1024,U:53.')
    const many = Array.from({ length: MAX_PORT_ITEMS + 1 }, (_, i) => `T:${i + 1}`).join(',')
    expect(problemsOf(many)).toEqual([
      { line: 1, item: '', problem: '201 ranges given; add at most 200 at once.' },
    ])
  })
})

describe('parsePortRanges: properties', () => {
  const port = fc.integer({ min: 1, max: 65535 })
  const protocol = fc.constantFrom<'tcp' | 'udp'>('tcp', 'udp')
  const range = fc.tuple(port, port, protocol).map(([a, b, p]): PortRangeValue => ({
    start: Math.min(a, b),
    end: Math.max(a, b),
    protocol: p,
  }))

  it('a printed range parses back to itself', () => {
    fc.assert(
      fc.property(range, (r) => {
        expect(parsePortRanges(formatPortRange(r))).toEqual({ ok: true, ranges: [r] })
      }),
    )
  })

  it('printed ranges that do not overlap parse back to themselves, in order', () => {
    fc.assert(
      fc.property(fc.array(range, { maxLength: 20 }), (all) => {
        const ranges: PortRangeValue[] = []
        for (const r of all)
          if (
            !ranges.some((o) => o.protocol === r.protocol && o.start <= r.end && r.start <= o.end)
          )
            ranges.push(r)
        fc.pre(ranges.length > 0)
        expect(parsePortRanges(formatPortRanges(ranges))).toEqual({ ok: true, ranges })
      }),
    )
  })

  it('a valid single port always parses, with or without a letter', () => {
    fc.assert(
      fc.property(port, fc.constantFrom('T:', 'U:', 't:', 'u:', ''), (p, letter) => {
        const r = parsePortRanges(`${letter}${p}`)
        const protocol = letter.toUpperCase() === 'U:' ? 'udp' : 'tcp'
        expect(r).toEqual({ ok: true, ranges: [{ start: p, end: p, protocol }] })
      }),
    )
  })

  it('a number outside 1–65535 is always refused', () => {
    const bad = fc.oneof(fc.constant(0), fc.integer({ min: 65536, max: 10_000_000 }))
    fc.assert(
      fc.property(bad, (n) => {
        expect(parsePortRanges(`T:${n}`).ok).toBe(false)
      }),
    )
  })

  it('an accepted text never yields overlapping ranges', () => {
    const item = fc.tuple(fc.constantFrom('T:', 'U:'), port, fc.integer({ min: 0, max: 50 }))
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 15 }), (items) => {
        const text = items.map(([l, p, w]) => `${l}${p}-${Math.min(p + w, 65535)}`).join(',')
        const r = parsePortRanges(text)
        for (const [i, a] of r.ranges.entries())
          for (const b of r.ranges.slice(i + 1))
            expect(a.protocol === b.protocol && a.start <= b.end && b.start <= a.end).toBe(false)
      }),
    )
  })
})

describe('the catalog’s port range body', () => {
  it('accepts what the parser accepts and says why it refuses a reversed range', () => {
    expect(portRangeInput.safeParse(tcp(1, 1024)).success).toBe(true)
    const bad = portRangeInput.safeParse(tcp(1024, 1))
    expect(bad.success).toBe(false)
    expect(bad.error?.issues[0]).toMatchObject({
      path: ['end'],
      message: 'The range starts at 1024 but ends at 1; write 1-1024.',
    })
    expect(portRangeInput.safeParse({ start: 0, end: 5, protocol: 'tcp' }).success).toBe(false)
  })
})
