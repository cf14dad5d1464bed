import { AppFailure, fail } from '@contract/errors'
import type { AccountClient } from '../http/client'
import { ServiceFailure } from '../http/errors'

/** What the user sees when the service refuses the user name or password. */
export const WRONG_PASSWORD = 'The user name or password is not correct.'
/** What the user sees when the service refuses the API key. */
export const WRONG_API_KEY =
  'The service did not accept the API key. Check the API key of this account (it is sent with every request).'
/** What the user sees for an account with two-factor authentication (not supported yet). */
export const TWO_FACTOR_LATER =
  'This account uses two-factor authentication; sign-in with 2FA arrives in the next version.'

const TWO_FACTOR = /two[\s_-]?factor|2fa|\botp\b|mfa/i
const API_KEY = /api[\s_-]?key/i

/** Turns a refused sign-in into a message that says which credential is wrong. */
export function signInFailure(err: unknown): unknown {
  if (!(err instanceof AppFailure)) return err
  const { code } = err.error
  if (code !== 'UNAUTHORIZED' && code !== 'FORBIDDEN') return err
  const detail = err instanceof ServiceFailure ? (err.serviceDetail ?? '') : ''
  const status = err.error.status
  if (API_KEY.test(detail))
    return new AppFailure({ code: 'UNAUTHORIZED', message: WRONG_API_KEY, status })
  if (TWO_FACTOR.test(detail))
    return new AppFailure({ code: 'UNAUTHORIZED', message: TWO_FACTOR_LATER, status })
  return new AppFailure({ code: 'UNAUTHORIZED', message: WRONG_PASSWORD, status })
}

/**
 * Signs in with user name and password through `auth.sign_in`; resolves to the session token.
 * A second-factor challenge is refused with a clear message until 2FA sign-in arrives.
 */
export async function signInWithPassword(
  client: AccountClient,
  username: string,
  password: string,
  signal?: AbortSignal,
): Promise<string> {
  let answer: unknown
  try {
    answer = await client.call('auth.sign_in', { body: { username, password } }, { signal })
  } catch (err) {
    throw signInFailure(err)
  }
  const a = (answer ?? {}) as Record<string, unknown>
  if (typeof a.token === 'string' && a.token.length > 0) return a.token
  if (a.two_factor_required === true || Object.keys(a).some((k) => TWO_FACTOR.test(k)))
    fail('UNAUTHORIZED', TWO_FACTOR_LATER)
  return fail('BAD_RESPONSE', 'The service answered the sign-in without a session token.')
}
