import { hash } from './hash'

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/

function ipv4ToInt(ip: string): number | null {
  const m = IPV4.exec(ip)
  if (!m) return null
  const parts = m.slice(1).map(Number)
  if (parts.some((p) => p > 255)) return null
  return ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) >>> 0
}

function intToIpv4(n: number): string {
  return [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.')
}

/** Kind of a target address: an IPv4 address or range, an IPv6 address or range, or a host name. */
export type AddressInfo =
  | { kind: 'ipv4'; base: number; prefix: number }
  | { kind: 'ipv6'; prefix: number }
  | { kind: 'hostname'; name: string }
  | { kind: 'invalid'; reason: string }

/** Parses a target address (`10.0.0.1`, `10.0.0.0/24`, `2001:db8::/120`, `www.example.com`). */
export function parseAddress(address: string): AddressInfo {
  const [ip, prefixText, extra] = address.trim().split('/')
  if (extra !== undefined) return { kind: 'invalid', reason: 'has more than one "/"' }
  if (ip.includes(':')) {
    const prefix = prefixText === undefined ? 128 : Number(prefixText)
    if (!/^[0-9a-fA-F:]+$/.test(ip) || !Number.isInteger(prefix) || prefix < 0 || prefix > 128)
      return { kind: 'invalid', reason: 'is not a valid IPv6 address or range' }
    return { kind: 'ipv6', prefix }
  }
  const n = ipv4ToInt(ip)
  if (n !== null) {
    const prefix = prefixText === undefined ? 32 : Number(prefixText)
    if (!/^\d{1,2}$/.test(prefixText ?? '32') || prefix > 32)
      return { kind: 'invalid', reason: 'has a prefix length outside 0–32' }
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0
    return { kind: 'ipv4', base: (n & mask) >>> 0, prefix }
  }
  if (/^\d+(\.\d+)*$/.test(ip)) return { kind: 'invalid', reason: 'is not a valid IPv4 address' }
  if (prefixText !== undefined)
    return { kind: 'invalid', reason: 'a host name has no prefix length' }
  return { kind: 'hostname', name: ip.toLowerCase() }
}

/** Largest IPv6 range the sandbox counts (/80 = 2^48 addresses); wider ranges are refused. */
export const MIN_IPV6_PREFIX = 80

/**
 * Number of scannable hosts an address covers: 1 for an address or name; for an IPv4 range its
 * usable addresses (network and broadcast excluded below /31); for an IPv6 range 2^(128-prefix).
 * Null when the address is invalid or too wide to count.
 */
export function countHosts(address: string): number | null {
  const info = parseAddress(address)
  switch (info.kind) {
    case 'hostname':
      return 1
    case 'ipv4': {
      const size = 2 ** (32 - info.prefix)
      return info.prefix >= 31 ? size : size - 2
    }
    case 'ipv6':
      return info.prefix < MIN_IPV6_PREFIX ? null : 2 ** (128 - info.prefix)
    default:
      return null
  }
}

/** A host a scan reaches at an address. */
export interface ScannedHost {
  ip: string
  hostname: string | null
}

/** Up to `max` hosts a scan of `address` finds (deterministic: the first live addresses). */
export function hostsOf(address: string, max: number): ScannedHost[] {
  const info = parseAddress(address)
  if (info.kind === 'hostname') {
    const h = hash(info.name)
    return [{ ip: `203.0.113.${(h % 250) + 2}`, hostname: info.name }]
  }
  if (info.kind === 'ipv4') {
    if (info.prefix >= 31) return [{ ip: intToIpv4(info.base), hostname: null }]
    const count = Math.min(max, 2 ** (32 - info.prefix) - 2)
    return Array.from({ length: count }, (_, i) => ({
      ip: intToIpv4(info.base + 1 + i),
      hostname: null,
    }))
  }
  if (info.kind === 'ipv6') {
    const base = address.split('/')[0].replace(/::$/, '::')
    return [{ ip: base.endsWith('::') ? `${base}1` : base, hostname: null }]
  }
  return []
}
