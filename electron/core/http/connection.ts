// One account's connection to its service: the checked base URL, the sockets (its own agents,
// capped per account, extra CAs, no proxy from the environment), the axios instance with its
// retries, and what every request carries (API key, User-Agent, the signed-in credential).
import http from 'node:http'
import https from 'node:https'
import tls from 'node:tls'
import axios, { type AxiosInstance } from 'axios'
import axiosRetry from 'axios-retry'
import type { OperationDef } from '@contract/catalog/types'
import { fail } from '@contract/errors'
import {
  DEFAULT_LIMITS,
  DOWNLOAD_THREADS_PER_ACCOUNT,
  MAX_SOCKETS_PER_ACCOUNT,
  type AccountClientOptions,
  type AuthCredential,
  type ClientLimits,
} from './options'
import { RetryBudget, retryDelay, shouldRetry } from './retry'
import { Slots } from './slots'

/** What the parts of one client share: its options, limits, base URL, sockets and instance. */
export interface Connection {
  readonly options: AccountClientOptions
  readonly limits: ClientLimits
  readonly base: URL
  /** The base URL's host (with its port), for messages. */
  readonly host: string
  readonly httpAgent: http.Agent
  readonly httpsAgent: https.Agent
  /** The certificates an https connection trusts, when the account adds its own; else the system's. */
  readonly ca?: string[]
  /** Places of the downloads made on threads, each on a connection of its own. */
  readonly downloadThreads: Slots
  /** JSON calls and probes; downloads stream over the same agents (or a download thread's own). */
  readonly instance: AxiosInstance
}

/**
 * Opens the connection of one account: refuses a base URL that is not http(s), creates its agents
 * and one axios instance (no redirects, no absolute URLs, no environment proxy, answers read as
 * text, idempotent operations retried with backoff within the account's retry budget).
 */
export function openConnection(options: AccountClientOptions): Connection {
  const base = new URL(options.baseUrl)
  if (base.protocol !== 'https:' && base.protocol !== 'http:')
    fail('VALIDATION', 'The account’s address must start with https:// or http://.')
  const limits: ClientLimits = { ...DEFAULT_LIMITS, ...options.limits }
  // The account's sockets: its downloads made on threads have places of their own, the agents
  // the rest, so that together they never hold more than MAX_SOCKETS_PER_ACCOUNT.
  const agentSockets = MAX_SOCKETS_PER_ACCOUNT - DOWNLOAD_THREADS_PER_ACCOUNT
  const httpAgent = new http.Agent({ keepAlive: true, maxSockets: agentSockets })
  const ca = options.caBundle ? [...tls.rootCertificates, options.caBundle.toString()] : undefined
  const httpsAgent = new https.Agent({
    keepAlive: true,
    maxSockets: agentSockets,
    rejectUnauthorized: true,
    ...(ca ? { ca } : {}),
  })
  const instance: AxiosInstance = axios.create({
    baseURL: options.baseUrl,
    allowAbsoluteUrls: false,
    adapter: 'http',
    maxRedirects: 0,
    proxy: options.proxy ?? false,
    httpAgent,
    httpsAgent,
    timeout: limits.idleMs,
    transitional: { clarifyTimeoutError: true },
    maxContentLength: limits.maxContentLength,
    maxBodyLength: limits.maxBodyLength,
    responseType: 'text',
    transformResponse: [(data: unknown) => data],
    validateStatus: (status) => status >= 200 && status < 300,
  })
  const budget = options.retryBudget ?? new RetryBudget(limits.retryBudgetPerMinute)
  axiosRetry(instance, {
    retries: limits.retries,
    retryCondition: (error) =>
      shouldRetry(error, { retryAfterCapMs: limits.retryAfterCapMs, budget }),
    shouldResetTimeout: true,
    retryDelay: (attempt, error) =>
      retryDelay(attempt, error, {
        baseMs: limits.backoffBaseMs,
        maxMs: limits.backoffMaxMs,
        retryAfterCapMs: limits.retryAfterCapMs,
      }),
  })
  return {
    options,
    limits,
    base,
    host: base.host,
    httpAgent,
    httpsAgent,
    ...(ca ? { ca } : {}),
    downloadThreads: new Slots(DOWNLOAD_THREADS_PER_ACCOUNT),
    instance,
  }
}

/** Fails with OFFLINE, before anything is sent, while no request may leave ScanDesk. */
export function refuseWhenBlocked(conn: Connection): void {
  const why = conn.options.networkBlocked?.()
  if (why) fail('OFFLINE', why)
}

/**
 * The headers every request of `op` carries: `first` (Accept …), the API key, the User-Agent and,
 * for a signed-in user's operation, the credential (NOT_SIGNED_IN without one). Returns the
 * credential too, so its token can be redacted from what the service says.
 */
export async function identifyingHeaders(
  conn: Connection,
  op: OperationDef,
  first: Record<string, string>,
): Promise<{ headers: Record<string, string>; auth: AuthCredential | null }> {
  const { options } = conn
  const headers: Record<string, string> = { ...first, 'x-api-key': options.apiKey }
  if (options.userAgent) headers['User-Agent'] = options.userAgent
  const auth = op.auth === 'user' ? await options.getAuth() : null
  if (op.auth === 'user' && !auth) fail('NOT_SIGNED_IN', 'Sign in to this account first.')
  if (auth) headers.Authorization = `${auth.scheme} ${auth.token}`
  return { headers, auth }
}
