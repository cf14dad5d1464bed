// One entry of a host list: which kind it is, parsed by that kind's rules; and the addresses it
// covers.
import { refuse, type HostEntry, type HostEntryResult } from './common'
import { hostnameEntry } from './hostname'
import { cidrEntry, ipv4Entry, ipv4Text, ipv4Value, rangeEntry } from './ipv4'
import { ipv6CidrEntry, ipv6Entry, ipv6Text, ipv6Value } from './ipv6'

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
  if (slash.length === 2) {
    const [address, prefix] = slash
    return address.includes(':') ? ipv6CidrEntry(address, prefix) : cidrEntry(address, prefix)
  }
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
