import { z } from 'zod'
import { ALL_RELEASES } from '../releases'
import { idParam, okResponse } from '../schemas/common'
import { defineGroup, defineOperation } from './types'

/*
 * Sign-in with a second factor (decided here; interface §5.3 leaves the step unshown):
 * POST /auth/sign_in answers 200 either {token} or a challenge
 * {two_factor_required: true, otp_token, methods, default_method}. The challenge lives 5 minutes
 * and is finished by one of auth.two_factor_check (authenticator-app or SMS code),
 * auth.sms_otp_verify (SMS code only) or auth.sign_in_recovery_code (a single-use recovery
 * code). A wrong or reused code answers 401 "invalid or already used code"; an expired
 * challenge 401 "challenge expired"; after 5 wrong codes the challenge is closed.
 * One-time codes are 6 digits. The sandbox does not run real TOTP: for the 'app' method it
 * accepts the code it issued for the challenge and wrote to its log.
 */

/** A second-factor method offered by a sign-in challenge. */
export const twoFactorMethod = z.enum(['app', 'sms', 'recovery'])

/** A one-time code: 6 digits. */
export const otpCode = z.string().regex(/^\d{6}$/, 'must be 6 digits')

/** The challenge token of a sign-in that needs a second factor. */
export const otpToken = z.string().min(1, 'is required').max(200)

/** A one-time token from a link (confirmation, invitation, password reset, SSO). */
export const linkToken = z.string().min(1, 'is required').max(200)

/** A new password (decided here): 10–128 characters. */
export const newPassword = z
  .string()
  .min(10, 'must be at least 10 characters')
  .max(128, 'must be at most 128 characters')

/** An answer that carries a session token (Bearer). */
export const tokenResponse = z.looseObject({ token: z.string().min(1) })

/** The answer of sign-in when the user has two-factor authentication on (decided here). */
export const twoFactorChallenge = z.looseObject({
  two_factor_required: z.literal(true),
  otp_token: z.string().min(1),
  methods: z.array(twoFactorMethod).min(1),
  default_method: twoFactorMethod.optional(),
  expires_at: z.string().optional(),
})

/** Sign-in answer: a token, or a second-factor challenge. */
export const signInResponse = z.union([tokenResponse, twoFactorChallenge])

/** Answer of sending an SMS code (decided here). */
export const smsSentResponse = z.looseObject({
  data: z.looseObject({
    sent: z.literal(true),
    phone_number: z.string(),
    resend_after_seconds: z.number().int(),
    expires_at: z.string(),
  }),
})

/** Answer of starting an impersonation: a session token for the impersonated user. */
export const impersonationResponse = z.looseObject({
  token: z.string().min(1),
  data: z.looseObject({ user_id: z.string(), impersonator_id: z.string(), email: z.string() }),
})

const g = 'auth' as const
const custom = { kind: 'custom' } as const
const open = { auth: 'none', releases: ALL_RELEASES, source: 'decided', sandbox: custom } as const

/** Authentication: sign in and out, second factor, SSO, confirmation, invitation, reset, impersonation. */
export const authOperations = defineGroup([
  defineOperation({
    ...open,
    id: 'auth.sign_in',
    group: g,
    method: 'POST',
    path: '/auth/sign_in',
    body: z.strictObject({
      username: z.string().trim().min(1, 'is required').max(254),
      password: z.string().min(1, 'is required').max(1024),
    }),
    response: signInResponse,
    idempotent: false,
    summary: 'Sign in with username and password (may answer a second-factor challenge)',
    source: 'interface',
    errors: [401, 422],
    example: { body: { username: 'analyst@sandbox.test', password: 'sandbox-password' } },
  }),
  defineOperation({
    ...open,
    id: 'auth.two_factor_check',
    group: g,
    method: 'POST',
    path: '/v2/auth/two_factor_check',
    body: z.strictObject({ otp_token: otpToken, code: otpCode }),
    response: tokenResponse,
    summary: 'Finish a sign-in with an authenticator-app (or SMS) code',
    errors: [401, 422],
    example: { body: { otp_token: 'otp-example-admin-challenge', code: '246810' } },
  }),
  defineOperation({
    ...open,
    id: 'auth.sms_otp_send',
    group: g,
    method: 'POST',
    path: '/v2/auth/sms_otp/send',
    body: z.strictObject({ otp_token: otpToken }),
    response: smsSentResponse,
    summary: 'Send (or resend, after 30 s) an SMS code for a sign-in challenge',
    errors: [401, 422, 429],
    example: { body: { otp_token: 'otp-example-admin-challenge' } },
  }),
  defineOperation({
    ...open,
    id: 'auth.sms_otp_verify',
    group: g,
    method: 'POST',
    path: '/v2/auth/sms_otp/verify',
    body: z.strictObject({ otp_token: otpToken, code: otpCode }),
    response: tokenResponse,
    summary: 'Finish a sign-in with the SMS code',
    errors: [401, 422],
    example: { body: { otp_token: 'otp-example-sms-challenge', code: '135790' } },
  }),
  defineOperation({
    ...open,
    id: 'auth.sign_in_recovery_code',
    group: g,
    method: 'POST',
    path: '/v2/auth/sign_in_recovery_code',
    body: z.strictObject({
      otp_token: otpToken,
      recovery_code: z.string().trim().min(1, 'is required').max(64),
    }),
    response: tokenResponse,
    summary: 'Finish a sign-in with a single-use recovery code',
    errors: [401, 422],
    example: { body: { otp_token: 'otp-example-admin-challenge', recovery_code: '5a1e-c0de' } },
  }),
  defineOperation({
    id: 'auth.sign_out',
    group: g,
    method: 'DELETE',
    path: '/v2/auth/sign_out',
    response: okResponse,
    releases: ALL_RELEASES,
    summary: 'Sign out: end the session of the Bearer token',
    source: 'decided',
    sandbox: custom,
    example: {},
  }),
  defineOperation({
    ...open,
    id: 'auth.sso_login',
    group: g,
    method: 'POST',
    path: '/v2/auth/sso_login',
    body: z.strictObject({ sso_token: linkToken }),
    response: tokenResponse,
    summary: 'Sign in with a single-sign-on link token (single use, expires)',
    errors: [401, 422],
    example: { body: { sso_token: 'sso-example-link-token' } },
  }),
  defineOperation({
    ...open,
    id: 'auth.confirm_user',
    group: g,
    method: 'POST',
    path: '/v2/auth/confirm_user',
    body: z.strictObject({ confirmation_token: linkToken }),
    response: z.looseObject({
      data: z.looseObject({ id: z.string(), email: z.string(), confirmed: z.literal(true) }),
    }),
    summary: 'Confirm a user account with the token from the confirmation e-mail',
    errors: [401, 422],
    example: { body: { confirmation_token: 'confirm-example-token' } },
  }),
  defineOperation({
    ...open,
    id: 'auth.accept_invitation',
    group: g,
    method: 'POST',
    path: '/v2/auth/accept_invitation',
    body: z.strictObject({
      invitation_token: linkToken,
      password: newPassword,
      first_name: z.string().trim().min(1, 'is required').max(100),
      last_name: z.string().trim().min(1, 'is required').max(100),
    }),
    response: tokenResponse,
    summary: 'Accept an invitation: choose a password and names, and sign in',
    errors: [401, 422],
    example: {
      body: {
        invitation_token: 'invite-example-token',
        password: 'invited-password-1',
        first_name: 'Ivy',
        last_name: 'Invitee',
      },
    },
  }),
  defineOperation({
    ...open,
    id: 'auth.password_reset_request',
    group: g,
    method: 'POST',
    path: '/v2/auth/password_reset',
    body: z.strictObject({ email: z.email('must be an e-mail address').max(254) }),
    response: okResponse,
    summary: 'Ask for a password-reset e-mail (always succeeds, revealing no account)',
    errors: [422],
    example: { body: { email: 'manager@sandbox.test' } },
  }),
  defineOperation({
    ...open,
    id: 'auth.password_reset_confirm',
    group: g,
    method: 'PUT',
    path: '/v2/auth/password_reset',
    body: z.strictObject({ reset_token: linkToken, password: newPassword }),
    response: okResponse,
    idempotent: false,
    summary: 'Set a new password with the token from the password-reset e-mail',
    errors: [401, 422],
    example: { body: { reset_token: 'reset-example-token', password: 'manager-password-2' } },
  }),
  defineOperation({
    id: 'auth.impersonate',
    group: g,
    method: 'POST',
    path: '/v2/auth/impersonate',
    body: z.strictObject({ user_id: idParam }),
    response: impersonationResponse,
    releases: ALL_RELEASES,
    summary: 'Administrator: start acting as another user (returns a session token for them)',
    source: 'decided',
    errors: [401, 403, 404, 409, 422],
    sandbox: custom,
    example: { body: { user_id: 'usr-002' } },
  }),
  defineOperation({
    id: 'auth.stop_impersonation',
    group: g,
    method: 'DELETE',
    path: '/v2/auth/impersonate',
    response: z.looseObject({
      token: z.string().optional(),
      data: z.looseObject({ stopped: z.boolean(), user_id: z.string() }),
    }),
    releases: ALL_RELEASES,
    summary:
      'Stop impersonating: ends the impersonation session and returns a session for the administrator',
    source: 'decided',
    sandbox: custom,
    example: {},
  }),
])
