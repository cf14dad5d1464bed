import type { Handler, Handlers, Row, SandboxContext, SandboxRequest } from '../../types'
import { callerOf } from './auth-handlers'
import { logOtp, newOtp, newRecoveryCodes, userMethods } from './tokens'
import {
  base32Secret,
  checkPassword,
  maskPhone,
  USERS,
  userAttrs,
  userInternal,
  type PendingTwoFactor,
} from './users'

/** The caller's user row (404 when it was deleted meanwhile). */
export function me(req: SandboxRequest, ctx: SandboxContext): Row {
  return ctx.db.get(USERS, callerOf(req, ctx).userId) ?? ctx.notFound('user')
}

/** Refuses security-sensitive changes made through an impersonation session. */
export function refuseWhileImpersonating(req: SandboxRequest, ctx: SandboxContext): void {
  if (req.caller?.impersonatorId) return ctx.error(403, 'not allowed while impersonating this user')
}

/** A single envelope of a row. */
export function single(row: Row): { status: number; body: unknown } {
  return { status: 200, body: { data: { id: row.id, type: row.type, attributes: row.attributes } } }
}

const COUNTRIES: Record<string, string> = {
  '1': 'US',
  '44': 'GB',
  '49': 'DE',
  '33': 'FR',
  '31': 'NL',
  '34': 'ES',
  '39': 'IT',
  '41': 'CH',
  '61': 'AU',
  '81': 'JP',
  '91': 'IN',
}

/** Normalises a phone number to E.164 and finds its country (by a small prefix table). */
export function lookupPhone(phone: string) {
  const digits = phone.replace(/\D/g, '')
  const prefix = ['1', '2', '3'].map((n) => digits.slice(0, Number(n))).find((p) => COUNTRIES[p])
  const valid = digits.length >= 8 && digits.length <= 15 && !digits.startsWith('0')
  return {
    phone_number: `+${digits}`,
    valid,
    country_code: valid && prefix ? prefix : null,
    country: valid && prefix ? COUNTRIES[prefix] : null,
    can_receive_sms: valid && prefix !== undefined,
  }
}

const otpauthUri = (email: string, secret: string): string =>
  `otpauth://totp/ScanDesk:${encodeURIComponent(email)}?secret=${secret}&issuer=ScanDesk&digits=6&period=30`

/**
 * Starts an enrolment. app: a new provisioning secret and otpauth URI (the sandbox logs the code
 * it will accept, as there is no real TOTP); sms: sends a code to the given (or stored) phone.
 * The current second factor stays active until the enrolment is verified.
 */
const enable: Handler<'user.two_factor_enable'> = (req, ctx) => {
  const user = me(req, ctx)
  const { method, phone } = req.body
  const code = newOtp(ctx)
  const pending: PendingTwoFactor = { method, code, issued_at: ctx.now().toISOString() }
  const email = userAttrs(user).email
  if (method === 'app') {
    pending.secret = base32Secret(ctx)
    ctx.db.update(USERS, user.id, {}, { pending_two_factor: pending })
    logOtp(ctx, user, code, '2fa setup')
    const data = { method, secret: pending.secret, otpauth_uri: otpauthUri(email, pending.secret) }
    return { status: 200, body: { data } }
  }
  const number = phone ?? userInternal(user).phone
  if (!number) return ctx.invalid({ phone: ['is required for SMS codes'] })
  const found = lookupPhone(number)
  if (!found.can_receive_sms) return ctx.invalid({ phone: ['cannot receive SMS codes'] })
  pending.phone = found.phone_number
  ctx.db.update(USERS, user.id, {}, { pending_two_factor: pending })
  logOtp(ctx, user, code, `2fa setup, sms to ${maskPhone(found.phone_number)}`)
  return { status: 200, body: { data: { method, phone_number: maskPhone(found.phone_number) } } }
}

/** Finishes an enrolment; the first one also generates recovery codes (returned once). */
const verify: Handler<'user.two_factor_verify'> = (req, ctx) => {
  const user = me(req, ctx)
  const internal = userInternal(user)
  const pending = internal.pending_two_factor
  if (!pending) return ctx.error(409, 'no two-factor setup in progress: enable it first')
  if (req.body.code !== pending.code) return ctx.invalid({ code: ['is invalid'] })
  const attrs = userAttrs(user)
  const fresh = (internal.recovery_codes ?? []).length === 0
  const codes = fresh ? newRecoveryCodes(ctx) : undefined
  const now = ctx.now().toISOString()
  const updated = ctx.db.update(
    USERS,
    user.id,
    {
      two_factor_enabled: true,
      two_factor_method: attrs.two_factor_enabled ? attrs.two_factor_method : pending.method,
      ...(pending.phone ? { phone_number: maskPhone(pending.phone) } : {}),
      updated_at: now,
    },
    {
      pending_two_factor: null,
      ...(pending.secret ? { otp_secret: pending.secret } : {}),
      ...(pending.phone ? { phone: pending.phone } : {}),
      ...(codes ? { recovery_codes: codes, recovery_codes_generated_at: now } : {}),
    },
  )
  const data = {
    two_factor_enabled: true,
    two_factor_method: updated.attributes.two_factor_method,
    ...(codes ? { recovery_codes: codes } : {}),
  }
  return { status: 200, body: { data } }
}

const disable: Handler<'user.two_factor_disable'> = (req, ctx) => {
  refuseWhileImpersonating(req, ctx)
  const user = me(req, ctx)
  if (!checkPassword(user, req.body.password)) return ctx.invalid({ password: ['is incorrect'] })
  const updated = ctx.db.update(
    USERS,
    user.id,
    { two_factor_enabled: false, two_factor_method: null, updated_at: ctx.now().toISOString() },
    {
      otp_secret: null,
      pending_two_factor: null,
      recovery_codes: [],
      recovery_codes_generated_at: null,
    },
  )
  return single(updated)
}

const phoneLookup: Handler<'user.phone_lookup'> = (req) => ({
  status: 200,
  body: { data: lookupPhone(req.body.phone) },
})

const defaultMethod: Handler<'user.default_two_factor_method'> = (req, ctx) => {
  const user = me(req, ctx)
  const method = req.body.method
  if (!userAttrs(user).two_factor_enabled) return ctx.error(409, 'two-factor authentication is off')
  if (!userMethods(user).includes(method)) return ctx.invalid({ method: ['is not set up'] })
  return single(
    ctx.db.update(USERS, user.id, {
      two_factor_method: method,
      updated_at: ctx.now().toISOString(),
    }),
  )
}

const generateRecoveryCodes: Handler<'user.generate_recovery_codes'> = (req, ctx) => {
  const user = me(req, ctx)
  if (!userAttrs(user).two_factor_enabled) return ctx.error(409, 'two-factor authentication is off')
  const codes = newRecoveryCodes(ctx)
  const now = ctx.now().toISOString()
  ctx.db.update(USERS, user.id, {}, { recovery_codes: codes, recovery_codes_generated_at: now })
  return { status: 200, body: { data: { recovery_codes: codes, generated_at: now } } }
}

/** Decided: the codes themselves are shown once; afterwards only a count and masked forms. */
const recoveryCodes: Handler<'user.recovery_codes'> = (req, ctx) => {
  const internal = userInternal(me(req, ctx))
  const codes = internal.recovery_codes ?? []
  return {
    status: 200,
    body: {
      data: {
        remaining: codes.length,
        masked_codes: codes.map((c) => `****-**${c.slice(-2)}`),
        generated_at: internal.recovery_codes_generated_at ?? null,
      },
    },
  }
}

/** Handlers of the user group's second-factor operations. */
export const twoFactorHandlers: Handlers = {
  'user.two_factor_enable': enable,
  'user.two_factor_verify': verify,
  'user.two_factor_disable': disable,
  'user.phone_lookup': phoneLookup,
  'user.default_two_factor_method': defaultMethod,
  'user.generate_recovery_codes': generateRecoveryCodes,
  'user.recovery_codes': recoveryCodes,
}
