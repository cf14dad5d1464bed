/** Poll timing of export jobs. */
export interface BackoffOptions {
  /** First wait. */
  baseMs: number
  /** Longest wait. */
  maxMs: number
  /** Fraction of random spread around each wait (0.2 = ±20 %). */
  jitter: number
}

/** Polling "file exists": 0.5 s, doubling up to 8 s, ±20 %. */
export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 8_000, jitter: 0.2 }

/** The wait before poll number `attempt` (0-based): exponential, capped, with jitter. */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  const raw = Math.min(options.maxMs, options.baseMs * 2 ** Math.min(attempt, 30))
  const spread = raw * options.jitter * (random() * 2 - 1)
  return Math.max(0, Math.round(Math.min(options.maxMs, raw + spread)))
}

/** Waits `ms`; rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
