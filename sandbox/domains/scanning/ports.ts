import type { SandboxContext } from '../../types'

/** A stored port range. */
export interface PortRange {
  id: string
  start: number
  end: number
  protocol: 'tcp' | 'udp'
}

/** Number of ports the ranges cover (TCP and UDP counted separately; ranges never overlap). */
export function portCount(ranges: PortRange[]): number {
  return ranges.reduce((n, r) => n + r.end - r.start + 1, 0)
}

/**
 * Adds `added` to `existing` with fresh rng-… ids; a range that overlaps another range of the
 * same protocol answers 422. Returns the attributes to store.
 */
export function addRanges(
  ctx: SandboxContext,
  existing: PortRange[],
  added: Omit<PortRange, 'id'>[],
  field = 'ranges',
): { ranges: PortRange[]; port_count: number } {
  const ranges = [...existing]
  added.forEach((r, i) => {
    const clash = ranges.find(
      (o) => o.protocol === r.protocol && r.start <= o.end && o.start <= r.end,
    )
    if (clash) {
      const key = field === 'ranges' ? `ranges.${i}` : 'start'
      ctx.invalid({
        [key]: [`overlaps ${clash.protocol} ${clash.start}–${clash.end} (${clash.id})`],
      })
    }
    ranges.push({ id: ctx.db.nextId('rng'), start: r.start, end: r.end, protocol: r.protocol })
  })
  return { ranges, port_count: portCount(ranges) }
}
