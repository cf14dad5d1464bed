import type { TransferProgress } from '@contract/files'

/** At most this many progress reports per second (plus the final one). */
export const PROGRESS_PER_SECOND = 10

/** Weight of the newest rate sample in the smoothed rate (exponential moving average). */
const SMOOTHING = 0.3

/**
 * Turns byte counts into throttled progress reports: at most PROGRESS_PER_SECOND a second, a
 * smoothed rate, and a time left when the total is known; `finish` always reports.
 */
export class ProgressMeter {
  private bytes = 0
  private lastAt: number
  private lastBytes = 0
  private reported = false
  private rate = 0
  private readonly interval = 1000 / PROGRESS_PER_SECOND

  constructor(
    private readonly total: number | null,
    private readonly report: ((p: TransferProgress) => void) | undefined,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.lastAt = now()
  }

  /** Counts `n` more bytes; reports when the last report is old enough. */
  add(n: number): void {
    this.bytes += n
    if (!this.report) return
    const t = this.now()
    if (!this.reported) {
      // The first bytes are reported at once, so the UI shows the transfer has started.
      this.reported = true
      this.emit()
      return
    }
    if (t - this.lastAt < this.interval) return
    this.sample(t)
    this.emit()
  }

  /** The final report (bytes = everything received, time left 0). */
  finish(): void {
    if (!this.report) return
    const t = this.now()
    if (t > this.lastAt) this.sample(t)
    this.emit(true)
  }

  private sample(t: number): void {
    const instant = ((this.bytes - this.lastBytes) * 1000) / (t - this.lastAt)
    this.rate = this.rate === 0 ? instant : SMOOTHING * instant + (1 - SMOOTHING) * this.rate
    this.lastAt = t
    this.lastBytes = this.bytes
  }

  private emit(done = false): void {
    const left = this.total === null ? null : Math.max(0, this.total - this.bytes)
    const etaMs = done
      ? 0
      : left === null || this.rate <= 0
        ? null
        : Math.round((left * 1000) / this.rate)
    this.report?.({
      bytes: this.bytes,
      total: this.total,
      bytesPerSecond: Math.round(this.rate),
      etaMs,
    })
  }
}
