// IPv6 entries of the host syntax: an address and a prefix (a block of at most 65,536 addresses).
import { MIN_IPV6_PREFIX, refuse, withBounds, type HostEntryResult } from './common'
import { ipv4Value } from './ipv4'

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
export function ipv6Value(text: string): bigint | string {
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

/** One IPv6 address. */
export function ipv6Entry(text: string): HostEntryResult {
  const v = ipv6Value(text)
  if (typeof v === 'string') return refuse(v)
  const t = ipv6Text(v)
  return withBounds({ ok: true, kind: 'ipv6', normalized: t, count: 1, first: t, last: t }, v, v)
}

/** An IPv6 prefix (2001:db8::/120). */
export function ipv6CidrEntry(address: string, prefixText: string): HostEntryResult {
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
