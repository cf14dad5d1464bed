import http from 'node:http'
import https from 'node:https'
import tls from 'node:tls'
import axios, { type AxiosInstance, type AxiosResponse } from 'axios'
import axiosRetry from 'axios-retry'
import { findOperation, inRelease } from '@contract/catalog/index'
import { answersFile } from '@contract/catalog/saq'
import type { OperationDef } from '@contract/catalog/types'
import { AppFailure, fail } from '@contract/errors'
import type { Release } from '@contract/releases'
import { errorFromResponse, readAnswer } from './answers'
import { redactor, ServiceFailure, transportFailure, type Redact } from './errors'
import { missingOperation } from './missing-operation'
import { prepareRequest, type CallInput } from './request'
import { RetryBudget, retryDelay, shouldRetry } from './retry'
import { streamRequest, type StreamOptions, type StreamResult, type StreamSink } from './stream'

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
 * downloads together); further requests wait in the client's agent for a free one.
 */
export const MAX_SOCKETS_PER_ACCOUNT = 8

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

/** Validators of a copy held locally, sent as If-None-Match / If-Modified-Since. */
export interface Validators {
  etag: string | null
  lastModified: string | null
}

/** The outcome of a conditional read: the checked answer, or "your copy is current" (304). */
export type ReadOutcome =
  | ({ notModified: false; data: unknown; warnings: string[]; tolerated: string[] } & Validators)
  | ({ notModified: true; data: undefined; warnings: []; tolerated: [] } & Validators)

/** One account's HTTP client: every request goes to its base URL and nowhere else. */
export interface AccountClient {
  readonly baseUrl: string
  readonly release: Release
  /** Runs catalog operation `opId`; resolves to the checked answer or throws an AppFailure. */
  call(opId: string, input?: CallInput, options?: CallOptions): Promise<unknown>
  /**
   * Runs a GET like `call`, sending the validators of a local copy when given: resolves to the
   * answer with its ETag / Last-Modified, or to notModified when the service answers 304.
   */
  read(
    opId: string,
    input: CallInput,
    validators: Validators | null,
    options?: CallOptions,
  ): Promise<ReadOutcome>
  /**
   * Asks the base URL once, without any credential and without retries: resolves to null when
   * the service answered at all (any status), or to the failure (OFFLINE, TIMEOUT, …).
   */
  probe(options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<AppFailure | null>
  /**
   * Streams file operation `opId` into `sink` (one attempt, no retries, no size cap); resolves
   * once every announced byte arrived or throws an AppFailure (401 → UNAUTHORIZED, a short or
   * overlong body → INTEGRITY_FAILED, TIMEOUT, CANCELLED, OFFLINE, …).
   */
  download(
    opId: string,
    input: CallInput,
    sink: StreamSink,
    options?: StreamOptions,
  ): Promise<StreamResult>
  /** Frees the client's sockets. */
  close(): void
}

const SECRET_FIELD = /pass|token|secret|key|otp|code/i

function bodySecrets(data: unknown): string[] {
  if (typeof data !== 'object' || data === null) return []
  return Object.entries(data as Record<string, unknown>)
    .filter(([k, v]) => SECRET_FIELD.test(k) && typeof v === 'string')
    .map(([, v]) => v as string)
}

/** The query of a call's input as a record (for `answersFile`). */
function queryOf(input: CallInput): Record<string, unknown> | undefined {
  const q = input.query
  return typeof q === 'object' && q !== null ? (q as Record<string, unknown>) : undefined
}

/** The absolute URL of a download: the base URL (its path kept) + the encoded path + the query. */
function downloadUrl(base: URL, path: string, params: Record<string, unknown> | undefined): URL {
  const url = new URL(base.href)
  url.pathname = `${base.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`
  url.search = ''
  url.hash = ''
  for (const [key, value] of Object.entries(params ?? {})) {
    const values = Array.isArray(value) ? value : [value]
    const name = Array.isArray(value) ? `${key}[]` : key
    for (const v of values)
      if (v !== undefined && v !== null) url.searchParams.append(name, String(v))
  }
  return url
}

/**
 * True when a request failed after a successful status arrived: the body broke off (the
 * connection was reset mid-answer). axios attaches that 2xx response to the error; it is a
 * broken connection, not the service refusing anything.
 */
function brokenAnswer(err: unknown): boolean {
  if (!axios.isAxiosError(err) || !err.response) return false
  return err.response.status >= 200 && err.response.status < 300
}

/** Transport errors raised before a request leaves ScanDesk: the service saw nothing. */
const NOT_SENT =
  /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|ENETDOWN|EHOSTDOWN|CERT_|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO|ERR_TLS|ERR_SSL|ERR_CERT|HOSTNAME_MISMATCH)/

/**
 * The failure of a signed-in user's write (not idempotent) whose request may have reached the
 * service before the connection broke or timed out: its message says the change may have been
 * made, so the user checks before sending it again (which could make it twice). Other failures
 * (and sign-in, which is simply tried again) pass unchanged.
 */
function unsureWrite(failure: AppFailure, err: unknown, op: OperationDef, host: string) {
  const { code } = failure.error
  if (op.idempotent || op.auth !== 'user') return failure
  if (code !== 'OFFLINE' && code !== 'TIMEOUT') return failure
  if (!axios.isAxiosError(err) || (!brokenAnswer(err) && NOT_SENT.test(err.code ?? '')))
    return failure
  const what =
    code === 'TIMEOUT'
      ? `The service at ${host} did not answer in time`
      : `The connection to ${host} broke before the service’s answer arrived`
  return new ServiceFailure({
    ...failure.error,
    message: `${what}, so “${op.summary}” may have been done all the same. Check before trying again.`,
  })
}

/** Creates the client of one account (one axios instance, its own sockets). */
export function createAccountClient(options: AccountClientOptions): AccountClient {
  const base = new URL(options.baseUrl)
  if (base.protocol !== 'https:' && base.protocol !== 'http:')
    fail('VALIDATION', 'The account’s address must start with https:// or http://.')
  const limits: ClientLimits = { ...DEFAULT_LIMITS, ...options.limits }
  const host = base.host
  const httpAgent = new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS_PER_ACCOUNT })
  const httpsAgent = new https.Agent({
    keepAlive: true,
    maxSockets: MAX_SOCKETS_PER_ACCOUNT,
    rejectUnauthorized: true,
    ...(options.caBundle ? { ca: [...tls.rootCertificates, options.caBundle.toString()] } : {}),
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

  function operation(opId: string): OperationDef {
    const op = findOperation(opId)
    if (!op)
      fail('UNKNOWN_OPERATION', `ScanDesk does not know the operation "${opId.slice(0, 60)}".`)
    if (!inRelease(op, options.release))
      fail(
        'NOT_IN_RELEASE',
        `“${op.summary}” is not available in release ${options.release} of the service, which this account uses.`,
      )
    return op
  }

  function blocked(): void {
    const why = options.networkBlocked?.()
    if (why) fail('OFFLINE', why)
  }

  async function call(opId: string, input: CallInput = {}, callOptions: CallOptions = {}) {
    const op = operation(opId)
    const response = await exchange(op, input, callOptions, null)
    return readAnswer(op, response).data
  }

  async function read(
    opId: string,
    input: CallInput,
    validators: Validators | null,
    callOptions: CallOptions = {},
  ): Promise<ReadOutcome> {
    const op = operation(opId)
    if (op.method !== 'GET') fail('BAD_REQUEST', `“${op.summary}” is not a read.`)
    const response = await exchange(op, input, callOptions, validators)
    const header = (name: string) => {
      const value: unknown = response.headers[name]
      return typeof value === 'string' && value.length <= 512 ? value : null
    }
    const fresh = { etag: header('etag'), lastModified: header('last-modified') }
    if (response.status === 304)
      return { notModified: true, data: undefined, warnings: [], tolerated: [], ...fresh }
    const answer = readAnswer(op, response, callOptions.tolerant === true)
    return { notModified: false, ...answer, ...fresh }
  }

  /** Sends one request of `op` (retried when idempotent) and returns its 2xx (or 304) answer. */
  async function exchange(
    op: OperationDef,
    input: CallInput,
    callOptions: CallOptions,
    validators: Validators | null,
  ): Promise<AxiosResponse<string>> {
    if (op.responseKind === 'file' || answersFile(op.id, queryOf(input)))
      fail('BAD_REQUEST', `“${op.summary}” is a download; use the download action instead.`)
    const request = prepareRequest(op, input)
    blocked()
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'x-api-key': options.apiKey,
    }
    if (options.userAgent) headers['User-Agent'] = options.userAgent
    if (request.data !== undefined) headers['Content-Type'] = 'application/json'
    if (validators?.etag) headers['If-None-Match'] = validators.etag
    if (validators?.lastModified) headers['If-Modified-Since'] = validators.lastModified
    const auth = op.auth === 'user' ? await options.getAuth() : null
    if (op.auth === 'user' && !auth) fail('NOT_SIGNED_IN', 'Sign in to this account first.')
    if (auth) headers.Authorization = `${auth.scheme} ${auth.token}`
    const redact = redactor([options.apiKey, auth?.token, ...bodySecrets(request.data)])

    const accountSignal = options.accountSignal?.()
    const userSignal = callOptions.signal
    if (userSignal?.aborted || accountSignal?.aborted)
      fail('CANCELLED', 'The request was cancelled.')
    // One controller per call, its deadline timer cleared when the call ends (cheaper than
    // AbortSignal.timeout + AbortSignal.any, whose timers stay armed until they fire).
    const controller = new AbortController()
    // An abort also ends the wait between retries (axios-retry does not watch the signal there).
    let stop: (reason: unknown) => void = () => undefined
    const stopped = new Promise<never>((_resolve, reject) => {
      stop = reject
    })
    stopped.catch(() => undefined)
    const deadline = { hit: false }
    const timer = setTimeout(() => {
      deadline.hit = true
      controller.abort()
      stop(new axios.CanceledError())
    }, callOptions.deadlineMs ?? limits.deadlineMs)
    timer.unref()
    const onUserAbort = () => {
      controller.abort()
      stop(new axios.CanceledError())
    }
    userSignal?.addEventListener('abort', onUserAbort, { once: true })
    accountSignal?.addEventListener('abort', onUserAbort, { once: true })
    try {
      const sent = instance.request<string>({
        method: op.method,
        url: request.url,
        params: request.params,
        data: request.data,
        headers,
        signal: controller.signal,
        'axios-retry': { retries: op.idempotent ? limits.retries : 0 },
        ...(validators
          ? {
              validateStatus: (status: number) => (status >= 200 && status < 300) || status === 304,
            }
          : {}),
      })
      sent.catch(() => undefined)
      return await Promise.race([sent, stopped])
    } catch (err) {
      const cancelled = !!userSignal?.aborted || !!accountSignal?.aborted
      const failure = translate(err, deadline.hit, cancelled, redact)
      if (cancelled) throw failure
      throw missingOperation(failure, op, options.release) ?? unsureWrite(failure, err, op, host)
    } finally {
      clearTimeout(timer)
      userSignal?.removeEventListener('abort', onUserAbort)
      accountSignal?.removeEventListener('abort', onUserAbort)
    }
  }

  async function probe(
    probeOptions: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<AppFailure | null> {
    try {
      blocked()
      await instance.request<string>({
        method: 'GET',
        url: '',
        headers: {
          Accept: '*/*',
          ...(options.userAgent ? { 'User-Agent': options.userAgent } : {}),
        },
        timeout: probeOptions.timeoutMs ?? 5_000,
        validateStatus: () => true,
        maxContentLength: 64 * 1024,
        signal:
          probeOptions.signal ?? AbortSignal.timeout((probeOptions.timeoutMs ?? 5_000) + 1_000),
        'axios-retry': { retries: 0 },
      })
      return null
    } catch (err) {
      if (err instanceof AppFailure) return err
      // Too large an answer still means the service is there.
      if (axios.isAxiosError(err) && /maxContentLength/.test(err.message)) return null
      return translate(err, false, !!probeOptions.signal?.aborted, redactor([]))
    }
  }

  function translate(
    err: unknown,
    deadlineHit: boolean,
    cancelled: boolean,
    redact: Redact,
  ): AppFailure {
    if (err instanceof AppFailure) return err
    if (!axios.isAxiosError(err))
      return new ServiceFailure({
        code: 'INTERNAL',
        message: 'The request failed inside ScanDesk.',
      })
    if (cancelled) return transportFailure(err.code, host, 'cancelled')
    if (brokenAnswer(err))
      return transportFailure('ECONNRESET', host, deadlineHit ? 'deadline' : null)
    if (err.response)
      return errorFromResponse(
        err.response as AxiosResponse<string>,
        redact,
        limits.retryAfterCapMs,
      )
    if (deadlineHit) return transportFailure(err.code, host, 'deadline')
    if (err.code === 'ERR_CANCELED') return transportFailure(err.code, host, 'cancelled')
    if (/maxContentLength/.test(err.message))
      return new ServiceFailure({
        code: 'TOO_LARGE',
        message: `The answer from the service is larger than the ${Math.round(limits.maxContentLength / 1048576)} MiB limit.`,
      })
    if (/maxBodyLength/.test(err.message) || err.code === 'ERR_FR_MAX_BODY_LENGTH_EXCEEDED')
      return new ServiceFailure({
        code: 'TOO_LARGE',
        message: 'The request is larger than ScanDesk sends in one call.',
      })
    return transportFailure(err.code, host, null)
  }

  async function download(
    opId: string,
    input: CallInput,
    sink: StreamSink,
    streamOptions: StreamOptions = {},
  ): Promise<StreamResult> {
    const op = operation(opId)
    // A file operation, or the one JSON operation that answers a file with its query (an SAQ's
    // PDF: `saq.show` with format=pdf).
    if ((op.responseKind !== 'file' && !answersFile(opId, queryOf(input))) || op.method !== 'GET')
      fail('BAD_REQUEST', `“${op.summary}” is not a download.`)
    const request = prepareRequest(op, input)
    blocked()
    const headers: Record<string, string> = {
      Accept: '*/*',
      'Accept-Encoding': 'identity',
      'x-api-key': options.apiKey,
    }
    if (options.userAgent) headers['User-Agent'] = options.userAgent
    const auth = op.auth === 'user' ? await options.getAuth() : null
    if (op.auth === 'user' && !auth) fail('NOT_SIGNED_IN', 'Sign in to this account first.')
    if (auth) headers.Authorization = `${auth.scheme} ${auth.token}`
    const accountSignal = options.accountSignal?.()
    const signals = [streamOptions.signal, accountSignal].filter((x): x is AbortSignal => !!x)
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0]
    return streamRequest(
      {
        url: downloadUrl(base, request.url, request.params),
        headers,
        httpAgent,
        httpsAgent,
        proxy: options.proxy,
        redact: redactor([options.apiKey, auth?.token]),
        deadlineMs: limits.downloadDeadlineMs,
        idleMs: limits.idleMs,
      },
      sink,
      { ...streamOptions, ...(signal ? { signal } : {}) },
    )
  }

  return {
    baseUrl: options.baseUrl,
    release: options.release,
    call,
    read,
    probe,
    download,
    close() {
      httpAgent.destroy()
      httpsAgent.destroy()
    },
  }
}
