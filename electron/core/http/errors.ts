import { AppFailure, type AppError, type ErrorCode, type FieldErrors } from '@contract/errors'
import { retryAfterMs } from './retry-after'

/** Replaces every known secret in a text; used on anything the service said before we show it. */
export type Redact = (text: string) => string

/** Builds a redactor for the given secrets (empty and very short values are ignored). */
export function redactor(secrets: readonly (string | null | undefined)[]): Redact {
  const list = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4)
  return (text) => {
    let out = text
    for (const s of list) out = out.split(s).join('[redacted]')
    return out
  }
}

/**
 * An AppFailure from the service. `serviceDetail` keeps what the service said (redacted) for
 * core code that must tell causes apart (bad API key vs wrong password); it never crosses a
 * boundary because dispatch only serialises `error`.
 */
export class ServiceFailure extends AppFailure {
  constructor(
    error: AppError,
    readonly serviceDetail: string | null = null,
  ) {
    super(error)
    this.name = 'ServiceFailure'
  }
}

const MAX_TEXT = 300
const MAX_FIELDS = 50

/** Replaces control characters (line breaks, escapes) with spaces and trims. */
export function oneLine(text: string): string {
  let out = ''
  for (const ch of text) {
    const c = ch.charCodeAt(0)
    out += c < 0x20 || c === 0x7f ? ' ' : ch
  }
  return out.replace(/ {2,}/g, ' ').trim()
}

/** Plain, short, one-line text from the service, or null when it is not safe to show. */
export function cleanText(value: unknown, redact: Redact): string | null {
  if (typeof value !== 'string') return null
  const text = oneLine(redact(value))
  if (!text || text.includes('<')) return null
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function addMessages(out: FieldErrors, key: string, value: unknown, redact: Redact): void {
  // Field names come from the service: "constructor" or "__proto__" is a name like any other,
  // never something every object already has (so own properties only, and defined, not set).
  const known = Object.hasOwn(out, key) ? out[key] : undefined
  if (Object.keys(out).length >= MAX_FIELDS && !known) return
  const list = known ?? []
  for (const v of Array.isArray(value) ? value : [value]) {
    const text = cleanText(v, redact)
    if (text && !list.includes(text)) list.push(text)
  }
  if (!known && list.length)
    Object.defineProperty(out, key, {
      value: list,
      enumerable: true,
      writable: true,
      configurable: true,
    })
}

function keyOfPointer(pointer: string): string {
  const parts = pointer
    .replace(/^\/?data\/attributes\/?/, '')
    .split('/')
    .filter(Boolean)
  return parts.length ? parts.join('.') : '_'
}

/**
 * Field errors from an error body in any of the shapes deployments use: `{fields: {f: [..]}}`,
 * `{errors: {f: [..]}}` or `{errors: [{source: {pointer | parameter}, detail}]}`.
 */
export function fieldErrorsOf(body: unknown, redact: Redact): FieldErrors | undefined {
  if (!isObject(body)) return undefined
  const out: FieldErrors = {}
  for (const map of [body.fields, body.errors]) {
    if (!isObject(map)) continue
    for (const [key, value] of Object.entries(map)) addMessages(out, key, value, redact)
  }
  // A body may carry both shapes for the same fields (a map and JSON:API items whose detail
  // repeats the message with the field's name): a field the map named keeps the map's messages.
  const named = new Set(Object.keys(out))
  if (Array.isArray(body.errors)) {
    for (const item of body.errors) {
      if (!isObject(item) || !isObject(item.source)) continue
      const pointer = item.source.pointer
      const parameter = item.source.parameter
      const key =
        typeof pointer === 'string'
          ? keyOfPointer(pointer)
          : typeof parameter === 'string'
            ? parameter
            : null
      if (key && !named.has(key)) addMessages(out, key, item.detail ?? item.title, redact)
    }
  }
  return Object.keys(out).length ? out : undefined
}

/** The service's own one-line explanation from an error body, if it gave one. */
export function detailOf(body: unknown, redact: Redact): string | null {
  if (!isObject(body)) return null
  if (Array.isArray(body.errors)) {
    for (const item of body.errors) {
      if (!isObject(item)) continue
      const text = cleanText(item.detail, redact) ?? cleanText(item.title, redact)
      if (text) return text
    }
  }
  return cleanText(body.error, redact) ?? cleanText(body.message, redact)
}

/** Everything the status mapping needs from one answer. */
export interface ErrorAnswer {
  status: number
  /** The parsed JSON body, or undefined when the body was empty or not JSON. */
  json: unknown
  /** True when the body looked like an HTML page. */
  html: boolean
  retryAfter: unknown
  /** The longest Retry-After the client waits out; a 503 asking for longer is RATE_LIMITED. */
  retryCeilingMs?: number
}

/** Past this a wait is not given in hours: "over a day" (a junk Retry-After read 277778 h). */
const LONGEST_WAIT_IN_WORDS_MS = 24 * 3_600_000

/** A wait in words: "45 s", "2 min", "3 h", and "over a day" past a day. */
export function waitText(ms: number): string {
  if (ms > LONGEST_WAIT_IN_WORDS_MS) return 'over a day'
  const s = Math.max(1, Math.ceil(ms / 1000))
  if (s < 60) return `${s} s`
  const min = Math.ceil(s / 60)
  if (min < 60) return `${min} min`
  return `${Math.ceil(min / 60)} h`
}

function withDetail(message: string, detail: string | null): string {
  return detail ? `${message} The service said: "${detail}"` : message
}

function failure(
  code: ErrorCode,
  message: string,
  status: number,
  detail: string | null,
  extra: Partial<AppError> = {},
): ServiceFailure {
  return new ServiceFailure({ code, message, status, ...extra }, detail)
}

/** Maps an error status (and its body) to a ServiceFailure with a plain message. */
export function statusFailure(answer: ErrorAnswer, redact: Redact): ServiceFailure {
  const { status, json, html } = answer
  const detail = detailOf(json, redact)
  if (status >= 300 && status < 400)
    return failure(
      'REDIRECT_REFUSED',
      'The service tried to send the request to another address. ScanDesk does not follow redirects, so your credentials stay with this account’s address.',
      status,
      detail,
    )
  const wait = status === 429 || status === 503 ? retryAfterMs(answer.retryAfter) : undefined
  const longWait =
    status === 503 &&
    wait !== undefined &&
    answer.retryCeilingMs !== undefined &&
    wait > answer.retryCeilingMs
  if (status === 429 || longWait)
    return failure(
      'RATE_LIMITED',
      wait !== undefined
        ? `The service asks to wait ${waitText(wait)} before trying again.`
        : 'The service is receiving too many requests. Try again in a moment.',
      status,
      detail,
      wait !== undefined ? { retryAfterMs: wait } : {},
    )
  if (status === 408)
    return failure('TIMEOUT', 'The service gave up waiting for the request.', status, detail)
  if (status >= 500)
    return failure(
      'SERVER',
      wait !== undefined
        ? `The service had a problem (status ${status}). It asks to wait ${waitText(wait)} before trying again.`
        : `The service had a problem (status ${status}). Try again later.`,
      status,
      detail,
      wait !== undefined ? { retryAfterMs: wait } : {},
    )
  if (html)
    return failure(
      'BAD_RESPONSE',
      `The service answered with a web page (status ${status}) instead of data. Check the account’s address; a proxy or gateway may be in the way.`,
      status,
      null,
    )
  switch (status) {
    case 401:
      return failure(
        'UNAUTHORIZED',
        'The service did not accept this account’s credentials. Sign in again.',
        status,
        detail,
      )
    case 403:
      return failure(
        'FORBIDDEN',
        withDetail('This account is not allowed to do that.', detail),
        status,
        detail,
      )
    case 404:
      return failure('NOT_FOUND', 'The service could not find that record.', status, detail)
    case 409:
      return failure(
        'CONFLICT',
        withDetail('The service refused the change because of the current state.', detail),
        status,
        detail,
      )
    case 413:
      return failure('TOO_LARGE', 'The request is too large for the service.', status, detail)
    case 422: {
      const fieldErrors = fieldErrorsOf(json, redact)
      return failure(
        'VALIDATION',
        fieldErrors
          ? 'The service did not accept some of the values.'
          : withDetail('The service did not accept the request.', detail),
        status,
        detail,
        fieldErrors ? { fieldErrors } : {},
      )
    }
    default:
      return failure(
        'BAD_REQUEST',
        withDetail(`The service refused the request (status ${status}).`, detail),
        status,
        detail,
      )
  }
}

const OFFLINE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'ECONNRESET',
  'EPIPE',
  'ERR_NETWORK',
])

const TLS_CODE =
  /^(CERT_|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO|ERR_TLS|ERR_SSL|ERR_CERT|HOSTNAME_MISMATCH)/

/** Maps a failure without an answer (no status) to a ServiceFailure. */
export function transportFailure(
  code: string | undefined,
  host: string,
  why: 'cancelled' | 'deadline' | null,
): ServiceFailure {
  if (why === 'cancelled')
    return new ServiceFailure({ code: 'CANCELLED', message: 'The request was cancelled.' })
  if (why === 'deadline' || code === 'ETIMEDOUT' || code === 'ECONNABORTED')
    return new ServiceFailure({
      code: 'TIMEOUT',
      message: `The service at ${host} did not answer in time.`,
    })
  if (code && TLS_CODE.test(code))
    return new ServiceFailure({
      code: 'OFFLINE',
      message: `The secure connection to ${host} could not be verified (${code}). If the service uses its own certificate authority, add its CA bundle to the account.`,
    })
  if (code && OFFLINE_CODES.has(code))
    return new ServiceFailure({
      code: 'OFFLINE',
      message: `The service at ${host} cannot be reached. Check the network connection.`,
    })
  return new ServiceFailure({
    code: 'OFFLINE',
    message: `The connection to ${host} failed${code ? ` (${code})` : ''}.`,
  })
}
