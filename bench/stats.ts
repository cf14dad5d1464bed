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
