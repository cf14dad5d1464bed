import { describe, expect, it } from 'vitest'
import type { TransferProgress } from '@contract/files'
import { ProgressMeter } from './progress'

describe('reporting download progress', () => {
  it('reports at most 10 times a second plus the final report', () => {
    let now = 0
    const seen: TransferProgress[] = []
    const meter = new ProgressMeter(
      10_000_000,
      (p) => seen.push(p),
      () => now,
    )
    for (let i = 0; i < 1000; i++) {
      now += 2 // 2 s in all, 10 000 bytes every 2 ms
      meter.add(10_000)
    }
    meter.finish()
    expect(seen.length).toBeLessThanOrEqual(2 * 10 + 2)
    expect(seen.length).toBeGreaterThanOrEqual(15)
    expect(seen.at(-1)).toEqual({
      bytes: 10_000_000,
      total: 10_000_000,
      bytesPerSecond: 5_000_000,
      etaMs: 0,
    })
  })

  it('estimates time left from the smoothed rate, and none without a total', () => {
    let now = 0
    const seen: TransferProgress[] = []
    const meter = new ProgressMeter(
      1_000_000,
      (p) => seen.push(p),
      () => now,
    )
    meter.add(100) // first report at once
    now = 200
    meter.add(99_900) // 100 000 bytes in 200 ms → 500 000 B/s
    expect(seen.at(-1)).toMatchObject({ bytes: 100_000, bytesPerSecond: 500_000, etaMs: 1800 })
    const open = new ProgressMeter(
      null,
      (p) => seen.push(p),
      () => now,
    )
    open.add(5)
    expect(seen.at(-1)).toMatchObject({ total: null, etaMs: null })
  })
})
