import type { AxiosError } from 'axios'
import { retryAfterMs } from './retry-after'

/** Statuses worth another try for an idempotent operation. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([408, 429, 502, 503, 504])

const RETRY_NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ERR_NETWORK',
])

/** Whether a failed attempt may be repeated (the per-request retry count decides if it is). */
export function isRetryable(error: AxiosError): boolean {
  if (error.code === 'ERR_CANCELED' || error.config?.signal?.aborted) return false
  if (error.response) {
    const { status } = error.response
    // A successful status whose body broke off (reset mid-answer) is a network failure.
    return (status >= 200 && status < 300) || RETRY_STATUSES.has(status)
  }
  return typeof error.code === 'string' && RETRY_NETWORK_CODES.has(error.code)
}

/**
 * A token bucket of retries for one account: `perMinute` tokens, refilled continuously. A retry
 * takes one; when none is left the call fails with its last error instead of retrying, so a
 * storm of failures cannot multiply the load on the service (or on the account's rate limit).
 */
export class RetryBudget {
  private tokens: number
  private last: number

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = perMinute
    this.last = now()
  }

  /** Takes one retry; false when the budget is spent. */
  take(): boolean {
    const t = this.now()
    this.tokens = Math.min(
      this.perMinute,
      this.tokens + ((t - this.last) * this.perMinute) / 60_000,
    )
    this.last = t
    if (this.tokens < 1) return false
    this.tokens -= 1
    return true
  }
}

/**
 * Whether a failed attempt is retried now: it must be retryable, its Retry-After (if any) must
 * fit within `retryAfterCapMs` (a longer wait is honoured by failing at once with the time to
 * wait, never shortened), and the account's budget must still hold a retry.
 */
export function shouldRetry(
  error: AxiosError,
  o: { retryAfterCapMs: number; budget?: RetryBudget },
): boolean {
  if (!isRetryable(error)) return false
  const after = retryAfterMs(error.response?.headers?.['retry-after'])
  if (after !== undefined && after > o.retryAfterCapMs) return false
  return o.budget ? o.budget.take() : true
}

/** Backoff settings: base and cap of the full-jitter exponential delay, cap of Retry-After. */
export interface BackoffOptions {
  baseMs: number
  maxMs: number
  retryAfterCapMs: number
  random?: () => number
}

/**
 * Delay before retry number `attempt` (1-based): full jitter, a uniform value in
 * [0, min(maxMs, baseMs·2^(attempt-1))]; a Retry-After from the service wins, capped.
 */
export function retryDelay(attempt: number, error: AxiosError | undefined, o: BackoffOptions) {
  const after = retryAfterMs(error?.response?.headers?.['retry-after'])
  if (after !== undefined) return Math.min(after, o.retryAfterCapMs)
  const ceiling = Math.min(o.maxMs, o.baseMs * 2 ** Math.max(0, attempt - 1))
  return Math.floor((o.random ?? Math.random)() * ceiling)
}
