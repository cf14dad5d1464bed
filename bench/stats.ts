/** Median of a non-empty list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** `lowest–highest` of a non-empty list, each with `digits` decimals. */
export function spread(values: readonly number[], digits = 2): string {
  return `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`
}

/** Times `fn` `count` times in a row; returns each run's duration in milliseconds. */
export async function timeEach(count: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = []
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint()
    await fn()
    out.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  return out
}

/**
 * Times `count` calls of each of `a` and `b` in pairs, one right after the other, alternating
 * which goes first: both sides meet the machine's same moments, so a busy spell weighs on both
 * alike instead of on whichever side's block it fell in. Returns each side's times in ms.
 */
export async function timePairs(
  count: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
): Promise<[number[], number[]]> {
  const ta: number[] = []
  const tb: number[] = []
  for (let i = 0; i < count; i++) {
    const [first, second] = i % 2 ? [b, a] : [a, b]
    const [firstTimes, secondTimes] = i % 2 ? [tb, ta] : [ta, tb]
    firstTimes.push(...(await timeEach(1, first)))
    secondTimes.push(...(await timeEach(1, second)))
  }
  return [ta, tb]
}

/** Formats a ratio line: `name: 1.07x (candidate 1.23 ms vs baseline 1.15 ms, target ≤ 1.2x)`. */
export function ratioLine(
  name: string,
  candidate: number,
  baseline: number,
  target: number,
): string {
  const ratio = candidate / baseline
  const verdict = ratio <= target ? 'within target' : 'OVER target'
  return `${name}: ${ratio.toFixed(2)}x (ScanDesk ${candidate.toFixed(3)} ms vs baseline ${baseline.toFixed(3)} ms median; target ≤ ${target}x: ${verdict})`
}
