// How the rules of an asset context match an asset (issue 37 §2): address ranges (CIDR, IPv4 and
// IPv6) and host-name patterns (globs). Pure and shared by main and the renderer, so the screens
// say exactly what main resolves. docs/decisions.md "Fix first: asset context".

/** An address as a number of its family: 32 bits for IPv4, 128 for IPv6. */
export interface ParsedAddress {
  family: 4 | 6
  value: bigint
}

/** An address range: every address whose first `prefix` bits are those of `network`. */
export interface ParsedRange {
  family: 4 | 6
  network: bigint
  prefix: number
}

const BITS = { 4: 32, 6: 128 } as const

function parseV4(text: string): bigint | null {
  const parts = text.split('.')
  if (parts.length !== 4) return null
  let value = 0n
  for (const p of parts) {
    // No leading zeros: "010" is octal to some tools and decimal to others.
    if (!/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255) return null
    value = (value << 8n) | BigInt(p)
  }
  return value
}

function parseV6(text: string): bigint | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || text.length > 45) return null
  let head = text
  let tail: bigint[] = []
  // An IPv4 dotted tail (::ffff:192.0.2.1) stands for the last two groups.
  const lastColon = text.lastIndexOf(':')
  if (text.includes('.')) {
    const v4 = parseV4(text.slice(lastColon + 1))
    if (v4 === null) return null
    tail = [v4 >> 16n, v4 & 0xffffn]
    head = text.slice(0, lastColon + 1)
    // "::ffff:" keeps its "::"; "64:ff9b:1::" too; "1:2:3:4:5:6:" drops the last ":".
    if (!head.endsWith('::')) head = head.slice(0, -1)
  }
  const halves = head.split('::')
  if (halves.length > 2) return null
  const groups = (s: string): bigint[] | null => {
    if (s === '') return []
    const out: bigint[] = []
    for (const g of s.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null
      out.push(BigInt(`0x${g}`))
    }
    return out
  }
  const left = groups(halves[0]!)
  const right = halves.length === 2 ? groups(halves[1]!) : []
  if (!left || !right) return null
  const given = left.length + right.length + tail.length
  let all: bigint[]
  if (halves.length === 2) {
    if (given > 7) return null
    all = [...left, ...Array<bigint>(8 - given).fill(0n), ...right, ...tail]
  } else {
    if (given !== 8) return null
    all = [...left, ...tail]
  }
  return all.reduce((acc, g) => (acc << 16n) | g, 0n)
}

/** An IPv4 or IPv6 address (no zone, no brackets), or null. */
export function parseAddress(text: string): ParsedAddress | null {
  const t = text.trim()
  if (t.includes(':')) {
    const value = parseV6(t)
    return value === null ? null : { family: 6, value }
  }
  const value = parseV4(t)
  return value === null ? null : { family: 4, value }
}

/** Why a range's text is not a range, or its range. A bare address is the range of itself. */
export function parseRange(text: string): { range: ParsedRange } | { problem: string } {
  const t = text.trim()
  const [addr, prefixText, extra] = t.split('/')
  if (extra !== undefined) return { problem: 'has more than one "/"' }
  const address = parseAddress(addr ?? '')
  if (!address)
    return { problem: 'is not an IPv4 or IPv6 address or range (10.0.0.0/8, 2001:db8::/32)' }
  const bits: number = BITS[address.family]
  let prefix: number = bits
  if (prefixText !== undefined) {
    if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits)
      return { problem: `has a prefix length that is not 0 to ${bits}` }
    prefix = Number(prefixText)
  }
  const hostBits = BigInt(bits - prefix)
  const network = (address.value >> hostBits) << hostBits
  if (network !== address.value)
    return {
      problem: `has bits set past its /${prefix}: the range is ${formatAddress({ family: address.family, value: network })}/${prefix}`,
    }
  return { range: { family: address.family, network, prefix } }
}

/** An address in its usual text (IPv6 with the longest run of zero groups as "::"). */
export function formatAddress(a: ParsedAddress): string {
  if (a.family === 4) return [24n, 16n, 8n, 0n].map((s) => String((a.value >> s) & 0xffn)).join('.')
  const groups = Array.from({ length: 8 }, (_, i) => (a.value >> BigInt(112 - 16 * i)) & 0xffffn)
  let best = { at: -1, len: 0 }
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0n) {
      i++
      continue
    }
    let j = i
    while (j < 8 && groups[j] === 0n) j++
    if (j - i > best.len && j - i > 1) best = { at: i, len: j - i }
    i = j
  }
  const hex = groups.map((g) => g.toString(16))
  if (best.at < 0) return hex.join(':')
  return `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.len).join(':')}`
}

/** Whether `address` lies in `range` (an IPv4 range never matches an IPv6 address, nor back). */
export function rangeContains(range: ParsedRange, address: ParsedAddress): boolean {
  if (range.family !== address.family) return false
  const hostBits = BigInt(BITS[range.family] - range.prefix)
  return address.value >> hostBits === range.network >> hostBits
}

/** Whether every address of `inner` lies in `outer` (a target that is itself a range). */
export function rangeWithin(outer: ParsedRange, inner: ParsedRange): boolean {
  return (
    outer.family === inner.family &&
    inner.prefix >= outer.prefix &&
    rangeContains(outer, { family: inner.family, value: inner.network })
  )
}

/** A host-name pattern's characters: letters, digits, "-", ".", "_" and the wildcards "*", "?". */
const PATTERN = /^[A-Za-z0-9*?._-]+$/

/** Why a host-name pattern is not one, or null. */
export function patternProblem(pattern: string): string | null {
  const p = pattern.trim()
  if (!p) return 'is empty'
  if (p.length > 253) return 'is longer than a host name can be (253 characters)'
  if (!PATTERN.test(p))
    return 'may hold only letters, digits, "-", ".", "_" and the wildcards "*" and "?"'
  if (/^\*+$/.test(p)) return 'matches every host name: use a tag or a range instead'
  return null
}

/**
 * Whether host name `name` matches glob `pattern`, case-insensitively and whole: "*" stands for
 * any run of characters, dots included (so *.pay.example.com matches a.pay.example.com and
 * a.b.pay.example.com, not pay.example.com itself); "?" for one character. A trailing dot of a
 * fully qualified name is ignored on both sides.
 */
export function nameMatches(pattern: string, name: string): boolean {
  const p = pattern.trim().toLowerCase().replace(/\.$/, '')
  const n = name.trim().toLowerCase().replace(/\.$/, '')
  if (!n) return false
  // Iterative glob with backtracking to the last "*": linear in practice, never exponential.
  let pi = 0
  let ni = 0
  let star = -1
  let mark = 0
  while (ni < n.length) {
    if (pi < p.length && (p[pi] === '?' || p[pi] === n[ni])) {
      pi++
      ni++
    } else if (pi < p.length && p[pi] === '*') {
      star = pi++
      mark = ni
    } else if (star >= 0) {
      pi = star + 1
      ni = ++mark
    } else return false
  }
  while (pi < p.length && p[pi] === '*') pi++
  return pi === p.length
}
