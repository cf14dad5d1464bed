import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  expandHostEntry,
  MAX_HOST_LINES,
  parseHostEntry,
  parseHostList,
  type HostEntry,
  type HostEntryResult,
} from '.'

const accepted = (text: string): HostEntry => {
  const r = parseHostEntry(text)
  if (!r.ok) throw new Error(`${text} refused: ${r.problem}`)
  return r
}
const problemOf = (text: string): string => {
  const r = parseHostEntry(text)
  if (r.ok) throw new Error(`${text} accepted as ${r.normalized}`)
  return r.problem
}

/** Dotted text of an address given as an integer, computed apart from the module under test. */
const dotted = (n: number) =>
  `${Math.floor(n / 2 ** 24)}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`

describe('parseHostEntry: accepted entries', () => {
  it.each<[string, Partial<HostEntry>]>([
    ['192.0.2.10', { kind: 'ipv4', normalized: '192.0.2.10', count: 1 }],
    ['  192.0.2.10  ', { kind: 'ipv4', normalized: '192.0.2.10', count: 1 }],
    ['0.0.0.0', { kind: 'ipv4', count: 1 }],
    ['255.255.255.255', { kind: 'ipv4', count: 1 }],
    ['10.0.0.0/24', { kind: 'cidr', normalized: '10.0.0.0/24', count: 254, first: '10.0.0.1' }],
    ['10.0.0.77/24', { kind: 'cidr', normalized: '10.0.0.0/24', count: 254 }],
    ['10.0.0.0/16', { kind: 'cidr', count: 65_534 }],
    ['10.0.0.0/31', { kind: 'cidr', count: 2, first: '10.0.0.0', last: '10.0.0.1' }],
    ['10.0.0.9/32', { kind: 'cidr', normalized: '10.0.0.9/32', count: 1 }],
    ['10.0.0.1-10.0.0.10', { kind: 'range', normalized: '10.0.0.1-10.0.0.10', count: 10 }],
    ['10.0.0.1-10', { kind: 'range', normalized: '10.0.0.1-10.0.0.10', count: 10 }],
    ['10.0.0.250-10.0.1.4', { kind: 'range', count: 11 }],
    ['10.0.0.5-10.0.0.5', { kind: 'range', count: 1 }],
    ['WWW.Example.COM.', { kind: 'hostname', normalized: 'www.example.com', count: 1 }],
    ['localhost', { kind: 'hostname', count: 1 }],
    ['3com.example', { kind: 'hostname', count: 1 }],
    ['2001:DB8:0:0:0:0:0:1', { kind: 'ipv6', normalized: '2001:db8::1', count: 1 }],
    ['2001:db8:0:0:1:0:0:1', { kind: 'ipv6', normalized: '2001:db8::1:0:0:1' }],
    ['::ffff:192.0.2.1', { kind: 'ipv6', normalized: '::ffff:c000:201' }],
    ['::', { kind: 'ipv6', normalized: '::' }],
    ['2001:db8::7/120', { kind: 'ipv6-cidr', normalized: '2001:db8::/120', count: 256 }],
    ['2001:db8::/112', { kind: 'ipv6-cidr', count: 65_536, last: '2001:db8::ffff' }],
  ])('%s', (text, expected) => {
    expect(parseHostEntry(text)).toMatchObject({ ok: true, ...expected })
  })
})

describe('parseHostEntry: refusals name the reason', () => {
  it.each<[string, string]>([
    ['10.0.0.0/0', 'A /0 range covers every address; use /16 or longer.'],
    ['10.0.0.0/8', 'A /8 range covers 16,777,216 addresses; use /16 or longer.'],
    ['10.0.0.0/15', 'A /15 range covers 131,072 addresses; use /16 or longer.'],
    ['10.0.0.0/33', '/33 is not a prefix length; IPv4 prefixes are 0–32.'],
    ['10.0.0.0/x', '"/x" is not a prefix length; IPv4 prefixes are 0–32.'],
    ['10.0.0.0/24/1', '"10.0.0.0/24/1" has more than one "/".'],
    ['999.1.1.1', '999 is not an octet (0–255).'],
    ['1.2.3.256', '256 is not an octet (0–255).'],
    ['1.2.3', '"1.2.3" has 3 parts; an IPv4 address has four numbers (0–255) separated by dots.'],
    ['1.2..4', '"1.2..4" has an empty part; an IPv4 address has four numbers (0–255).'],
    ['010.0.0.1', '010 has a leading zero, which some tools read as octal; write 10.'],
    [
      '10.0.0.10-10.0.0.1',
      'The range ends at 10.0.0.1, before it starts at 10.0.0.10; put the lower address first.',
    ],
    [
      '10.0.0.10-2',
      'The range ends at 10.0.0.2, before it starts at 10.0.0.10; put the lower address first.',
    ],
    ['10.0.0.1-300', '300 is not an octet (0–255).'],
    ['10.0.0.1-', 'The range has no end address after "-".'],
    ['-10.0.0.1', 'The range has no start address before "-".'],
    [
      '10.0.0.0-10.1.0.0',
      'This range covers 65,537 addresses; a range can cover at most 65,536 (a /16).',
    ],
    ['a..b', '"a..b" has an empty label (a dot at the start or two dots in a row).'],
    [
      '.example.com',
      '".example.com" has an empty label (a dot at the start or two dots in a row).',
    ],
    ['-web.example.com', 'The label "-web" starts or ends with a hyphen.'],
    [
      'web_1.example.com',
      '"_" is not allowed in a host name (letters, digits, hyphens and dots only).',
    ],
    [
      'host.123',
      '"host.123" is neither an IPv4 address nor a host name (its last label is a number).',
    ],
    [
      `${'a'.repeat(64)}.example`,
      `The label "${'a'.repeat(20)}…" is 64 characters long; at most 63.`,
    ],
    [`${'abc.'.repeat(64)}com`, 'A host name has at most 253 characters; this one has 259.'],
    ['example.com/24', 'A host name cannot have a prefix length (/24).'],
    [
      'a.example b.example',
      'Give one address, range or host name per entry; this one contains a space.',
    ],
    [
      '10.0.0.1,10.0.0.2',
      'Give one address, range or host name per entry; this one contains a comma.',
    ],
    ['', 'Enter an IP address, a CIDR block, an address range or a host name.'],
    ['   ', 'Enter an IP address, a CIDR block, an address range or a host name.'],
    [
      '2001:db8::/64',
      'A /64 IPv6 range covers 2^64 addresses, too many to scan one by one; use /112 or longer, or list the addresses.',
    ],
    ['2001:db8::/0', 'A /0 range covers every address; use /112 or longer.'],
    ['2001:db8::/129', '"/129" is not a prefix length; IPv6 prefixes are 0–128.'],
    ['1::2::3', '"1::2::3" uses "::" more than once.'],
    [
      '1:2:3:4:5:6:7',
      '"1:2:3:4:5:6:7" has 7 groups; an IPv6 address has 8 (or uses "::" for zeros).',
    ],
    ['1:2:3:4::5:6:7:8', '"1:2:3:4::5:6:7:8" has too many groups for "::" to stand for any.'],
    ['2001:db8::g', '"g" is not an IPv6 group (1–4 hex digits).'],
    ['fe80::1%eth0', 'Zone indexes (%eth0) are not supported; give the address alone.'],
    ['1.2.3.4::', '"1.2.3.4": an IPv4 part can only come last in an IPv6 address.'],
    [
      '2001:db8::1-2001:db8::9',
      'IPv6 ranges are written as a prefix (2001:db8::/120), not with "-".',
    ],
  ])('%s', (text, problem) => {
    expect(problemOf(text)).toBe(problem)
  })
})

describe('parseHostList', () => {
  it('checks each non-blank line with its line number and flags duplicates', () => {
    const r = parseHostList('10.0.0.1\n\nbad..name\r\n10.0.0.1\nWWW.example.com\nwww.example.com.')
    expect(r.lines.map((l) => [l.line, l.text, l.result.ok, l.duplicateOf])).toEqual([
      [1, '10.0.0.1', true, undefined],
      [3, 'bad..name', false, undefined],
      [4, '10.0.0.1', true, 1],
      [5, 'WWW.example.com', true, undefined],
      [6, 'www.example.com.', true, 5],
    ])
    expect(r).toMatchObject({ ok: false, count: 2, duplicates: 2, invalid: 1, excluded: 0 })
  })

  it('counts overlapping blocks, ranges and addresses once', () => {
    const r = parseHostList(['10.0.0.0/24', '10.0.0.1-10.0.0.10', '10.0.0.5', '10.0.0.0'])
    // 254 scanned addresses of the /24, plus its network address listed on its own
    expect(r).toMatchObject({ ok: true, count: 255, duplicates: 0 })
    const adjacent = parseHostList([
      '10.0.0.1-10.0.0.10',
      '10.0.0.11-20',
      '2001:db8::/120',
      '2001:db8::5',
    ])
    expect(adjacent.count).toBe(20 + 256)
  })

  it('subtracts exclusions of every kind and reports what they removed', () => {
    const r = parseHostList('10.0.0.0/24\nweb.example.com\napi.example.com\n2001:db8::/120', {
      exclusions: '10.0.0.1-10.0.0.4\nWEB.example.com\n192.0.2.1\n2001:db8::/124\nnot..valid',
    })
    expect(r).toMatchObject({ count: 250 + 1 + 240, excluded: 4 + 1 + 16, invalid: 1, ok: false })
    expect(r.exclusions.map((l) => l.result.ok)).toEqual([true, true, true, true, false])
  })

  it('refuses more than 10,000 entries with one sentence and no per-line results', () => {
    const text = Array.from({ length: 100_000 }, (_, i) => dotted(0x0a000000 + i)).join('\n')
    const r = parseHostList(text)
    expect(r.problem).toBe(
      'The list has 100,000 entries; at most 10,000 fit in one list. Split it into several targets.',
    )
    expect(r).toMatchObject({ ok: false, lines: [], count: 0 })
    const exclusions = parseHostList('10.0.0.1', { exclusions: text })
    expect(exclusions).toMatchObject({ ok: false, count: 1, exclusions: [] })
    expect(exclusions.exclusionsProblem).toContain('100,000 entries')
  })

  it('takes exactly the line cap', () => {
    const text = Array.from({ length: MAX_HOST_LINES }, (_, i) => dotted(0x0a000000 + i * 2))
    const r = parseHostList([...text, '', ''])
    expect(r).toMatchObject({ ok: true, count: MAX_HOST_LINES })
    expect(r.lines).toHaveLength(MAX_HOST_LINES)
  })
})

// ---- properties --------------------------------------------------------------------------------

const ipv4Int = fc.integer({ min: 0, max: 2 ** 32 - 1 })
const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/)
const hostname = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.stringMatching(/^[a-z]{2,6}$/))
  .map(([ls, tld]) => [...ls, tld].join('.'))
const cidr = fc
  .tuple(ipv4Int, fc.integer({ min: 16, max: 32 }))
  .map(([a, p]) => `${dotted(a)}/${p}`)
const range = fc
  .tuple(ipv4Int, fc.integer({ min: 0, max: 65_535 }))
  .filter(([a, n]) => a + n < 2 ** 32)
  .map(([a, n]) => `${dotted(a)}-${dotted(a + n)}`)
const ipv6 = fc.ipV6()
const ipv6Cidr = fc
  .tuple(fc.ipV6(), fc.integer({ min: 112, max: 128 }))
  .map(([a, p]) => `${a}/${p}`)
const anyEntry = fc.oneof(ipv4Int.map(dotted), cidr, range, hostname, ipv6, ipv6Cidr)

describe('properties', () => {
  it('a CIDR block counts as many hosts as its expansion (prefixes /20 to /32)', () => {
    fc.assert(
      fc.property(ipv4Int, fc.integer({ min: 20, max: 32 }), (a, prefix) => {
        const entry = accepted(`${dotted(a)}/${prefix}`)
        const size = 2 ** (32 - prefix)
        const network = a - (a % size)
        // every address of the block, less network and broadcast below /31
        const expected: string[] = []
        for (let i = 0; i < size; i++) {
          if (prefix <= 30 && (i === 0 || i === size - 1)) continue
          expected.push(dotted(network + i))
        }
        expect(entry.count).toBe(expected.length)
        expect(expandHostEntry(entry, size)).toEqual(expected)
        expect(parseHostList([`${dotted(a)}/${prefix}`]).count).toBe(expected.length)
      }),
      { numRuns: 60 },
    )
  })

  it('a range counts end − start + 1 hosts', () => {
    fc.assert(
      fc.property(ipv4Int, fc.integer({ min: 0, max: 65_535 }), (a, n) => {
        fc.pre(a + n < 2 ** 32)
        const entry = accepted(`${dotted(a)}-${dotted(a + n)}`)
        expect(entry.count).toBe(n + 1)
        expect(expandHostEntry(entry, 3)).toEqual(
          [a, a + 1, a + 2].filter((x) => x <= a + n).map(dotted),
        )
      }),
    )
  })

  it('the short range form means the same as the full one', () => {
    fc.assert(
      fc.property(ipv4Int, fc.integer({ min: 0, max: 255 }), (a, last) => {
        fc.pre(last >= a % 256)
        const short = parseHostEntry(`${dotted(a)}-${last}`)
        const full = parseHostEntry(`${dotted(a)}-${dotted(a - (a % 256) + last)}`)
        expect(short).toEqual(full)
      }),
    )
  })

  it('adding exclusions never increases the count', () => {
    const lists = fc.array(anyEntry, { maxLength: 12 })
    fc.assert(
      fc.property(lists, lists, lists, (entries, some, more) => {
        const none = parseHostList(entries)
        const fewer = parseHostList(entries, { exclusions: some })
        const fewest = parseHostList(entries, { exclusions: [...some, ...more] })
        expect(fewer.count).toBeLessThanOrEqual(none.count)
        expect(fewest.count).toBeLessThanOrEqual(fewer.count)
        expect(fewer.count + fewer.excluded).toBe(none.count)
        expect(parseHostList(entries, { exclusions: entries }).count).toBe(0)
      }),
    )
  })

  it('the count of a list is at most the sum of its entries and at least the largest one', () => {
    fc.assert(
      fc.property(fc.array(anyEntry, { minLength: 1, maxLength: 12 }), (entries) => {
        const counts = entries.map((e) => accepted(e).count)
        const { count } = parseHostList(entries)
        expect(count).toBeLessThanOrEqual(counts.reduce((a, b) => a + b, 0))
        expect(count).toBeGreaterThanOrEqual(Math.max(...counts))
        expect(parseHostList([...entries, ...entries]).count).toBe(count)
      }),
    )
  })

  it('a list counts exactly the distinct expanded addresses less the excluded ones', () => {
    // entries crowded into 10.0.0.0/22 so that they overlap often
    const inSpace = fc.integer({ min: 0x0a000000, max: 0x0a0003ff })
    const small = fc.oneof(
      inSpace.map(dotted),
      fc.tuple(inSpace, fc.integer({ min: 24, max: 32 })).map(([a, p]) => `${dotted(a)}/${p}`),
      fc
        .tuple(inSpace, fc.integer({ min: 0, max: 300 }))
        .map(([a, n]) => `${dotted(a)}-${dotted(a + n)}`),
    )
    const expand = (entries: string[]) => {
      const set = new Set<string>()
      for (const e of entries) for (const ip of expandHostEntry(accepted(e), 70_000)) set.add(ip)
      return set
    }
    fc.assert(
      fc.property(
        fc.array(small, { maxLength: 8 }),
        fc.array(small, { maxLength: 4 }),
        (entries, exclusions) => {
          const listed = expand(entries)
          const removed = expand(exclusions)
          const left = [...listed].filter((ip) => !removed.has(ip)).length
          const r = parseHostList(entries, { exclusions })
          expect(r.count).toBe(left)
          expect(r.excluded).toBe(listed.size - left)
        },
      ),
      { numRuns: 80 },
    )
  })

  it('parsing a normalized entry gives the same entry', () => {
    fc.assert(
      fc.property(anyEntry, (text) => {
        const first = accepted(text)
        const again: HostEntryResult = parseHostEntry(first.normalized)
        expect(again).toEqual(first)
      }),
    )
  })

  it('any text is accepted or refused with one sentence that does not start in lower case', () => {
    const noisy = fc.oneof(
      fc.string(),
      fc.stringMatching(/^[0-9a-f.:/-]{0,24}$/),
      anyEntry.map((e) => e.replace(/[0-9]/, '9')),
    )
    fc.assert(
      fc.property(noisy, (text) => {
        const r = parseHostEntry(text)
        if (!r.ok) {
          // the form shows a sentence as it is; a lower-case start would get the field label
          expect(r.problem).toMatch(/^[^a-z].*\.$/s)
        }
      }),
      { numRuns: 300 },
    )
  })
})
