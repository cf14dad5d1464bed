// Port-range syntax shared by the renderer (the port list range editor, checked item by item
// before anything is sent) and the catalog's port range body. Pure functions, no Node APIs.
//
// The text is a list of items separated by commas or line breaks:
//   T:1-1024      TCP ports 1 to 1024
//   U:53          UDP port 53
//   T:80,443      a letter applies to the items after it on the same line (80 and 443 are TCP)
//   8080          an item before any letter on its line is TCP
// Ports are 1–65535, a range's start is not above its end, and no two ranges of one protocol
// overlap (nor overlap the ranges a list already has).

/** Lowest and highest port. */
export const MIN_PORT = 1
export const MAX_PORT = 65_535
/** Most ranges one text may add at once (a port list's create body takes at most 200). */
export const MAX_PORT_ITEMS = 200

/** Transport protocol of a range, as the service spells it. */
export type PortProtocol = 'tcp' | 'udp'

/** A range of ports of one protocol (both ends included). */
export interface PortRangeValue {
  start: number
  end: number
  protocol: PortProtocol
}

/** One item of the text that was refused: where it is and one sentence saying why. */
export interface PortItemProblem {
  /** Line of the text (1-based). */
  line: number
  /** The item as written (trimmed). */
  item: string
  problem: string
}

/** What parsing a text gave: the ranges, or every refused item with its reason. */
export type PortRangesResult =
  | { ok: true; ranges: PortRangeValue[] }
  | { ok: false; problems: PortItemProblem[]; ranges: PortRangeValue[] }

const LETTER: Record<string, PortProtocol> = { T: 'tcp', U: 'udp' }
const LETTER_OF: Record<PortProtocol, string> = { tcp: 'T', udp: 'U' }

/** "T:1-1024", or "U:53" for a single port. */
export function formatPortRange(r: PortRangeValue): string {
  const ports = r.start === r.end ? `${r.start}` : `${r.start}-${r.end}`
  return `${LETTER_OF[r.protocol]}:${ports}`
}

/** Ranges as one line of the syntax ("T:1-1024,U:53"). */
export function formatPortRanges(ranges: readonly PortRangeValue[]): string {
  return ranges.map(formatPortRange).join(',')
}

/** Ports a range covers. */
export const portsIn = (r: PortRangeValue): number => r.end - r.start + 1

/** True when two ranges share a port of the same protocol. */
export function overlaps(a: PortRangeValue, b: PortRangeValue): boolean {
  return a.protocol === b.protocol && a.start <= b.end && b.start <= a.end
}

/** The sentence saying why start–end is not a range of ports, or null when it is one. */
export function portRangeProblem(start: number, end: number): string | null {
  for (const p of [start, end]) {
    if (!Number.isInteger(p)) return `${p} is not a whole number; a port is 1–65535.`
    if (p < MIN_PORT || p > MAX_PORT) return `${p} is not a port; ports are 1–65535.`
  }
  if (start > end) return `The range starts at ${start} but ends at ${end}; write ${end}-${start}.`
  return null
}

/** A port number as written, or the sentence saying why it is not one. */
function portOf(text: string): number | string {
  if (text === '') return 'A port is missing; write a port (1–65535) or a range like 1-1024.'
  if (!/^\d+$/.test(text)) return `"${text}" is not a port number; ports are 1–65535.`
  const n = Number(text)
  if (n < MIN_PORT || n > MAX_PORT) return `${n} is not a port; ports are 1–65535.`
  if (text.length > 1 && text.startsWith('0')) return `${text} has a leading zero; write ${n}.`
  return n
}

/** One item's ports ("1-1024", "53"), or the sentence saying why they are not a range. */
function portsOf(text: string, protocol: PortProtocol): PortRangeValue | string {
  const parts = text.split('-').map((p) => p.trim())
  if (parts.length > 2) return `"${text}" has more than one dash; a range is start-end.`
  const start = portOf(parts[0])
  if (typeof start === 'string') return start
  const end = parts.length === 2 ? portOf(parts[1]) : start
  if (typeof end === 'string') return end
  const problem = portRangeProblem(start, end)
  return problem ?? { start, end, protocol }
}

/**
 * One item ("T:1-1024", "U:53", "443") with the protocol in force before it (the previous
 * item's letter on the line, TCP at its start): the range and the protocol now in force, or
 * the reason it is refused.
 */
export function parsePortItem(
  item: string,
  current: PortProtocol = 'tcp',
): { ok: true; range: PortRangeValue } | { ok: false; problem: string } {
  const text = item.trim()
  let protocol = current
  let ports = text
  const colon = text.indexOf(':')
  if (colon >= 0) {
    const letter = text.slice(0, colon).trim()
    const known = LETTER[letter.toUpperCase()]
    if (!known) {
      const shown = letter === '' ? 'nothing' : `"${letter}"`
      return {
        ok: false,
        problem: `The protocol is ${shown}; write T: for TCP or U: for UDP.`,
      }
    }
    protocol = known
    ports = text.slice(colon + 1).trim()
  }
  const r = portsOf(ports, protocol)
  return typeof r === 'string' ? { ok: false, problem: r } : { ok: true, range: r }
}

const named = (r: PortRangeValue) =>
  `${r.protocol.toUpperCase()} ${r.start === r.end ? `port ${r.start}` : `${r.start}-${r.end}`}`

/**
 * Parses the text of the range editor: every item checked on its own (protocol letter, ports
 * 1–65535, start ≤ end), then against the items before it and the ranges the list already has
 * (`existing`) for overlaps. Blank items are skipped; an empty text is refused.
 */
export function parsePortRanges(
  text: string,
  existing: readonly PortRangeValue[] = [],
): PortRangesResult {
  const problems: PortItemProblem[] = []
  const ranges: PortRangeValue[] = []
  let items = 0
  text.split(/\r?\n/).forEach((lineText, index) => {
    const line = index + 1
    let current: PortProtocol = 'tcp'
    for (const raw of lineText.split(',')) {
      const item = raw.trim()
      if (item === '') continue
      items++
      const parsed = parsePortItem(item, current)
      if (!parsed.ok) {
        problems.push({ line, item, problem: parsed.problem })
        continue
      }
      const r = parsed.range
      current = r.protocol
      const inText = ranges.find((o) => overlaps(o, r))
      const inList = existing.find((o) => overlaps(o, r))
      if (inText) {
        problems.push({
          line,
          item,
          problem: `Overlaps ${formatPortRange(inText)} given before it (${named(r)} shares ports with it).`,
        })
      } else if (inList) {
        problems.push({
          line,
          item,
          problem: `Overlaps ${formatPortRange(inList)}, already in this port list.`,
        })
      } else ranges.push(r)
    }
  })
  if (items === 0) {
    return {
      ok: false,
      problems: [{ line: 1, item: '', problem: 'Write at least one range, e.g. T:1-1024,U:53.' }],
      ranges,
    }
  }
  if (items > MAX_PORT_ITEMS) {
    problems.push({
      line: text.split(/\r?\n/).length,
      item: '',
      problem: `${items} ranges given; add at most ${MAX_PORT_ITEMS} at once.`,
    })
  }
  return problems.length ? { ok: false, problems, ranges } : { ok: true, ranges }
}
