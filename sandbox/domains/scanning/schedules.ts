// Schedule date math: wall-clock times in an IANA time zone, stepped by calendar units, turned
// into instants through Intl (so DST changes keep the local time, not the UTC time).

/** How often a schedule repeats. */
export type Frequency = 'once' | 'daily' | 'weekly' | 'monthly' | 'quarterly'

/** A wall-clock time (month 1–12). */
export interface Wall {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
}

const DAY_MS = 86_400_000
const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    formatters.set(tz, f)
  }
  return f
}

/** The wall-clock time in `tz` at instant `ms`. */
export function wallAt(ms: number, tz: string): Wall {
  const parts: Record<string, number> = {}
  for (const p of formatter(tz).formatToParts(new Date(ms))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value)
  }
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: parts.hour,
    minute: parts.minute,
    second: parts.second,
  }
}

const wallAsUtc = (w: Wall): number =>
  Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second)

/** Offset of `tz` from UTC at instant `ms`, in milliseconds (Berlin in summer: +7,200,000). */
export function offsetAt(ms: number, tz: string): number {
  const whole = Math.floor(ms / 1000) * 1000
  return wallAsUtc(wallAt(whole, tz)) - whole
}

const sameWall = (a: Wall, b: Wall): boolean =>
  a.year === b.year &&
  a.month === b.month &&
  a.day === b.day &&
  a.hour === b.hour &&
  a.minute === b.minute &&
  a.second === b.second

/**
 * The instant of wall time `w` in `tz`. An ambiguous time (clocks going back) is the earlier
 * instant; a time that does not exist (clocks going forward) moves forward by the gap.
 */
export function instantOf(w: Wall, tz: string): number {
  const guess = wallAsUtc(w)
  const offBefore = offsetAt(guess - DAY_MS, tz)
  const offAfter = offsetAt(guess + DAY_MS, tz)
  // No offset change within a day either side: the wall time maps to exactly one instant.
  if (offBefore === offAfter) return guess - offBefore
  const before = guess - offBefore
  const after = guess - offAfter
  const valid = [before, after].filter((t) => sameWall(wallAt(t, tz), w))
  if (valid.length > 0) return Math.min(...valid)
  return before
}

/** `YYYY-MM-DDTHH:mm:ss±hh:mm`: the instant as local time in `tz` with its offset. */
export function localText(ms: number, tz: string): string {
  const w = wallAt(ms, tz)
  const off = Math.round(offsetAt(ms, tz) / 60_000)
  const sign = off < 0 ? '-' : '+'
  const abs = Math.abs(off)
  const two = (n: number) => String(n).padStart(2, '0')
  return (
    `${w.year}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}:${two(w.second)}` +
    `${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`
  )
}

const daysInMonth = (year: number, month: number): number =>
  new Date(Date.UTC(year, month, 0)).getUTCDate()

/**
 * Reads a schedule start: a wall time (`2025-03-31T09:00[:ss]`) in `tz`, or an instant with `Z`
 * or an offset, which is converted to the wall time in `tz`. Null when the date does not exist.
 */
export function parseStart(text: string, tz: string): Wall | null {
  const m =
    /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/.exec(
      text,
    )
  if (!m) return null
  const [year, month, day, hour, minute] = m.slice(1, 6).map(Number)
  const second = m[6] ? Number(m[6]) : 0
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null
  if (hour > 23 || minute > 59 || second > 59) return null
  if (m[7]) {
    const ms = Date.parse(text)
    return Number.isNaN(ms) ? null : wallAt(ms, tz)
  }
  return { year, month, day, hour, minute, second }
}

/** The wall time of the k-th run (k = 0 is the start); monthly days clamp to the month's length. */
export function nthWall(start: Wall, frequency: Frequency, k: number): Wall {
  if (frequency === 'daily' || frequency === 'weekly') {
    const step = frequency === 'daily' ? 1 : 7
    const d = new Date(Date.UTC(start.year, start.month - 1, start.day + k * step))
    return { ...start, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }
  }
  if (frequency === 'monthly' || frequency === 'quarterly') {
    const months = start.month - 1 + k * (frequency === 'monthly' ? 1 : 3)
    const year = start.year + Math.floor(months / 12)
    const month = (months % 12) + 1
    return { ...start, year, month, day: Math.min(start.day, daysInMonth(year, month)) }
  }
  return start
}

/** Roughly how many periods lie between the start and `ms` (used to skip ahead, never past). */
function periodsBefore(start: Wall, frequency: Frequency, ms: number): number {
  const startMs = wallAsUtc(start)
  if (ms <= startMs) return 0
  switch (frequency) {
    case 'daily':
      return Math.max(0, Math.floor((ms - startMs) / DAY_MS) - 2)
    case 'weekly':
      return Math.max(0, Math.floor((ms - startMs) / (7 * DAY_MS)) - 1)
    case 'monthly':
    case 'quarterly': {
      const d = new Date(ms)
      const months = (d.getUTCFullYear() - start.year) * 12 + d.getUTCMonth() + 1 - start.month
      return Math.max(0, Math.floor(months / (frequency === 'monthly' ? 1 : 3)) - 1)
    }
    default:
      return 0
  }
}

/** A repetition rule with its start already parsed. */
export interface Rule {
  frequency: Frequency
  start: Wall
  timeZone: string
}

/**
 * The next `count` runs of `rule` at or after `fromMs` (strictly after when `strict`), as
 * instants in milliseconds. A 'once' rule has at most one run.
 */
export function runsFrom(rule: Rule, fromMs: number, count: number, strict = false): number[] {
  const out: number[] = []
  const last = rule.frequency === 'once' ? 0 : Number.POSITIVE_INFINITY
  for (
    let k = periodsBefore(rule.start, rule.frequency, fromMs);
    k <= last && out.length < count;
    k++
  ) {
    const t = instantOf(nthWall(rule.start, rule.frequency, k), rule.timeZone)
    if (strict ? t > fromMs : t >= fromMs) out.push(t)
  }
  return out
}

/** The first run at or after `fromMs`, or null when none is left. */
export function firstRun(rule: Rule, fromMs: number): number | null {
  return runsFrom(rule, fromMs, 1)[0] ?? null
}

/** The first run strictly after `afterMs`, or null. */
export function nextRunAfter(rule: Rule, afterMs: number): number | null {
  return runsFrom(rule, afterMs, 1, true)[0] ?? null
}
