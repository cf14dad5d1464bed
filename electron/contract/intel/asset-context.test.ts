import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  assetRule,
  parseAssetFile,
  resolveAssetContext,
  ruleMatches,
  sourceText,
  type AssetContextDocument,
  type AssetRule,
} from './asset-context'
import { formatAddress, nameMatches, parseAddress, parseRange, rangeContains } from './asset-match'
import { CRITICALITIES, EXPOSURES } from './priority'

const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((p) => p.join('.'))
const v6 = fc
  .array(fc.nat(0xffff), { minLength: 8, maxLength: 8 })
  .map((g) => g.map((n) => n.toString(16)).join(':'))
const context = fc.record(
  {
    criticality: fc.constantFrom(...CRITICALITIES),
    exposure: fc.constantFrom(...EXPOSURES),
    owner: fc.constantFrom('Payments', 'IT', 'Platform team'),
  },
  { requiredKeys: [] },
)
const someContext = context.filter((c) => Object.keys(c).length > 0)
/** Rules of any kind, each matching or not the asset below. */
const rule: fc.Arbitrary<AssetRule> = fc
  .tuple(
    fc.oneof(
      fc.constantFrom('10.0.0.0/8', '192.0.2.0/24', '0.0.0.0/0', '2001:db8::/32', '10.1.2.3'),
      fc.constantFrom('*.pay.example.com', 'www?.example.com', 'db-*'),
      fc.constantFrom('pci', 'dmz', 'internal'),
    ),
    someContext,
  )
  .map(([m, c]) => ({
    match:
      m.includes('/') || /^\d/.test(m)
        ? { kind: 'range' as const, range: m }
        : m.includes('.') || m.includes('*')
          ? { kind: 'name' as const, pattern: m }
          : { kind: 'tag' as const, tag: m },
    ...c,
  }))
const facts = fc.record({
  targetId: fc.constantFrom('tgt-001', 'tgt-002'),
  hostAddress: fc.oneof(v4, fc.constantFrom('10.1.2.3', '192.0.2.9', '2001:db8::5')),
  hostName: fc.constantFrom('a.pay.example.com', 'www1.example.com', 'db-7', 'mail.example.org'),
  tags: fc.subarray(['pci', 'dmz', 'internal', 'staging']),
})

describe('the asset-context resolver', () => {
  it('an explicit host setting wins over the target and every rule, field by field', () => {
    fc.assert(
      fc.property(facts, someContext, context, fc.array(rule), (f, host, target, rules) => {
        const address = formatAddress(parseAddress(f.hostAddress)!)
        const doc: AssetContextDocument = {
          rules,
          targets: { [f.targetId]: target },
          hosts: { [address]: host },
        }
        const got = resolveAssetContext(doc, f)
        for (const [field, value] of Object.entries(host)) {
          const r = got[field as keyof typeof got]!
          expect(r.value).toBe(value)
          expect(r.source).toEqual({ kind: 'host', address })
        }
        for (const [field, value] of Object.entries(target))
          if (!(field in host)) expect(got[field as keyof typeof got]!.value).toBe(value)
      }),
    )
  })

  it('each field comes from the first matching rule that sets it, in the user’s order', () => {
    fc.assert(
      fc.property(facts, fc.array(rule, { maxLength: 8 }), (f, rules) => {
        const got = resolveAssetContext({ rules, targets: {}, hosts: {} }, f)
        for (const field of ['criticality', 'exposure', 'owner'] as const) {
          const first = rules.findIndex((r) => r[field] !== undefined && ruleMatches(r, f))
          if (first < 0) expect(got[field]).toBeUndefined()
          else {
            expect(got[field]!.value).toBe(rules[first]![field])
            expect(got[field]!.source).toMatchObject({ kind: 'rule', index: first })
          }
        }
      }),
    )
  })

  it('reversing the rules changes only fields that two matching rules set differently', () => {
    fc.assert(
      fc.property(facts, fc.array(rule, { maxLength: 6 }), (f, rules) => {
        const a = resolveAssetContext({ rules, targets: {}, hosts: {} }, f)
        const b = resolveAssetContext({ rules: [...rules].reverse(), targets: {}, hosts: {} }, f)
        for (const field of ['criticality', 'exposure', 'owner'] as const) {
          const values = new Set(
            rules.filter((r) => r[field] !== undefined && ruleMatches(r, f)).map((r) => r[field]),
          )
          if (values.size <= 1) expect(a[field]?.value).toBe(b[field]?.value)
        }
      }),
    )
  })

  it('an asset nothing speaks of is unknown in every field', () => {
    expect(resolveAssetContext({ rules: [], targets: {}, hosts: {} }, { targetId: 'x' })).toEqual(
      {},
    )
  })

  it('says where each value came from', () => {
    const rules: AssetRule[] = [
      { match: { kind: 'tag', tag: 'PCI' }, owner: 'Payments' },
      { match: { kind: 'range', range: '10.0.0.0/8' }, criticality: 'high', owner: 'IT' },
    ]
    const got = resolveAssetContext(
      { rules, targets: { 't-1': { exposure: 'internal' } }, hosts: {} },
      { targetId: 't-1', hostAddress: '10.9.8.7', tags: ['pci'] },
    )
    expect(sourceText(got.owner!.source, 'target')).toBe('by rule 1: tag PCI')
    expect(sourceText(got.criticality!.source, 'host')).toBe('by rule 2: 10.0.0.0/8')
    expect(sourceText(got.exposure!.source, 'target')).toBe('set here')
    expect(sourceText(got.exposure!.source, 'host')).toBe('set on the target')
    expect(got.owner!.value).toBe('Payments')
  })
})

describe('address ranges', () => {
  it('an IPv4 /n range holds exactly the addresses that share its first n bits', () => {
    fc.assert(
      fc.property(v4, v4, fc.integer({ min: 0, max: 32 }), (base, probe, prefix) => {
        const b = parseAddress(base)!.value
        const mask = prefix === 0 ? 0n : ((1n << BigInt(prefix)) - 1n) << BigInt(32 - prefix)
        const net = formatAddress({ family: 4, value: b & mask })
        const r = parseRange(`${net}/${prefix}`)
        if (!('range' in r)) throw new Error(r.problem)
        const p = parseAddress(probe)!.value
        expect(rangeContains(r.range, { family: 4, value: p })).toBe((p & mask) === (b & mask))
      }),
    )
  })

  it('an IPv6 range holds exactly its addresses; the families never mix', () => {
    fc.assert(
      fc.property(v6, v6, fc.integer({ min: 0, max: 128 }), (base, probe, prefix) => {
        const b = parseAddress(base)!.value
        const host = BigInt(128 - prefix)
        const net = formatAddress({ family: 6, value: (b >> host) << host })
        const r = parseRange(`${net}/${prefix}`)
        if (!('range' in r)) throw new Error(r.problem)
        const p = parseAddress(probe)!
        expect(rangeContains(r.range, p)).toBe(p.value >> host === b >> host)
        expect(rangeContains(r.range, { family: 4, value: p.value & 0xffffffffn })).toBe(false)
      }),
    )
  })

  it('reads IPv6 in its short forms and writes it back the usual way', () => {
    expect(formatAddress(parseAddress('2001:0db8:0:0:0:0:0:1')!)).toBe('2001:db8::1')
    expect(parseAddress('::ffff:192.0.2.1')!.value).toBe(0xffffc0000201n)
    expect(parseAddress('::')!.value).toBe(0n)
    expect(parseAddress('1::2::3')).toBeNull()
    expect(parseAddress('10.0.0.256')).toBeNull()
    expect(parseAddress('010.0.0.1')).toBeNull()
  })

  it('refuses a range with host bits set, naming the range meant', () => {
    expect(parseRange('10.1.2.3/8')).toEqual({
      problem: 'has bits set past its /8: the range is 10.0.0.0/8',
    })
    expect(parseRange('10.0.0.0/33')).toMatchObject({ problem: expect.stringMatching(/0 to 32/) })
  })

  it('a target that is a range matches a rule only when the whole range lies inside it', () => {
    const r: AssetRule = { match: { kind: 'range', range: '10.5.0.0/16' }, criticality: 'low' }
    expect(ruleMatches(r, { targetAddress: '10.5.0.0/29' })).toBe(true)
    expect(ruleMatches(r, { targetAddress: '10.0.0.0/8' })).toBe(false)
    expect(ruleMatches(r, { targetAddress: '10.5.3.4' })).toBe(true)
  })
})

describe('host-name patterns', () => {
  it('match whole names, case-insensitively; "*" spans dots, "?" one character', () => {
    expect(nameMatches('*.pay.example.com', 'API.Pay.Example.COM')).toBe(true)
    expect(nameMatches('*.pay.example.com', 'a.b.pay.example.com.')).toBe(true)
    expect(nameMatches('*.pay.example.com', 'pay.example.com')).toBe(false)
    expect(nameMatches('*.pay.example.com', 'x.pay.example.com.evil.test')).toBe(false)
    expect(nameMatches('www?.example.com', 'www1.example.com')).toBe(true)
    expect(nameMatches('www?.example.com', 'www12.example.com')).toBe(false)
  })

  it('a pattern without wildcards matches only its own name, in any case', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9-]{1,10}(\.[a-z0-9-]{1,10}){0,3}$/), (name) => {
        expect(nameMatches(name.toUpperCase(), name)).toBe(true)
        expect(nameMatches(name, `${name}x`)).toBe(false)
        expect(nameMatches(`*${name}`, `any.${name}`)).toBe(true)
      }),
    )
  })

  it('refuses a rule that matches every name or sets nothing, with the field named', () => {
    const bad = assetRule.safeParse({ match: { kind: 'name', pattern: '*' }, owner: 'x' })
    expect(bad.success).toBe(false)
    expect(bad.error!.issues[0]!.path).toEqual(['match', 'pattern'])
    expect(assetRule.safeParse({ match: { kind: 'tag', tag: 'pci' } }).success).toBe(false)
  })
})

describe('the asset-context file', () => {
  const good = {
    scandeskAssetContext: 1,
    rules: [{ match: { kind: 'range', range: '2001:db8::/32' }, exposure: 'internal' }],
    targets: { 'tgt-001': { criticality: 'crown-jewel', owner: 'Payments' } },
    hosts: { '2001:0db8::0001': { owner: 'Ops' } },
  }
  it('reads a good file, host addresses in their usual text', () => {
    const r = parseAssetFile(JSON.stringify(good, null, 2))
    expect(r).toMatchObject({ ok: true, file: { hosts: { '2001:db8::1': { owner: 'Ops' } } } })
  })
  it('names the field of the first problem', () => {
    const bad = structuredClone(good) as Record<string, unknown>
    ;(bad.rules as { match: { range: string } }[])[0]!.match.range = '10.0.0.0/99'
    expect(parseAssetFile(JSON.stringify(bad))).toEqual({
      ok: false,
      message:
        'rules[0].match.range has a prefix length that is not 0 to 32. Nothing was imported.',
    })
    const version = parseAssetFile(JSON.stringify({ ...good, scandeskAssetContext: 2 }))
    expect(version).toMatchObject({
      message: expect.stringMatching(/^scandeskAssetContext must be 1/),
    })
    const extra = parseAssetFile(JSON.stringify({ ...good, more: true }))
    expect(extra).toMatchObject({ ok: false, message: expect.stringContaining('more') })
  })
  it('names the line of a JSON syntax error', () => {
    const text = JSON.stringify(good, null, 2).replace('"exposure"', 'exposure')
    const r = parseAssetFile(text)
    const line = text.split('\n').findIndex((l) => l.includes('exposure')) + 1
    expect(r).toEqual({
      ok: false,
      message: `The file is not valid JSON at line ${line}. Nothing was imported.`,
    })
  })
})
