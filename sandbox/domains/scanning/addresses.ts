// Target addresses in the sandbox: the client's host syntax (electron/contract/hosts/) decides
// what an address is, how many hosts it covers, and which hosts a scan of it reaches.
import {
  expandHostEntry,
  parseHostEntry,
  parseHostList,
  type HostEntryResult,
} from '@contract/hosts'
import { hash } from './hash'

/** Parses a target address (one entry of the host syntax). */
export function parseAddress(address: string): HostEntryResult {
  return parseHostEntry(address)
}

/** Number of hosts an address covers (see the host syntax), or null when the address is refused. */
export function countHosts(address: string): number | null {
  const entry = parseHostEntry(address)
  return entry.ok ? entry.count : null
}

/** The distinct hosts of an address once the exclusions are taken out, or the first problem. */
export function countWithExclusions(
  address: string,
  exclusions: readonly string[],
): { ok: true; count: number; excluded: number } | { ok: false; field: string; problem: string } {
  const entry = parseHostEntry(address)
  if (!entry.ok) return { ok: false, field: 'address', problem: entry.problem }
  const list = parseHostList([address], { exclusions })
  if (list.exclusionsProblem) {
    return { ok: false, field: 'exclusions', problem: list.exclusionsProblem }
  }
  const bad = list.exclusions.find((l) => !l.result.ok)
  if (bad && !bad.result.ok) {
    return {
      ok: false,
      field: `exclusions.${bad.line - 1}`,
      problem: bad.result.problem,
    }
  }
  return { ok: true, count: list.count, excluded: list.excluded }
}

/** A host a scan reaches at an address. */
export interface ScannedHost {
  ip: string
  hostname: string | null
}

/**
 * Up to `max` hosts a scan of `address` finds (deterministic): the first addresses of a block or
 * range, the address itself, or for a host name one documentation address derived from it.
 */
export function hostsOf(address: string, max: number): ScannedHost[] {
  const entry = parseHostEntry(address)
  if (!entry.ok || max <= 0) return []
  if (entry.kind === 'hostname') {
    const h = hash(entry.normalized)
    return [{ ip: `203.0.113.${(h % 250) + 2}`, hostname: entry.normalized }]
  }
  return expandHostEntry(entry, max).map((ip) => ({ ip, hostname: null }))
}
