// Host lists: each line checked, repeated entries flagged, and the distinct hosts counted with
// overlaps once and exclusions subtracted.
import { MAX_HOST_LINES, boundsOf, fmt, type HostEntryResult } from './common'
import { parseHostEntry } from './entry'
import { mergeIntervals, overlap, sizeOf, type Interval } from './intervals'

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

/** How a host list is read. */
export interface HostListOptions {
  /** Exclusions: text with one entry per line, or the entries. */
  exclusions?: string | readonly string[]
  /** Most entries per list (default MAX_HOST_LINES). */
  maxLines?: number
}

interface HostSet {
  addresses: Interval[]
  names: Set<string>
}

function hostSetOf(lines: HostLine[]): HostSet {
  const addresses: Interval[] = []
  const names = new Set<string>()
  for (const { result: r } of lines) {
    if (!r.ok) continue
    const b = boundsOf(r)
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
