import { AppFailure, fail } from '@contract/errors'
import type { SecondFactorMethod } from '@contract/sessions'
import type { AccountClient } from '../http/client'
import { ServiceFailure } from '../http/errors'

/** What the user sees when the service refuses the user name or password. */
export const WRONG_PASSWORD = 'The user name or password is not correct.'
/** What the user sees when the service refuses the API key. */
export const WRONG_API_KEY =
  'The service did not accept the API key. Check the API key of this account (it is sent with every request).'
/** What the user sees for a wrong or reused one-time code (the challenge stays open). */
export const WRONG_CODE = 'That code is not correct or was already used. Try again.'
/** What the user sees when a sign-in challenge expired or was closed. */
export const CHALLENGE_OVER = 'The sign-in took too long; sign in again.'
/** What the user sees when the service refuses an access token. */
export const WRONG_ACCESS_TOKEN =
  'The service did not accept the access token. Check it, or generate a new one from a signed-in account.'

const API_KEY = /api[\s_-]?key/i
const CHALLENGE_GONE = /expired|sign in again|too many|invalid challenge|closed/i
const METHODS: readonly SecondFactorMethod[] = ['app', 'sms', 'recovery']

/** A second-factor challenge as the service answered it (main only: it holds the otp_token). */
export interface ServiceChallenge {
  otpToken: string
  methods: SecondFactorMethod[]
  defaultMethod: SecondFactorMethod | null
  /** When the service closes it (ISO), or null when it did not say. */
  expiresAt: string | null
}

/** What a password sign-in led to: a session token, or a second-factor challenge. */
export type PasswordAnswer = { token: string } | { challenge: ServiceChallenge }

function detailOf(err: AppFailure): string {
  return err instanceof ServiceFailure ? (err.serviceDetail ?? '') : ''
}

function refused(err: unknown): err is AppFailure {
  return (
    err instanceof AppFailure &&
    (err.error.code === 'UNAUTHORIZED' || err.error.code === 'FORBIDDEN')
  )
}

/** Turns a refused sign-in into a message that says which credential is wrong. */
export function signInFailure(err: unknown): unknown {
  if (!refused(err)) return err
  const status = err.error.status
  if (API_KEY.test(detailOf(err)))
    return new AppFailure({ code: 'UNAUTHORIZED', message: WRONG_API_KEY, status })
  return new AppFailure({ code: 'UNAUTHORIZED', message: WRONG_PASSWORD, status })
}

/** Turns a refused second-factor step into WRONG_CODE (retry) or CHALLENGE_EXPIRED (start over). */
export function challengeFailure(err: unknown): unknown {
  if (!refused(err)) return err
  const detail = detailOf(err)
  const status = err.error.status
  if (API_KEY.test(detail))
    return new AppFailure({ code: 'UNAUTHORIZED', message: WRONG_API_KEY, status })
  if (CHALLENGE_GONE.test(detail))
    return new AppFailure({ code: 'CHALLENGE_EXPIRED', message: CHALLENGE_OVER, status })
  return new AppFailure({ code: 'UNAUTHORIZED', message: WRONG_CODE, status })
}

function challengeOf(a: Record<string, unknown>): ServiceChallenge {
  const methods = (Array.isArray(a.methods) ? a.methods : []).filter((m): m is SecondFactorMethod =>
    METHODS.includes(m as SecondFactorMethod),
  )
  const defaultMethod = METHODS.includes(a.default_method as SecondFactorMethod)
    ? (a.default_method as SecondFactorMethod)
    : (methods[0] ?? null)
  return {
    otpToken: String(a.otp_token),
    methods: methods.length ? methods : ['app'],
    defaultMethod,
    expiresAt: typeof a.expires_at === 'string' ? a.expires_at : null,
  }
}

/** Signs in with user name and password through `auth.sign_in`: a token or a challenge. */
export async function signInWithPassword(
  client: AccountClient,
  username: string,
  password: string,
  signal?: AbortSignal,
): Promise<PasswordAnswer> {
  let answer: unknown
  try {
    answer = await client.call('auth.sign_in', { body: { username, password } }, { signal })
  } catch (err) {
    throw signInFailure(err)
  }
  const a = (answer ?? {}) as Record<string, unknown>
  if (typeof a.token === 'string' && a.token.length > 0) return { token: a.token }
  if (a.two_factor_required === true && typeof a.otp_token === 'string')
    return { challenge: challengeOf(a) }
  return fail('BAD_RESPONSE', 'The service answered the sign-in without a session token.')
}

/** Finishes a challenge with a code of `method`; resolves to the session token. */
export async function finishChallenge(
  client: AccountClient,
  otpToken: string,
  method: SecondFactorMethod,
  code: string,
): Promise<string> {
  const call =
    method === 'recovery'
      ? client.call('auth.sign_in_recovery_code', {
          body: { otp_token: otpToken, recovery_code: code },
        })
      : client.call(method === 'sms' ? 'auth.sms_otp_verify' : 'auth.two_factor_check', {
          body: { otp_token: otpToken, code },
        })
  let answer: unknown
  try {
    answer = await call
  } catch (err) {
    throw challengeFailure(err)
  }
  const token = (answer as { token?: unknown } | null)?.token
  if (typeof token === 'string' && token) return token
  return fail('BAD_RESPONSE', 'The service accepted the code but sent no session token.')
}

/** Asks the service to send the challenge's SMS code; the phone number and the resend wait. */
export async function sendSmsCode(
  client: AccountClient,
  otpToken: string,
): Promise<{ phoneNumber: string; resendAfterMs: number }> {
  let answer: unknown
  try {
    answer = await client.call('auth.sms_otp_send', { body: { otp_token: otpToken } })
  } catch (err) {
    if (err instanceof AppFailure && err.error.code === 'RATE_LIMITED') {
      const wait = err.error.retryAfterMs
      const when = wait !== undefined ? ` in ${Math.max(1, Math.ceil(wait / 1000))} s` : ' shortly'
      fail('RATE_LIMITED', `An SMS code was sent a moment ago; you can send another${when}.`, {
        status: 429,
        ...(wait !== undefined ? { retryAfterMs: wait } : {}),
      })
    }
    throw challengeFailure(err)
  }
  const data = (answer as { data: { phone_number: string; resend_after_seconds: number } }).data
  return { phoneNumber: data.phone_number, resendAfterMs: data.resend_after_seconds * 1000 }
}

// Country calling codes of two digits (ITU); '1' and '7' have one, every other code has three.
const TWO_DIGIT_CODES = new Set(
  '20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 51 52 53 54 55 56 57 58 60 61 62 63 64 65 66 81 82 84 86 90 91 92 93 94 95 98'.split(
    ' ',
  ),
)

/**
 * Masks a phone number but its country code and last 4 digits: "+44 •••• ••8750". Accepts a
 * full number or one the service already masked ("+44 *** *** 8750").
 */
export function maskPhone(phone: string): string {
  const text = phone.trim()
  let code = ''
  let rest = text
  const group = /^\+(\d{1,3})[\s.-]/.exec(text)
  if (group) {
    code = group[1]
    rest = text.slice(group[0].length)
  } else if (text.startsWith('+')) {
    const digits = text.replace(/\D/g, '')
    const len = /^[17]/.test(digits) ? 1 : TWO_DIGIT_CODES.has(digits.slice(0, 2)) ? 2 : 3
    code = digits.slice(0, len)
    rest = digits.slice(len)
  }
  const symbols = [...rest].filter((ch) => /[\d*•xX#]/.test(ch))
  const last = symbols.slice(-4)
  if (symbols.length <= 4 || last.some((ch) => !/\d/.test(ch))) return '•'.repeat(8)
  const hidden = '•'.repeat(symbols.length - 4).match(/.{1,4}/g) ?? []
  return `${code ? `+${code} ` : ''}${hidden.join(' ')}${last.join('')}`
}

/**
 * Checks an access token with `user.token_validity` and reads the user's e-mail with
 * `user.show` (the client sends it as Basic). A refusal says which credential is wrong.
 */
export async function checkAccessToken(client: AccountClient): Promise<{ email: string }> {
  try {
    const validity = (await client.call('user.token_validity')) as { data: { valid: boolean } }
    if (!validity.data.valid) fail('UNAUTHORIZED', WRONG_ACCESS_TOKEN)
    const user = (await client.call('user.show')) as { data: { attributes: { email: string } } }
    return { email: user.data.attributes.email }
  } catch (err) {
    if (!refused(err)) throw err
    const status = err.error.status
    const message = API_KEY.test(detailOf(err)) ? WRONG_API_KEY : WRONG_ACCESS_TOKEN
    throw new AppFailure({ code: 'UNAUTHORIZED', message, status })
  }
}
