import { targetAddress } from '@contract/catalog/targets'
import { MAX_HOST_LINES, ipv4Text, parseHostEntry } from '@contract/hosts'

// The host list of the scan wizard's Where step: each line checked by the catalog's target
// address schema and the host syntax, repeated lines flagged, exclusions cut out of addresses,
// blocks and ranges.

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

/** An IPv4 address as an unsigned integer, or null. */
function ipv4(text: string): number | null {
  const parts = text.split('.')
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null
  return parts.reduce((n, p) => n * 256 + Number(p), 0)
}

/**
 * The IPv4 addresses an accepted entry covers, as one interval (null: a host name or IPv6). A
 * scanned block leaves out its network and broadcast addresses; an excluded one (`whole`) does not.
 */
function ipv4Interval(entry: string, whole = false): [number, number] | null {
  const single = ipv4(entry)
  if (single !== null) return [single, single]
  const cidr = /^([\d.]+)\/(\d{1,2})$/.exec(entry)
  if (cidr) {
    const base = ipv4(cidr[1])
    const prefix = Number(cidr[2])
    if (base === null || prefix > 32) return null
    const size = 2 ** (32 - prefix)
    const network = base - (base % size)
    // Below /31 the network and broadcast addresses are not scanned.
    return prefix >= 31 || whole ? [network, network + size - 1] : [network + 1, network + size - 2]
  }
  const range = /^([\d.]+)-([\d.]+)$/.exec(entry)
  if (range) {
    const start = ipv4(range[1])
    if (start === null) return null
    const end = range[2].includes('.') ? ipv4(range[2]) : start - (start % 256) + Number(range[2])
    return end === null || end < start ? null : [start, end]
  }
  return null
}

const intervalText = ([s, e]: [number, number]) =>
  s === e ? ipv4Text(s) : `${ipv4Text(s)}-${ipv4Text(e)}`

function checkLines(text: string): { lines: HostLineCheck[]; problem?: string } {
  const raw = text.split(/\r\n|\r|\n/)
  const count = raw.filter((l) => l.trim() !== '').length
  if (count > MAX_HOST_LIST_LINES) {
    return {
      lines: [],
      problem: `The list has ${count.toLocaleString('en-US')} lines; at most ${MAX_HOST_LIST_LINES.toLocaleString('en-US')} are checked. Use CIDR blocks or ranges, or split it into several scans.`,
    }
  }
  const seen = new Map<string, number>()
  const lines: HostLineCheck[] = []
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
      const earlier = seen.get(entry.normalized)
      if (earlier !== undefined) line.duplicateOf = earlier
      else seen.set(entry.normalized, i + 1)
    }
    lines.push(line)
  })
  return { lines }
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
  const cuts = excl.lines.filter((l) => !l.problem)
  const keyOf = (l: HostLineCheck) => l.normalized ?? l.text.toLowerCase()
  const cutIntervals = cuts.flatMap((c) => {
    const iv = ipv4Interval(keyOf(c), true)
    return iv ? [{ line: c, iv }] : []
  })
  const cutNames = new Map(cuts.filter((c) => !ipv4Interval(keyOf(c))).map((c) => [keyOf(c), c]))
  const used = new Set<HostLineCheck>()
  for (const line of list.lines) {
    if (line.problem || line.duplicateOf !== undefined) continue
    const iv = ipv4Interval(keyOf(line))
    if (!iv) {
      const cut = cutNames.get(keyOf(line))
      if (cut) {
        used.add(cut)
        line.note = `left out: excluded by line ${cut.line} of the exclusions`
      } else out.addresses.push(line.text)
      continue
    }
    let pieces: [number, number][] = [iv]
    for (const {
      line: cut,
      iv: [cs, ce],
    } of cutIntervals) {
      const next: [number, number][] = []
      for (const [s, e] of pieces) {
        if (ce < s || cs > e) {
          next.push([s, e])
          continue
        }
        used.add(cut)
        if (s < cs) next.push([s, cs - 1])
        if (e > ce) next.push([ce + 1, e])
      }
      pieces = next
    }
    if (pieces.length === 1 && pieces[0][0] === iv[0] && pieces[0][1] === iv[1]) {
      out.addresses.push(line.text)
    } else if (!pieces.length) {
      line.note = 'left out: every address is excluded'
    } else {
      const texts = pieces.map(intervalText)
      line.note = `exclusions applied: scans ${texts.join(', ')}`
      out.addresses.push(...texts)
    }
  }
  for (const cut of cuts) if (!used.has(cut)) cut.note = 'excludes none of the hosts listed'
  return out
}
