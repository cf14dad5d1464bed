// What one account's client is made of: its credential, limits, proxy and options, and the
// options of one call. Every limit has a default.
import type { Release } from '@contract/releases'
import type { RetryBudget } from './retry'

/** How an account authenticates a request after sign-in. */
export interface AuthCredential {
  scheme: 'Bearer' | 'Basic'
  token: string
}

/** Time and size limits of one client; every field has a default. */
export interface ClientLimits {
  /** Total time for one call, retries included. */
  deadlineMs: number
  /** Longest silence on the socket before the attempt fails. */
  idleMs: number
  /** Largest answer accepted, in bytes. */
  maxContentLength: number
  /** Largest request body sent, in bytes. */
  maxBodyLength: number
  /** Retries of an idempotent operation after the first attempt. */
  retries: number
  backoffBaseMs: number
  backoffMaxMs: number
  /**
   * Longest Retry-After waited out before a retry; a longer one is not retried (RATE_LIMITED
   * with the time to wait).
   */
  retryAfterCapMs: number
  /** Retries per minute of one account (a token bucket shared by the account's calls). */
  retryBudgetPerMinute: number
  /** Total time for one streamed download (downloads have no size cap; idleMs applies too). */
  downloadDeadlineMs: number
}

/**
 * The defaults: 30 s per call, 15 s idle, 32 MiB answers, 3 retries, Retry-After ≤ 10 s waited
 * out, 20 retries a minute per account, 10 min per download.
 */
export const DEFAULT_LIMITS: ClientLimits = {
  deadlineMs: 30_000,
  idleMs: 15_000,
  maxContentLength: 32 * 1024 * 1024,
  maxBodyLength: 8 * 1024 * 1024,
  retries: 3,
  backoffBaseMs: 300,
  backoffMaxMs: 5_000,
  retryAfterCapMs: 10_000,
  retryBudgetPerMinute: 20,
  downloadDeadlineMs: 10 * 60_000,
}

/**
 * Sockets one account's client may hold open to its service at once (calls, reads, probes and
 * downloads together): DOWNLOAD_THREADS_PER_ACCOUNT for downloads made on threads (each opens its
 * own connection there), the rest in the client's agents; further requests wait for a free one.
 */
export const MAX_SOCKETS_PER_ACCOUNT = 8

/** Downloads of one account made on threads at once (files/hasher.ts `downloadOnThread`). */
export const DOWNLOAD_THREADS_PER_ACCOUNT = 2

/** An explicit HTTP proxy (never taken from the environment). */
export interface ProxyConfig {
  protocol?: 'http' | 'https'
  host: string
  port: number
}

/** What one account's client needs. */
export interface AccountClientOptions {
  baseUrl: string
  apiKey: string
  /** The credential to send on 'user' operations, or null when the account is not signed in. */
  getAuth: () => AuthCredential | null | Promise<AuthCredential | null>
  release: Release
  /** PEM certificates trusted in addition to the system's roots (on-premises deployments). */
  caBundle?: string | Buffer
  proxy?: ProxyConfig
  limits?: Partial<ClientLimits>
  userAgent?: string
  /** The account's retry budget (shared by its clients); a client of its own when absent. */
  retryBudget?: RetryBudget
  /** The account's abort signal, read at each call: aborting it cancels every running call. */
  accountSignal?: () => AbortSignal | undefined
  /**
   * Read before every request: a sentence when no request may leave ScanDesk ("Work offline" is
   * on, the OS reports no network); the call then fails with OFFLINE and nothing is sent.
   */
  networkBlocked?: () => string | null
}

/** Options of one call. */
export interface CallOptions {
  signal?: AbortSignal
  /** Overrides the client's total deadline for this call. */
  deadlineMs?: number
  /**
   * Reads an answer that does not fit its schema as far as safety allows (display fields of
   * another type as text, rows that do not fit marked) instead of refusing it: for answers that
   * are only shown. Main's own uses of answers stay strict.
   */
  tolerant?: boolean
}
