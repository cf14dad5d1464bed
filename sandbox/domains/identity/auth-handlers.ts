import type { Caller, Handler, Handlers, Row, SandboxContext, SandboxRequest } from '../../types'
import { ROOT_ORGANIZATION } from '../../engine/generic'
import {
  CHALLENGES,
  completeChallenge,
  consumeLinkToken,
  createChallenge,
  issueLinkToken,
  logOtp,
  newOtp,
  openChallenge,
  rejectCode,
  tooManyRequests,
  userMethods,
  type ChallengeInternal,
} from './tokens'
import {
  checkPassword,
  findUserByEmail,
  ORGANIZATIONS,
  passwordInternal,
  USERS,
  userAttrs,
  userInternal,
} from './users'

/** The authenticated caller (the engine guarantees one for auth 'user' operations). */
export function callerOf(req: SandboxRequest, ctx: SandboxContext): Caller {
  if (!req.caller) return ctx.error(401, 'Unauthorized')
  return req.caller
}

const signIn: Handler<'auth.sign_in'> = (req, ctx) => {
  const { username, password } = req.body
  const user = findUserByEmail(ctx, username)
  if (!user || !checkPassword(user, password)) return ctx.error(401, 'invalid username or password')
  if (!userAttrs(user).confirmed) {
    return ctx.error(401, 'account not confirmed: use the link in the confirmation e-mail')
  }
  if (userMethods(user).length === 0) {
    return { status: 200, body: { token: ctx.sessions.create(user.id) } }
  }
  const challenge = createChallenge(ctx, user)
  const a = challenge.attributes
  return {
    status: 200,
    body: {
      two_factor_required: true,
      otp_token: (challenge.internal as ChallengeInternal).otp_token,
      methods: a.methods,
      default_method: a.default_method,
      expires_at: a.expires_at,
    },
  }
}

/** Accepts the app code issued for the challenge, or its current SMS code. */
const twoFactorCheck: Handler<'auth.two_factor_check'> = (req, ctx) => {
  const { otp_token, code } = req.body
  const { challenge, user } = openChallenge(ctx, otp_token)
  const internal = challenge.internal as ChallengeInternal
  if (code !== internal.app_code && code !== internal.sms_code) rejectCode(ctx, challenge)
  return completeChallenge(ctx, challenge, user)
}

const smsSend: Handler<'auth.sms_otp_send'> = (req, ctx) => {
  const { challenge, user } = openChallenge(ctx, req.body.otp_token)
  if (!userMethods(user).includes('sms')) {
    return ctx.invalid({ otp_token: ['has no SMS method: no phone number on file'] })
  }
  const internal = challenge.internal as ChallengeInternal
  const now = ctx.now().getTime()
  const cooldownMs = ctx.options.smsCooldownMs
  if (internal.sms_sent_at !== null && now - internal.sms_sent_at < cooldownMs) {
    const wait = Math.ceil((internal.sms_sent_at + cooldownMs - now) / 1000)
    return tooManyRequests(`an SMS code was sent recently; retry in ${wait} s`, wait)
  }
  const code = newOtp(ctx)
  ctx.db.update(CHALLENGES, challenge.id, {}, { sms_code: code, sms_sent_at: now })
  const phone = String(userAttrs(user).phone_number)
  logOtp(ctx, user, code, `sms to ${phone}`)
  return {
    status: 200,
    body: {
      data: {
        sent: true,
        phone_number: phone,
        resend_after_seconds: Math.ceil(cooldownMs / 1000),
        expires_at: challenge.attributes.expires_at,
      },
    },
  }
}

const smsVerify: Handler<'auth.sms_otp_verify'> = (req, ctx) => {
  const { otp_token, code } = req.body
  const { challenge, user } = openChallenge(ctx, otp_token)
  const internal = challenge.internal as ChallengeInternal
  if (internal.sms_code === null || code !== internal.sms_code) rejectCode(ctx, challenge)
  return completeChallenge(ctx, challenge, user)
}

const recoverySignIn: Handler<'auth.sign_in_recovery_code'> = (req, ctx) => {
  const { otp_token, recovery_code } = req.body
  const { challenge, user } = openChallenge(ctx, otp_token)
  const codes = userInternal(user).recovery_codes ?? []
  const wanted = recovery_code.trim().toLowerCase()
  if (!codes.includes(wanted)) rejectCode(ctx, challenge)
  ctx.db.update(USERS, user.id, {}, { recovery_codes: codes.filter((c) => c !== wanted) })
  return completeChallenge(ctx, challenge, user)
}

/** Ends a Bearer session; an access token (Basic) is revoked by user.revoke_access_token instead. */
const signOut: Handler<'auth.sign_out'> = (req, ctx) => {
  const caller = callerOf(req, ctx)
  if (caller.via === 'session') ctx.sessions.revoke(caller.token)
  return { status: 200, body: { data: { success: true } } }
}

/** SSO links sign in without a second factor (the identity provider did that). */
const ssoLogin: Handler<'auth.sso_login'> = (req, ctx) => {
  const user = consumeLinkToken(ctx, 'sso', req.body.sso_token)
  if (!userAttrs(user).confirmed) return ctx.error(401, 'account not confirmed')
  return { status: 200, body: { token: ctx.sessions.create(user.id) } }
}

const confirmUser: Handler<'auth.confirm_user'> = (req, ctx) => {
  const user = consumeLinkToken(ctx, 'confirmation', req.body.confirmation_token)
  const status = userAttrs(user).status === 'invited' ? 'invited' : 'active'
  const now = ctx.now().toISOString()
  ctx.db.update(USERS, user.id, { confirmed: true, status, updated_at: now })
  return {
    status: 200,
    body: { data: { id: user.id, email: userAttrs(user).email, confirmed: true } },
  }
}

const acceptInvitation: Handler<'auth.accept_invitation'> = (req, ctx) => {
  const { invitation_token, password, first_name, last_name } = req.body
  const user = consumeLinkToken(ctx, 'invitation', invitation_token)
  ctx.db.update(
    USERS,
    user.id,
    {
      first_name,
      last_name,
      confirmed: true,
      status: 'active',
      updated_at: ctx.now().toISOString(),
    },
    passwordInternal(ctx, password),
  )
  return {
    status: 200,
    body: {
      token: ctx.sessions.create(user.id),
      data: { id: user.id, email: userAttrs(user).email },
    },
  }
}

/** Always 200, so the answer does not reveal whether the account exists. */
const passwordResetRequest: Handler<'auth.password_reset_request'> = (req, ctx) => {
  const user = findUserByEmail(ctx, req.body.email)
  if (user && userAttrs(user).status !== 'invited') issueLinkToken(ctx, 'password_reset', user)
  return { status: 200, body: { data: { success: true } } }
}

const passwordResetConfirm: Handler<'auth.password_reset_confirm'> = (req, ctx) => {
  const { reset_token, password } = req.body
  const user = consumeLinkToken(ctx, 'password_reset', reset_token)
  ctx.db.update(
    USERS,
    user.id,
    { updated_at: ctx.now().toISOString() },
    passwordInternal(ctx, password),
  )
  return { status: 200, body: { data: { success: true } } }
}

/** Organizations an administrator may act in: their own and those it manages (root: all). */
export function managesOrganization(ctx: SandboxContext, caller: Caller, orgId: string): boolean {
  if (caller.organizationId === ROOT_ORGANIZATION || caller.organizationId === orgId) return true
  return ctx.db.get(ORGANIZATIONS, orgId)?.attributes.parent_id === caller.organizationId
}

const impersonate: Handler<'auth.impersonate'> = (req, ctx) => {
  const caller = callerOf(req, ctx)
  if (caller.role !== 'administrator')
    return ctx.error(403, 'only administrators can impersonate users')
  if (caller.impersonatorId)
    return ctx.error(409, 'already impersonating: stop impersonating first')
  const targetId = req.body.user_id
  const target: Row | undefined = ctx.db.get(USERS, targetId)
  if (!target || !managesOrganization(ctx, caller, userAttrs(target).organization_id)) {
    return ctx.notFound(`user ${targetId}`)
  }
  if (target.id === caller.userId) return ctx.invalid({ user_id: ['cannot be yourself'] })
  const attrs = userAttrs(target)
  if (attrs.role === 'administrator') return ctx.error(403, 'administrators cannot be impersonated')
  if (attrs.status !== 'active') return ctx.error(409, 'the user has not activated the account yet')
  const token = ctx.sessions.create(target.id, { impersonatorId: caller.userId })
  ctx.log(`[impersonation] ${caller.userId} acts as ${target.id}`)
  return {
    status: 200,
    body: {
      token,
      data: { user_id: target.id, impersonator_id: caller.userId, email: attrs.email },
    },
  }
}

/** Ends the impersonation session and gives the administrator a session of their own. */
const stopImpersonation: Handler<'auth.stop_impersonation'> = (req, ctx) => {
  const caller = callerOf(req, ctx)
  if (!caller.impersonatorId) {
    return { status: 200, body: { data: { stopped: false, user_id: caller.userId } } }
  }
  ctx.sessions.revoke(caller.token)
  const admin = caller.impersonatorId
  ctx.log(`[impersonation] ${admin} stopped acting as ${caller.userId}`)
  return {
    status: 200,
    body: { token: ctx.sessions.create(admin), data: { stopped: true, user_id: admin } },
  }
}

/** Handlers of the auth group, keyed by operation id. */
export const authHandlers: Handlers = {
  'auth.sign_in': signIn,
  'auth.two_factor_check': twoFactorCheck,
  'auth.sms_otp_send': smsSend,
  'auth.sms_otp_verify': smsVerify,
  'auth.sign_in_recovery_code': recoverySignIn,
  'auth.sign_out': signOut,
  'auth.sso_login': ssoLogin,
  'auth.confirm_user': confirmUser,
  'auth.accept_invitation': acceptInvitation,
  'auth.password_reset_request': passwordResetRequest,
  'auth.password_reset_confirm': passwordResetConfirm,
  'auth.impersonate': impersonate,
  'auth.stop_impersonation': stopImpersonation,
}
