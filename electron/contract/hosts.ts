// Host syntax shared by the renderer (per-line validation in the quick scan and the wizard), the
// catalog's targetAddress schema and the sandbox (host counting). Pure functions, no Node APIs.
//
// One entry is one of:
//   ipv4       192.0.2.10
//   cidr       192.0.2.0/24        (/16 or longer; /31 and /32 count every address, shorter
//                                   prefixes leave out the network and broadcast addresses)
//   range      192.0.2.1-192.0.2.10 or the short form 192.0.2.1-10 (at most 65,536 addresses)
//   hostname   www.example.com     (RFC 1123 labels; lower-cased, a trailing dot dropped)
//   ipv6       2001:db8::1
//   ipv6-cidr  2001:db8::/120      (/112 or longer: at most 65,536 addresses)
// docs/decisions.md ("Host syntax") explains the limits.

/** Shortest IPv4 prefix accepted: a /16 (65,536 addresses). */
export const MIN_IPV4_PREFIX = 16
/** Shortest IPv6 prefix accepted: a /112 (65,536 addresses). */
export const MIN_IPV6_PREFIX = 112
/** Most addresses one dash range may cover (as many as a /16). */
export const MAX_RANGE_SIZE = 65_536
/** Most entries (non-blank lines) one host list may have. */
export const MAX_HOST_LINES = 10_000

/** What an accepted entry is. */
export type HostKind = 'ipv4' | 'cidr' | 'range' | 'hostname' | 'ipv6' | 'ipv6-cidr'

/** An accepted entry: its kind, its canonical text and how many hosts it covers. */
export interface HostEntry {
  ok: true
  kind: HostKind
  /** Canonical text; parsing it again gives the same entry. */
  normalized: string
  /** Hosts the entry covers (the addresses a scan reaches; 1 for a host name). */
  count: number
  /** First and last scanned address (the name itself for a host name). */
  first: string
  last: string
}

/** A refused entry, with one sentence saying why. */
export interface HostProblem {
  ok: false
  problem: string
}

export type HostEntryResult = HostEntry | HostProblem

const fmt = (n: number | bigint): string => n.toLocaleString('en-US')

/** Address bounds of accepted address entries, kept aside so lists need not parse them again. */
const bounds = new WeakMap<HostEntry, [bigint, bigint]>()
/** IPv4 addresses sit above the IPv6 space so one interval list holds both. */
const V4_BASE = BigInt(1) << BigInt(128)

function withBounds(entry: HostEntry, first: bigint, last: bigint): HostEntry {
  bounds.set(entry, [first, last])
  return entry
}
const v4 = (n: number): bigint => V4_BASE + BigInt(n)
const refuse = (problem: string): HostProblem => ({ ok: false, problem })

// ---- IPv4 ------------------------------------------------------------------------------------

/** Dotted text of an IPv4 address held as an unsigned 32-bit integer. */
export function ipv4Text(n: number): string {
  return [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.')
}

/** An IPv4 address as an unsigned integer, or the sentence saying why the text is not one. */
function ipv4Value(text: string): number | string {
  const parts = text.split('.')
  if (parts.length !== 4) {
    return `"${text}" has ${parts.length} part${parts.length === 1 ? '' : 's'}; an IPv4 address has four numbers (0–255) separated by dots.`
  }
  let n = 0
  for (const part of parts) {
    if (part === '') return `"${text}" has an empty part; an IPv4 address has four numbers (0–255).`
    if (!/^\d+$/.test(part)) return `"${part}" is not a number; an IPv4 address has four numbers.`
    if (part.length > 3 || Number(part) > 255) return `${part} is not an octet (0–255).`
    if (part.length > 1 && part.startsWith('0')) {
      return `${part} has a leading zero, which some tools read as octal; write ${Number(part)}.`
    }
    n = n * 256 + Number(part)
  }
  return n
}

function ipv4Entry(text: string): HostEntryResult {
  const v = ipv4Value(text)
  if (typeof v === 'string') return refuse(v)
  const t = ipv4Text(v)
  return withBounds(
    { ok: true, kind: 'ipv4', normalized: t, count: 1, first: t, last: t },
    v4(v),
    v4(v),
  )
}

/** Scanned bounds of an IPv4 block: without network and broadcast below /31. */
function cidrBounds(network: number, prefix: number): [number, number] {
  const size = 2 ** (32 - prefix)
  return prefix >= 31 ? [network, network + size - 1] : [network + 1, network + size - 2]
}

function cidrEntry(address: string, prefixText: string): HostEntryResult {
  if (/^[\d.]+$/.test(address) === false) {
    if (address.includes(':')) return ipv6CidrEntry(address, prefixText)
    return refuse(`A host name cannot have a prefix length (/${prefixText}).`)
  }
  const v = ipv4Value(address)
  if (typeof v === 'string') return refuse(v)
  if (!/^\d{1,3}$/.test(prefixText)) {
    return refuse(`"/${prefixText}" is not a prefix length; IPv4 prefixes are 0–32.`)
  }
  const prefix = Number(prefixText)
  if (prefix > 32) return refuse(`/${prefix} is not a prefix length; IPv4 prefixes are 0–32.`)
  if (prefix === 0) {
    return refuse(`A /0 range covers every address; use /${MIN_IPV4_PREFIX} or longer.`)
  }
  if (prefix < MIN_IPV4_PREFIX) {
    return refuse(
      `A /${prefix} range covers ${fmt(2 ** (32 - prefix))} addresses; use /${MIN_IPV4_PREFIX} or longer.`,
    )
  }
  const size = 2 ** (32 - prefix)
  const network = v - (v % size)
  const [first, last] = cidrBounds(network, prefix)
  return withBounds(
    {
      ok: true,
      kind: 'cidr',
      normalized: `${ipv4Text(network)}/${prefix}`,
      count: last - first + 1,
      first: ipv4Text(first),
      last: ipv4Text(last),
    },
    v4(first),
    v4(last),
  )
}

function rangeEntry(startText: string, endText: string): HostEntryResult {
  if (startText === '') return refuse('The range has no start address before "-".')
  if (endText === '') return refuse('The range has no end address after "-".')
  const start = ipv4Value(startText)
  if (typeof start === 'string') return refuse(start)
  let end: number
  if (endText.includes('.')) {
    const e = ipv4Value(endText)
    if (typeof e === 'string') return refuse(e)
    end = e
  } else {
    if (endText.length > 3 || Number(endText) > 255) {
      return refuse(`${endText} is not an octet (0–255).`)
    }
    if (endText.length > 1 && endText.startsWith('0')) {
      return refuse(
        `${endText} has a leading zero, which some tools read as octal; write ${Number(endText)}.`,
      )
    }
    end = start - (start % 256) + Number(endText)
  }
  if (end < start) {
    return refuse(
      `The range ends at ${ipv4Text(end)}, before it starts at ${ipv4Text(start)}; put the lower address first.`,
    )
  }
  const count = end - start + 1
  if (count > MAX_RANGE_SIZE) {
    return refuse(
      `This range covers ${fmt(count)} addresses; a range can cover at most ${fmt(MAX_RANGE_SIZE)} (a /16).`,
    )
  }
  const first = ipv4Text(start)
  const last = ipv4Text(end)
  return withBounds(
    { ok: true, kind: 'range', normalized: `${first}-${last}`, count, first, last },
    v4(start),
    v4(end),
  )
}

// ---- IPv6 ------------------------------------------------------------------------------------

const IPV6_BITS = BigInt(128)
const IPV6_MAX = (BigInt(1) << IPV6_BITS) - BigInt(1)

/** RFC 5952 text of an IPv6 address held as a 128-bit integer (lower case, longest zero run ::). */
export function ipv6Text(v: bigint): string {
  const groups: number[] = []
  for (let i = 7; i >= 0; i--) groups.push(Number((v >> BigInt(i * 16)) & BigInt(0xffff)))
  let bestAt = -1
  let bestLen = 1
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > bestLen) {
      bestAt = i
      bestLen = j - i
    }
    i = j
  }
  const hex = (gs: number[]) => gs.map((g) => g.toString(16)).join(':')
  if (bestAt < 0) return hex(groups)
  return `${hex(groups.slice(0, bestAt))}::${hex(groups.slice(bestAt + bestLen))}`
}

/** An IPv6 address as a 128-bit integer, or the sentence saying why the text is not one. */
function ipv6Value(text: string): bigint | string {
  if (text.includes('%')) return 'Zone indexes (%eth0) are not supported; give the address alone.'
  const halves = text.split('::')
  if (halves.length > 2) return `"${text}" uses "::" more than once.`
  const groupsOf = (s: string): string[] => (s === '' ? [] : s.split(':'))
  // An IPv4 tail (::ffff:192.0.2.1) stands for the last two groups; only the last group written.
  const valuesOf = (gs: string[], tailAllowed: boolean): number[] | string => {
    const values: number[] = []
    for (let i = 0; i < gs.length; i++) {
      const g = gs[i]
      if (g.includes('.') && tailAllowed && i === gs.length - 1) {
        const v4 = ipv4Value(g)
        if (typeof v4 === 'string') return v4
        values.push(Math.floor(v4 / 65_536), v4 % 65_536)
        continue
      }
      if (g.includes('.')) return `"${g}": an IPv4 part can only come last in an IPv6 address.`
      if (g === '') return `"${text}" has an empty group; use "::" once for a run of zero groups.`
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return `"${g}" is not an IPv6 group (1–4 hex digits).`
      values.push(parseInt(g, 16))
    }
    return values
  }
  const compressed = halves.length === 2
  const head = valuesOf(groupsOf(halves[0]), !compressed)
  if (typeof head === 'string') return head
  const tail = compressed ? valuesOf(groupsOf(halves[1]), true) : []
  if (typeof tail === 'string') return tail
  const written = head.length + tail.length
  if (!compressed && written !== 8) {
    return `"${text}" has ${written} groups; an IPv6 address has 8 (or uses "::" for zeros).`
  }
  if (compressed && written > 7) return `"${text}" has too many groups for "::" to stand for any.`
  const groups = [...head, ...new Array<number>(8 - written).fill(0), ...tail]
  return groups.reduce((acc, g) => (acc << BigInt(16)) | BigInt(g), BigInt(0))
}

function ipv6Entry(text: string): HostEntryResult {
  const v = ipv6Value(text)
  if (typeof v === 'string') return refuse(v)
  const t = ipv6Text(v)
  return withBounds({ ok: true, kind: 'ipv6', normalized: t, count: 1, first: t, last: t }, v, v)
}

function ipv6CidrEntry(address: string, prefixText: string): HostEntryResult {
  const v = ipv6Value(address)
  if (typeof v === 'string') return refuse(v)
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > 128) {
    return refuse(`"/${prefixText}" is not a prefix length; IPv6 prefixes are 0–128.`)
  }
  const prefix = Number(prefixText)
  if (prefix === 0) {
    return refuse(`A /0 range covers every address; use /${MIN_IPV6_PREFIX} or longer.`)
  }
  if (prefix < MIN_IPV6_PREFIX) {
    return refuse(
      `A /${prefix} IPv6 range covers 2^${128 - prefix} addresses, too many to scan one by one; use /${MIN_IPV6_PREFIX} or longer, or list the addresses.`,
    )
  }
  const hostBits = BigInt(128 - prefix)
  const size = BigInt(1) << hostBits
  const network = v & (IPV6_MAX ^ (size - BigInt(1)))
  return withBounds(
    {
      ok: true,
      kind: 'ipv6-cidr',
      normalized: `${ipv6Text(network)}/${prefix}`,
      count: Number(size),
      first: ipv6Text(network),
      last: ipv6Text(network + size - BigInt(1)),
    },
    network,
    network + size - BigInt(1),
  )
}

// ---- host names ------------------------------------------------------------------------------

function hostnameEntry(text: string): HostEntryResult {
  const name = text.endsWith('.') && !text.endsWith('..') ? text.slice(0, -1) : text
  if (name.length > 253) {
    return refuse(`A host name has at most 253 characters; this one has ${fmt(name.length)}.`)
  }
  const bad = /[^A-Za-z0-9.-]/.exec(name)
  if (bad) {
    return refuse(
      `"${bad[0]}" is not allowed in a host name (letters, digits, hyphens and dots only).`,
    )
  }
  const labels = name.split('.')
  if (labels.some((l) => l === '')) {
    return refuse(`"${text}" has an empty label (a dot at the start or two dots in a row).`)
  }
  for (const label of labels) {
    if (label.length > 63) {
      return refuse(
        `The label "${label.slice(0, 20)}…" is ${label.length} characters long; at most 63.`,
      )
    }
    if (label.startsWith('-') || label.endsWith('-')) {
      return refuse(`The label "${label}" starts or ends with a hyphen.`)
    }
  }
  const top = labels[labels.length - 1]
  if (/^\d+$/.test(top)) {
    return refuse(
      `"${text}" is neither an IPv4 address nor a host name (its last label is a number).`,
    )
  }
  const normalized = name.toLowerCase()
  return {
    ok: true,
    kind: 'hostname',
    normalized,
    count: 1,
    first: normalized,
    last: normalized,
  }
}

// ---- one entry -------------------------------------------------------------------------------

/**
 * Parses one entry (one line of a host list): an IPv4 address, a CIDR block, a dash range, a
 * host name, an IPv6 address or an IPv6 prefix. Refusals carry one sentence saying why.
 */
export function parseHostEntry(input: string): HostEntryResult {
  const text = input.trim()
  if (text === '') {
    return refuse('Enter an IP address, a CIDR block, an address range or a host name.')
  }
  const sep = /[\s,;]/.exec(text)
  if (sep) {
    const what = sep[0] === ',' ? 'a comma' : sep[0] === ';' ? 'a semicolon' : 'a space'
    return refuse(`Give one address, range or host name per entry; this one contains ${what}.`)
  }
  const slash = text.split('/')
  if (slash.length > 2) return refuse(`"${text}" has more than one "/".`)
  if (slash.length === 2) return cidrEntry(slash[0], slash[1])
  if (text.includes(':')) {
    if (text.includes('-')) {
      return refuse('IPv6 ranges are written as a prefix (2001:db8::/120), not with "-".')
    }
    return ipv6Entry(text)
  }
  const dash = /^([\d.]*)-([\d.]*)$/.exec(text)
  if (dash && /\d/.test(text)) return rangeEntry(dash[1], dash[2])
  if (/^[\d.]+$/.test(text)) return ipv4Entry(text)
  return hostnameEntry(text)
}

/**
 * The first `max` addresses an entry covers (a host name: itself), in order. The sandbox's scans
 * reach these; tests compare them with the count.
 */
export function expandHostEntry(entry: HostEntry, max: number): string[] {
  const out: string[] = []
  if (entry.kind === 'hostname') return max > 0 ? [entry.normalized] : []
  if (entry.kind === 'ipv6' || entry.kind === 'ipv6-cidr') {
    let v = ipv6Value(entry.first) as bigint
    for (let i = 0; i < Math.min(max, entry.count); i++, v++) out.push(ipv6Text(v))
    return out
  }
  const first = ipv4Value(entry.first) as number
  for (let i = 0; i < Math.min(max, entry.count); i++) out.push(ipv4Text(first + i))
  return out
}

// ---- lists -----------------------------------------------------------------------------------

/** One non-blank line of a host list. */
export interface HostLine {
  /** 1-based line number in the pasted text. */
  line: number
  text: string
  result: HostEntryResult
  /** Set when an earlier line has the same normalized entry: that line's number. */
  duplicateOf?: number
}

/** What a host list holds: each line checked, and the distinct hosts it covers. */
export interface HostListResult {
  /** True when every line (of the list and of the exclusions) is accepted and neither is too long. */
  ok: boolean
  /** A problem of the whole list (too many lines); then `lines` is empty. */
  problem?: string
  /** A problem of the whole exclusion list; then `exclusions` is empty. */
  exclusionsProblem?: string
  lines: HostLine[]
  exclusions: HostLine[]
  /** Distinct hosts of the accepted lines, overlaps counted once, excluded hosts left out. */
  count: number
  /** Hosts of the list that the exclusions removed. */
  excluded: number
  /** Lines flagged as duplicates of an earlier line. */
  duplicates: number
  /** Lines refused (list and exclusions). */
  invalid: number
}

export interface HostListOptions {
  /** Exclusions: text with one entry per line, or the entries. */
  exclusions?: string | readonly string[]
  /** Most entries per list (default MAX_HOST_LINES). */
  maxLines?: number
}

type Interval = [bigint, bigint]

const ONE = BigInt(1)
const ZERO = BigInt(0)

/** Sorted, disjoint intervals; overlapping and adjacent ones merged. */
function mergeIntervals(items: Interval[]): Interval[] {
  const sorted = [...items].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  const out: Interval[] = []
  for (const [s, e] of sorted) {
    const last = out[out.length - 1]
    if (last && s <= last[1] + ONE) {
      if (e > last[1]) last[1] = e
    } else {
      out.push([s, e])
    }
  }
  return out
}

/** Size of the intersection of two merged (sorted, disjoint) interval lists. */
function overlap(a: Interval[], b: Interval[]): bigint {
  let total = ZERO
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    const s = a[i][0] > b[j][0] ? a[i][0] : b[j][0]
    const e = a[i][1] < b[j][1] ? a[i][1] : b[j][1]
    if (s <= e) total += e - s + ONE
    if (a[i][1] < b[j][1]) i++
    else j++
  }
  return total
}

const sizeOf = (items: Interval[]): bigint => items.reduce((n, [s, e]) => n + e - s + ONE, ZERO)

interface HostSet {
  addresses: Interval[]
  names: Set<string>
}

function hostSetOf(lines: HostLine[]): HostSet {
  const addresses: Interval[] = []
  const names = new Set<string>()
  for (const { result: r } of lines) {
    if (!r.ok) continue
    const b = bounds.get(r)
    if (r.kind === 'hostname' || !b) names.add(r.normalized)
    else addresses.push([b[0], b[1]])
  }
  return { addresses: mergeIntervals(addresses), names }
}

function checkLines(
  text: string | readonly string[],
  max: number,
): { lines: HostLine[]; problem?: string } {
  const raw = typeof text === 'string' ? text.split(/\r\n|\r|\n/) : text
  let entries = 0
  for (const l of raw) if (l.trim() !== '') entries++
  if (entries > max) {
    return {
      lines: [],
      problem: `The list has ${fmt(entries)} entries; at most ${fmt(max)} fit in one list. Split it into several targets.`,
    }
  }
  const seen = new Map<string, number>()
  const lines: HostLine[] = []
  raw.forEach((l, i) => {
    if (l.trim() === '') return
    const result = parseHostEntry(l)
    const line: HostLine = { line: i + 1, text: l.trim(), result }
    if (result.ok) {
      const earlier = seen.get(result.normalized)
      if (earlier !== undefined) line.duplicateOf = earlier
      else seen.set(result.normalized, i + 1)
    }
    lines.push(line)
  })
  return { lines }
}

/**
 * Checks a host list (one entry per line; blank lines skipped) and counts the distinct hosts it
 * covers: addresses as integers, overlapping blocks and ranges merged, host names by name, the
 * exclusions' hosts subtracted (so exclusions never raise the count). More than `maxLines`
 * entries gives one list-level problem and no per-line results.
 */
export function parseHostList(
  text: string | readonly string[],
  options: HostListOptions = {},
): HostListResult {
  const max = options.maxLines ?? MAX_HOST_LINES
  const list = checkLines(text, max)
  const excl =
    options.exclusions === undefined ? { lines: [] } : checkLines(options.exclusions, max)
  const inc = hostSetOf(list.lines)
  const exc = hostSetOf(excl.lines)
  let removedNames = 0
  for (const n of exc.names) if (inc.names.has(n)) removedNames++
  const total = Number(sizeOf(inc.addresses)) + inc.names.size
  const excluded = Number(overlap(inc.addresses, exc.addresses)) + removedNames
  const invalid = [...list.lines, ...excl.lines].filter((l) => !l.result.ok).length
  const result: HostListResult = {
    ok: invalid === 0 && !list.problem && !excl.problem,
    lines: list.lines,
    exclusions: excl.lines,
    count: total - excluded,
    excluded,
    duplicates: list.lines.filter((l) => l.duplicateOf !== undefined).length,
    invalid,
  }
  if (list.problem) result.problem = list.problem
  if (excl.problem) result.exclusionsProblem = excl.problem
  return result
}
