// What every part of the host syntax shares: the limits, the entry types, refusals, and the
// address bounds of accepted entries.

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

/** One entry parsed: accepted or refused. */
export type HostEntryResult = HostEntry | HostProblem

/** A number written for people (65,536). */
export const fmt = (n: number | bigint): string => n.toLocaleString('en-US')

/** A refusal saying why. */
export const refuse = (problem: string): HostProblem => ({ ok: false, problem })

/** Address bounds of accepted address entries, kept aside so lists need not parse them again. */
const bounds = new WeakMap<HostEntry, [bigint, bigint]>()

/** IPv4 addresses sit above the IPv6 space so one interval list holds both. */
const V4_BASE = BigInt(1) << BigInt(128)

/** An IPv4 address (unsigned 32-bit integer) in the shared address space. */
export const v4 = (n: number): bigint => V4_BASE + BigInt(n)

/** Keeps the first and last scanned address of an entry (shared space) and returns the entry. */
export function withBounds(entry: HostEntry, first: bigint, last: bigint): HostEntry {
  bounds.set(entry, [first, last])
  return entry
}

/** The scanned bounds of an accepted address entry (shared space); undefined for a host name. */
export function boundsOf(entry: HostEntry): [bigint, bigint] | undefined {
  return bounds.get(entry)
}
