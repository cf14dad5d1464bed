// IPv4 entries of the host syntax: an address, a CIDR block and a dash range.
import {
  MAX_RANGE_SIZE,
  MIN_IPV4_PREFIX,
  fmt,
  refuse,
  v4,
  withBounds,
  type HostEntry,
  type HostEntryResult,
} from './common'
import type { Ipv4Interval } from './intervals'

/** Dotted text of an IPv4 address held as an unsigned 32-bit integer. */
export function ipv4Text(n: number): string {
  return [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.')
}

/** An IPv4 address as an unsigned integer, or the sentence saying why the text is not one. */
export function ipv4Value(text: string): number | string {
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

/** One IPv4 address. */
export function ipv4Entry(text: string): HostEntryResult {
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
function cidrBounds(network: number, prefix: number): Ipv4Interval {
  const size = 2 ** (32 - prefix)
  return prefix >= 31 ? [network, network + size - 1] : [network + 1, network + size - 2]
}

/** An IPv4 CIDR block (`address` holds digits and dots only, else it is a host name). */
export function cidrEntry(address: string, prefixText: string): HostEntryResult {
  if (/^[\d.]+$/.test(address) === false) {
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

/** A dash range: 192.0.2.1-192.0.2.10 or the short form 192.0.2.1-10. */
export function rangeEntry(startText: string, endText: string): HostEntryResult {
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

/**
 * The IPv4 addresses an accepted entry covers, as one interval (null: a host name or IPv6). A
 * block's scanned addresses leave out its network and broadcast addresses; with `whole` (what an
 * exclusion removes) they are in.
 */
export function ipv4Interval(entry: HostEntry, whole = false): Ipv4Interval | null {
  if (entry.kind === 'cidr' && whole) {
    const [network, prefix] = entry.normalized.split('/')
    const start = ipv4Value(network) as number
    return [start, start + 2 ** (32 - Number(prefix)) - 1]
  }
  if (entry.kind !== 'ipv4' && entry.kind !== 'cidr' && entry.kind !== 'range') return null
  return [ipv4Value(entry.first) as number, ipv4Value(entry.last) as number]
}

/** An IPv4 interval as an entry of the host syntax: one address or a dash range. */
export function ipv4IntervalText([start, end]: Ipv4Interval): string {
  return start === end ? ipv4Text(start) : `${ipv4Text(start)}-${ipv4Text(end)}`
}
