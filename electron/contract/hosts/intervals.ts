// Interval arithmetic over addresses held as integers: merging, overlapping and counting the
// shared space's intervals (host lists), and cutting exclusions out of an IPv4 interval (the scan
// wizard's new targets).
/** An IPv4 interval: first and last address as unsigned 32-bit integers. */
export type Ipv4Interval = [number, number]

/** An address interval: first and last address in the shared space (IPv4 above IPv6). */
export type Interval = [bigint, bigint]

const ONE = BigInt(1)
const ZERO = BigInt(0)

/** Sorted, disjoint intervals; overlapping and adjacent ones merged. */
export function mergeIntervals(items: Interval[]): Interval[] {
  const sorted = [...items].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  const out: Interval[] = []
  for (const [s, e] of sorted) {
    const last = out[out.length - 1]
    if (last && s <= last[1] + ONE) {
      if (e > last[1]) last[1] = e
    } else {
      out.push([s, e])
    }
  }
  return out
}

/** Size of the intersection of two merged (sorted, disjoint) interval lists. */
export function overlap(a: Interval[], b: Interval[]): bigint {
  let total = ZERO
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    const s = a[i][0] > b[j][0] ? a[i][0] : b[j][0]
    const e = a[i][1] < b[j][1] ? a[i][1] : b[j][1]
    if (s <= e) total += e - s + ONE
    if (a[i][1] < b[j][1]) i++
    else j++
  }
  return total
}

/** How many addresses merged intervals hold. */
export const sizeOf = (items: Interval[]): bigint =>
  items.reduce((n, [s, e]) => n + e - s + ONE, ZERO)

/**
 * What is left of an IPv4 interval once the cuts are taken out (in order), and the indexes of the
 * cuts that took something.
 */
export function cutIpv4Interval(
  interval: Ipv4Interval,
  cuts: readonly Ipv4Interval[],
): { left: Ipv4Interval[]; used: number[] } {
  let left: Ipv4Interval[] = [interval]
  const used: number[] = []
  cuts.forEach(([cs, ce], i) => {
    const next: Ipv4Interval[] = []
    for (const [s, e] of left) {
      if (ce < s || cs > e) {
        next.push([s, e])
        continue
      }
      if (!used.includes(i)) used.push(i)
      if (s < cs) next.push([s, cs - 1])
      if (e > ce) next.push([ce + 1, e])
    }
    left = next
  })
  return { left, used }
}
