import { targetAddress } from '@contract/catalog/targets'
import {
  MAX_HOST_LINES,
  cutIpv4Interval,
  ipv4Interval,
  ipv4IntervalText,
  parseHostEntry,
  type HostEntry,
} from '@contract/hosts'

// The host list of the scan wizard's Where step: each line checked by the catalog's target
// address schema and the host syntax, repeated lines flagged, exclusions cut out of addresses,
// blocks and ranges (the host syntax's interval arithmetic).

/** Most lines a pasted or imported host list may have before it is checked line by line. */
export const MAX_HOST_LIST_LINES = MAX_HOST_LINES

/** One non-blank line of a host list: refused with a reason, a duplicate, or accepted. */
export interface HostLineCheck {
  /** 1-based line number in the text. */
  line: number
  text: string
  /** Why the catalog's targetAddress schema refuses the line. */
  problem?: string
  /** The earlier line with the same entry (this one is left out). */
  duplicateOf?: number
  /** What the exclusions did to the line: removed it or left parts of it. */
  note?: string
  /** The entry's canonical text (host syntax), for an accepted line. */
  normalized?: string
}

/** A host list checked line by line, with the exclusions applied. */
export interface HostListCheck {
  /** A problem of the whole list (too many lines); then no line was checked. */
  problem?: string
  exclusionsProblem?: string
  lines: HostLineCheck[]
  exclusions: HostLineCheck[]
  /** The addresses the new targets get (duplicates left out, exclusions applied). */
  addresses: string[]
}

/** The lines of a host list checked, and the host syntax's entry of each accepted one. */
interface CheckedLines {
  lines: HostLineCheck[]
  entries: Map<HostLineCheck, HostEntry>
  problem?: string
}

function checkLines(text: string): CheckedLines {
  const raw = text.split(/\r\n|\r|\n/)
  const count = raw.filter((l) => l.trim() !== '').length
  if (count > MAX_HOST_LIST_LINES) {
    return {
      lines: [],
      entries: new Map(),
      problem: `The list has ${count.toLocaleString('en-US')} lines; at most ${MAX_HOST_LIST_LINES.toLocaleString('en-US')} are checked. Use CIDR blocks or ranges, or split it into several scans.`,
    }
  }
  const seen = new Map<string, number>()
  const lines: HostLineCheck[] = []
  const entries = new Map<HostLineCheck, HostEntry>()
  raw.forEach((l, i) => {
    const text = l.trim()
    if (text === '') return
    const line: HostLineCheck = { line: i + 1, text }
    // The catalog's schema first (what the service's contract takes), then the host syntax's
    // own sentence (CIDR sizes, octets, ranges the schema's characters cannot tell).
    const checked = targetAddress.safeParse(text)
    const entry = parseHostEntry(text)
    if (!checked.success) line.problem = checked.error.issues[0]?.message ?? 'is not an address'
    else if (!entry.ok) line.problem = entry.problem
    else {
      line.normalized = entry.normalized
      entries.set(line, entry)
      const earlier = seen.get(entry.normalized)
      if (earlier !== undefined) line.duplicateOf = earlier
      else seen.set(entry.normalized, i + 1)
    }
    lines.push(line)
  })
  return { lines, entries }
}

/**
 * Checks a host list and its exclusions line by line with the catalog's targetAddress schema,
 * flags repeated lines, and applies the exclusions: an excluded host name or IPv6 entry removes
 * the same line, excluded IPv4 addresses are cut out of addresses, blocks and ranges (what is
 * left is sent as ranges).
 */
export function checkHostList(hosts: string, exclusions = ''): HostListCheck {
  const list = checkLines(hosts)
  const excl = checkLines(exclusions)
  const out: HostListCheck = { lines: list.lines, exclusions: excl.lines, addresses: [] }
  if (list.problem) out.problem = list.problem
  if (excl.problem) out.exclusionsProblem = excl.problem
  // Accepted exclusions: IPv4 ones cut whole blocks (network and broadcast too), others a name.
  const cuts = excl.lines.filter((l) => excl.entries.has(l))
  const cutIntervals = cuts.flatMap((c) => {
    const iv = ipv4Interval(excl.entries.get(c)!, true)
    return iv ? [{ line: c, iv }] : []
  })
  const cutNames = new Map(
    cuts.filter((c) => !ipv4Interval(excl.entries.get(c)!)).map((c) => [c.normalized, c]),
  )
  const used = new Set<HostLineCheck>()
  for (const line of list.lines) {
    const entry = list.entries.get(line)
    if (!entry || line.duplicateOf !== undefined) continue
    const iv = ipv4Interval(entry)
    if (!iv) {
      const cut = cutNames.get(entry.normalized)
      if (cut) {
        used.add(cut)
        line.note = `left out: excluded by line ${cut.line} of the exclusions`
      } else out.addresses.push(line.text)
      continue
    }
    const { left: pieces, used: touched } = cutIpv4Interval(
      iv,
      cutIntervals.map((c) => c.iv),
    )
    for (const i of touched) used.add(cutIntervals[i].line)
    if (pieces.length === 1 && pieces[0][0] === iv[0] && pieces[0][1] === iv[1]) {
      out.addresses.push(line.text)
    } else if (!pieces.length) {
      line.note = 'left out: every address is excluded'
    } else {
      const texts = pieces.map(ipv4IntervalText)
      line.note = `exclusions applied: scans ${texts.join(', ')}`
      out.addresses.push(...texts)
    }
  }
  for (const cut of cuts) if (!used.has(cut)) cut.note = 'excludes none of the hosts listed'
  return out
}
