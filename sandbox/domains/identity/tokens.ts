import type { Row, SandboxContext, SandboxResponse } from '../../types'
import { errorBody } from '../../engine/errors'
import { randomHex, USERS, userAttrs, userInternal, type TwoFactorMethod } from './users'

/**
 * One-time codes, sign-in challenges and link tokens (SSO, confirmation, invitation, password
 * reset). Internal collections: their rows are never listed by a public operation.
 */

/** Internal collection of sign-in challenges. */
export const CHALLENGES = 'otp_challenges'
/** Internal collection of link tokens. */
export const LINK_TOKENS = 'link_tokens'

/** How long a sign-in challenge lives. */
export const CHALLENGE_TTL_MS = 5 * 60_000
/** Wrong codes a challenge accepts before it is closed. */
export const MAX_ATTEMPTS = 5

/** Kinds of link token and how long each lives. */
export const LINK_TTL_MS = {
  sso: 60 * 60_000,
  password_reset: 2 * 60 * 60_000,
  confirmation: 7 * 24 * 60 * 60_000,
  invitation: 7 * 24 * 60 * 60_000,
} as const

/** A kind of link token. */
export type LinkKind = keyof typeof LINK_TTL_MS

/** The message of a wrong, reused or closed code. */
export const BAD_CODE = 'invalid or already used code'

/** A 6-digit one-time code from ctx.rng, or ctx.options.fixedOtp when set. */
export function newOtp(ctx: SandboxContext): string {
  if (ctx.options.fixedOtp) return ctx.options.fixedOtp
  return String(ctx.rng.int(0, 999_999)).padStart(6, '0')
}

/** Writes a one-time code to the sandbox log in the documented form `[otp] email: code`. */
export function logOtp(ctx: SandboxContext, user: Row, code: string, note?: string): void {
  ctx.log(`[otp] ${userAttrs(user).email}: ${code}${note ? ` (${note})` : ''}`)
}

/** Second-factor methods a user can use now (app: provisioned secret; sms: phone on file). */
export function userMethods(user: Row): TwoFactorMethod[] {
  const attrs = userAttrs(user)
  const internal = userInternal(user)
  if (!attrs.two_factor_enabled) return []
  const out: TwoFactorMethod[] = []
  if (internal.otp_secret) out.push('app')
  if (internal.phone) out.push('sms')
  const preferred = attrs.two_factor_method
  return preferred && out.includes(preferred)
    ? [preferred, ...out.filter((m) => m !== preferred)]
    : out
}

/** Internal state of a challenge row. */
export interface ChallengeInternal {
  otp_token: string
  app_code: string | null
  sms_code: string | null
  sms_sent_at: number | null
  attempts: number
  [key: string]: unknown
}

/** Inserts a challenge for `user`; when SMS is the default method, sends the first SMS code. */
export function createChallenge(
  ctx: SandboxContext,
  user: Row,
  fixed?: { otp_token: string; app_code?: string; sms_code?: string },
): Row {
  const methods = userMethods(user)
  const now = ctx.now().getTime()
  const internal: ChallengeInternal = {
    otp_token: fixed?.otp_token ?? `otp-${randomHex(ctx, 40)}`,
    app_code: null,
    sms_code: null,
    sms_sent_at: null,
    attempts: 0,
  }
  if (methods.includes('app') && methods[0] === 'app') {
    internal.app_code = fixed?.app_code ?? newOtp(ctx)
    logOtp(ctx, user, internal.app_code, 'authenticator app')
  } else if (methods[0] === 'sms') {
    internal.sms_code = fixed?.sms_code ?? newOtp(ctx)
    internal.sms_sent_at = now
    logOtp(ctx, user, internal.sms_code, `sms to ${userAttrs(user).phone_number}`)
  }
  const recovery = (userInternal(user).recovery_codes ?? []).length > 0
  return ctx.db.insert(CHALLENGES, {
    id: ctx.db.nextId('otp'),
    type: 'otp_challenge',
    attributes: {
      user_id: user.id,
      methods: recovery ? [...methods, 'recovery'] : methods,
      default_method: methods[0] ?? 'recovery',
      status: 'pending',
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + CHALLENGE_TTL_MS).toISOString(),
    },
    internal,
  })
}

/** The pending challenge for `otpToken` and its user, or a 401 (unknown, used, closed, expired). */
export function openChallenge(
  ctx: SandboxContext,
  otpToken: string,
): { challenge: Row; user: Row } {
  const challenge = ctx.db
    .list(CHALLENGES)
    .find((row) => (row.internal as ChallengeInternal).otp_token === otpToken)
  if (!challenge) ctx.error(401, 'invalid challenge: sign in again')
  if (challenge.attributes.status !== 'pending') ctx.error(401, BAD_CODE)
  if (Date.parse(String(challenge.attributes.expires_at)) <= ctx.now().getTime()) {
    ctx.error(401, 'challenge expired: sign in again')
  }
  const user = ctx.db.get(USERS, String(challenge.attributes.user_id))
  if (!user) ctx.error(401, 'invalid challenge: sign in again')
  return { challenge, user }
}

/** Counts a wrong code (closing the challenge after MAX_ATTEMPTS) and throws 401. */
export function rejectCode(ctx: SandboxContext, challenge: Row): never {
  const internal = challenge.internal as ChallengeInternal
  const attempts = internal.attempts + 1
  ctx.db.update(CHALLENGES, challenge.id, attempts >= MAX_ATTEMPTS ? { status: 'closed' } : {}, {
    attempts,
  })
  if (attempts >= MAX_ATTEMPTS) ctx.error(401, `${BAD_CODE}; too many attempts, sign in again`)
  ctx.error(401, BAD_CODE)
}

/** Marks the challenge used and opens a session for its user: `{token}`. */
export function completeChallenge(ctx: SandboxContext, challenge: Row, user: Row): SandboxResponse {
  ctx.db.update(
    CHALLENGES,
    challenge.id,
    { status: 'completed' },
    { app_code: null, sms_code: null },
  )
  return { status: 200, body: { token: ctx.sessions.create(user.id) } }
}

/** A 429 answer with Retry-After (seconds) in the engine's error-body shape. */
export function tooManyRequests(detail: string, retryAfterSeconds: number): SandboxResponse {
  return {
    status: 429,
    headers: { 'Retry-After': String(retryAfterSeconds) },
    body: errorBody(429, detail),
  }
}

/**
 * Issues a link token of `kind` for a user and logs it (`[invitation] email: token`); earlier
 * unused tokens of the same kind for that user stop working. `fixedToken` is for seeded examples.
 * Other domains (users.invite, users.resend_confirmation) call this too.
 */
export function issueLinkToken(
  ctx: SandboxContext,
  kind: LinkKind,
  user: Row,
  fixedToken?: string,
): string {
  const now = ctx.now().getTime()
  for (const row of ctx.db.list(LINK_TOKENS)) {
    const a = row.attributes
    if (a.kind === kind && a.user_id === user.id && a.used_at === null) {
      ctx.db.update(LINK_TOKENS, row.id, { used_at: new Date(now).toISOString(), superseded: true })
    }
  }
  const token = fixedToken ?? `${kind.replace('_', '-')}-${randomHex(ctx, 40)}`
  ctx.db.insert(LINK_TOKENS, {
    id: ctx.db.nextId('lnk'),
    type: 'link_token',
    attributes: {
      kind,
      user_id: user.id,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + LINK_TTL_MS[kind]).toISOString(),
      used_at: null,
    },
    internal: { token },
  })
  ctx.log(`[${kind.replace('_', '-')}] ${userAttrs(user).email}: ${token}`)
  return token
}

/**
 * Uses a link token once: returns its user, or throws 401 ("invalid or already used …" /
 * "… expired"). The token is marked used before the caller acts on it.
 */
export function consumeLinkToken(ctx: SandboxContext, kind: LinkKind, token: string): Row {
  const label = kind.replace('_', ' ')
  const row = ctx.db
    .list(LINK_TOKENS)
    .find((r) => r.attributes.kind === kind && r.internal?.token === token)
  if (!row || row.attributes.used_at !== null)
    ctx.error(401, `invalid or already used ${label} token`)
  const now = ctx.now()
  if (Date.parse(String(row.attributes.expires_at)) <= now.getTime()) {
    ctx.error(401, `${label} token expired`)
  }
  const user = ctx.db.get(USERS, String(row.attributes.user_id))
  if (!user) ctx.error(401, `invalid or already used ${label} token`)
  ctx.db.update(LINK_TOKENS, row.id, { used_at: now.toISOString() })
  return user
}

/** 10 new recovery codes (`xxxx-xxxx`, hex) from ctx.rng; `first` replaces the first (seed). */
export function newRecoveryCodes(ctx: SandboxContext, first?: string): string[] {
  const codes: string[] = []
  for (let i = 0; i < 10; i++) codes.push(`${randomHex(ctx, 4)}-${randomHex(ctx, 4)}`)
  if (first) codes[0] = first
  return codes
}
