import type { Row, SandboxContext } from '../../types'
import { createChallenge, issueLinkToken, newRecoveryCodes } from './tokens'
import { base32Secret, createOrganizationRow, createUserRow, USERS, type NewUser } from './users'

/**
 * Fixed secrets of the seeded data that the catalog's examples use (after every reset they are
 * valid again). Everything else secret is drawn from ctx.rng and written to the log.
 */
export const FIXTURES = {
  /** A pending sign-in challenge of admin@sandbox.test (app code below; recovery code works). */
  adminChallenge: { otp_token: 'otp-example-admin-challenge', app_code: '246810' },
  /** A pending sign-in challenge of sms@sandbox.test whose SMS code was just sent. */
  smsChallenge: { otp_token: 'otp-example-sms-challenge', sms_code: '135790' },
  /** The first of admin@sandbox.test's ten recovery codes. */
  adminRecoveryCode: '5a1e-c0de',
  /** A started (unverified) 2FA re-enrolment of admin@sandbox.test and its verification code. */
  adminPendingTwoFactorCode: '112233',
  /** An SSO link token for analyst@sandbox.test. */
  ssoToken: 'sso-example-link-token',
  /** The confirmation token of unconfirmed@sandbox.test. */
  confirmationToken: 'confirm-example-token',
  /** The invitation token of invited@sandbox.test. */
  invitationToken: 'invite-example-token',
  /** A pending password reset of manager@sandbox.test. */
  resetToken: 'reset-example-token',
} as const

const ORGS = [
  { name: 'Acme Payments', country: 'US', partner: true, description: 'Payment processor' },
  { name: 'Globex Retail', country: 'GB', description: 'Retailer, a customer of Acme Payments' },
  { name: 'Initech Hosting', country: 'DE', description: 'Hosting provider' },
] as const

type SeedUser = NewUser & { key: string }

function users(): SeedUser[] {
  return [
    {
      key: 'admin',
      email: 'admin@sandbox.test',
      first_name: 'Alex',
      last_name: 'Admin',
      role: 'administrator',
      organization_id: 'org-001',
      two_factor_method: 'app',
      phone: '+14155550142',
      partner: true,
      time_zone: 'America/New_York',
    },
    {
      key: 'analyst',
      email: 'analyst@sandbox.test',
      first_name: 'Ana',
      last_name: 'Lyst',
      role: 'analyst',
      organization_id: 'org-001',
    },
    {
      key: 'manager',
      email: 'manager@sandbox.test',
      first_name: 'Morgan',
      last_name: 'Manager',
      role: 'manager',
      organization_id: 'org-001',
    },
    {
      key: 'sms',
      email: 'sms@sandbox.test',
      first_name: 'Sam',
      last_name: 'Texter',
      role: 'analyst',
      organization_id: 'org-001',
      two_factor_method: 'sms',
      phone: '+442071838750',
      locale: 'en-GB',
      time_zone: 'Europe/London',
    },
    {
      key: 'customer',
      email: 'customer@globex.test',
      first_name: 'Casey',
      last_name: 'Customer',
      role: 'customer',
      organization_id: 'org-002',
      time_zone: 'Europe/London',
    },
    {
      key: 'unconfirmed',
      email: 'unconfirmed@sandbox.test',
      first_name: 'Uma',
      last_name: 'Unconfirmed',
      role: 'analyst',
      organization_id: 'org-001',
      confirmed: false,
    },
    {
      key: 'invited',
      email: 'invited@sandbox.test',
      role: 'analyst',
      organization_id: 'org-001',
      password: null,
      confirmed: false,
      status: 'invited',
    },
    {
      key: 'auditor',
      email: 'auditor@initech.test',
      first_name: 'Ida',
      last_name: 'Auditor',
      role: 'analyst',
      organization_id: 'org-003',
      locale: 'de',
      time_zone: 'Europe/Berlin',
    },
    DEMO_SEED_USER,
  ]
}

/**
 * The user the demo signs in as: an administrator of the demo organization without a second
 * factor, so a first run sees every screen (organizations, users, billing, white label).
 * Seeded last so the ids of the users before it stay as they were.
 */
const DEMO_SEED_USER: SeedUser = {
  key: 'demo',
  email: 'demo@sandbox.test',
  first_name: 'Dana',
  last_name: 'Demo',
  role: 'administrator',
  organization_id: 'org-001',
  time_zone: 'Europe/Amsterdam',
}

/**
 * Brings a state saved by an earlier sandbox (a demo data file) up to the current seed: adds the
 * demo user when that state has none, so the demo can still sign in. Everything else is kept.
 */
export function upgradeIdentity(ctx: SandboxContext): void {
  const email = DEMO_SEED_USER.email
  if (ctx.db.list(USERS).some((u) => u.attributes.email === email)) return
  const { key: _key, ...input } = DEMO_SEED_USER
  createUserRow(ctx, input)
  ctx.log(`[upgrade] added the demo user ${email} to a state saved by an earlier sandbox`)
}

/**
 * Seeds organizations org-001..org-003, users usr-001..usr-009, and the secrets the demo and
 * the examples need (each written to the log so a person can use them).
 */
export function seedIdentity(ctx: SandboxContext): void {
  const orgs = ORGS.map((o) => createOrganizationRow(ctx, o))
  ctx.db.update('organizations', orgs[1].id, { parent_id: orgs[0].id })

  const byKey: Record<string, Row> = {}
  for (const { key, ...input } of users()) byKey[key] = createUserRow(ctx, input)

  const admin = byKey.admin
  const codes = newRecoveryCodes(ctx, FIXTURES.adminRecoveryCode)
  const now = ctx.now().toISOString()
  ctx.db.update(
    USERS,
    admin.id,
    {},
    {
      recovery_codes: codes,
      recovery_codes_generated_at: now,
      pending_two_factor: {
        method: 'app',
        code: FIXTURES.adminPendingTwoFactorCode,
        issued_at: now,
        secret: base32Secret(ctx),
      },
    },
  )
  ctx.log(`[recovery-codes] admin@sandbox.test: ${codes.join(' ')}`)
  ctx.log(`[otp] admin@sandbox.test: ${FIXTURES.adminPendingTwoFactorCode} (2fa setup)`)

  createChallenge(ctx, admin, FIXTURES.adminChallenge)
  createChallenge(ctx, byKey.sms, FIXTURES.smsChallenge)
  issueLinkToken(ctx, 'sso', byKey.analyst, FIXTURES.ssoToken)
  issueLinkToken(ctx, 'confirmation', byKey.unconfirmed, FIXTURES.confirmationToken)
  issueLinkToken(ctx, 'invitation', byKey.invited, FIXTURES.invitationToken)
  issueLinkToken(ctx, 'password_reset', byKey.manager, FIXTURES.resetToken)
}
