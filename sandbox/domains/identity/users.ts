import { scryptSync, timingSafeEqual } from 'node:crypto'
import type { Row, SandboxContext } from '../../types'

/**
 * Row shapes of the 'users' and 'organizations' collections, and helpers to create them.
 * Other domains (commerce: users/organizations admin operations) import these; keep the
 * signatures stable.
 */

/** Collection names. */
export const USERS = 'users'
export const ORGANIZATIONS = 'organizations'

/** The password of every seeded user. */
export const SANDBOX_PASSWORD = 'sandbox-password'

/** Roles a user can have (same as Caller['role']). */
export type UserRole = 'administrator' | 'manager' | 'analyst' | 'customer'

/** Second-factor methods. */
export type TwoFactorMethod = 'app' | 'sms'

/** Attributes of a 'user' row as the API shows them (snake_case). */
export interface UserAttributes {
  email: string
  first_name: string
  last_name: string
  role: UserRole
  organization_id: string
  two_factor_enabled: boolean
  two_factor_method: TwoFactorMethod | null
  /** Masked phone number for SMS codes (e.g. "+1 *** *** 0142"), null when none. */
  phone_number: string | null
  confirmed: boolean
  /** 'active', 'unconfirmed' or 'invited'. */
  status: 'active' | 'unconfirmed' | 'invited'
  partner: boolean
  locale: string
  time_zone: string
  /** Product code the user works in (user.change_product), null until chosen. */
  current_product: string | null
  created_at: string
  updated_at: string
  [key: string]: unknown
}

/**
 * What the service keeps about a user but never shows. Password hash: scrypt (small cost,
 * it is a sandbox) with a per-user salt, both hex.
 */
export interface UserInternal {
  organization_id: string
  password_salt: string
  password_hash: string | null
  /** Full phone number for SMS codes. */
  phone?: string | null
  /** Provisioning secret while enabling 2FA (base32) and once enabled. */
  otp_secret?: string | null
  /** A 2FA enable that waits for its verification code. */
  pending_two_factor?: PendingTwoFactor | null
  /** Unused recovery codes (plain: it is a sandbox, and tests read them from the state). */
  recovery_codes?: string[]
  recovery_codes_generated_at?: string | null
  notification_preferences?: Record<string, boolean>
  [key: string]: unknown
}

/** A started 2FA enrolment: the method, what it provisions, and the code that verifies it. */
export interface PendingTwoFactor {
  method: TwoFactorMethod
  code: string
  issued_at: string
  secret?: string
  phone?: string
}

/** Attributes of an 'organization' row. */
export interface OrganizationAttributes {
  name: string
  description: string | null
  country: string | null
  partner: boolean
  /** The organization that manages this one (partner/MSSP), null when none. */
  parent_id: string | null
  time_zone: string
  created_at: string
  updated_at: string
  [key: string]: unknown
}

/** Input of createUserRow; omitted fields get the defaults shown. */
export interface NewUser {
  email: string
  first_name?: string
  last_name?: string
  role?: UserRole // 'analyst'
  organization_id: string
  /** Plain password; null for a user that has not chosen one (invited). Default SANDBOX_PASSWORD. */
  password?: string | null
  confirmed?: boolean // true
  status?: UserAttributes['status'] // 'active' when confirmed, else 'unconfirmed'
  two_factor_method?: TwoFactorMethod | null // null
  phone?: string | null
  partner?: boolean // false
  locale?: string // 'en'
  time_zone?: string // 'UTC'
}

/** Input of createOrganizationRow. */
export interface NewOrganization {
  name: string
  description?: string | null
  country?: string | null
  partner?: boolean
  parent_id?: string | null
  time_zone?: string
}

const HEX = '0123456789abcdef'

/** A deterministic hex string of `length` characters from ctx.rng. */
export function randomHex(ctx: SandboxContext, length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) out += HEX[ctx.rng.int(0, 15)]
  return out
}

function scryptHex(password: string, salt: string): string {
  return scryptSync(password, salt, 32, { N: 1024, r: 8, p: 1 }).toString('hex')
}

/**
 * Hashes of the public demo password by salt. Seeding draws the same salts from the same seed
 * on every reset, so each seeded user's hash is computed once per process instead of once per
 * reset (scrypt is most of a reset's cost). Only SANDBOX_PASSWORD is remembered: it is public,
 * so a faster answer for it reveals nothing; passwords set through the API are never kept.
 */
const demoPasswordHashes = new Map<string, string>()
const MAX_REMEMBERED_HASHES = 4096

/** Salted scrypt hash (hex) of a password (same parameters for every password). */
export function hashPassword(password: string, salt: string): string {
  if (password !== SANDBOX_PASSWORD) return scryptHex(password, salt)
  let hash = demoPasswordHashes.get(salt)
  if (hash === undefined) {
    hash = scryptHex(password, salt)
    if (demoPasswordHashes.size >= MAX_REMEMBERED_HASHES) demoPasswordHashes.clear()
    demoPasswordHashes.set(salt, hash)
  }
  return hash
}

/** True when `password` matches the user row's stored hash. */
export function checkPassword(row: Row, password: string): boolean {
  const internal = row.internal as UserInternal | undefined
  if (!internal?.password_hash || !internal.password_salt) return false
  const expected = Buffer.from(internal.password_hash, 'hex')
  const actual = Buffer.from(hashPassword(password, internal.password_salt), 'hex')
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}

/** The `internal` fields that store a new password (fresh salt). */
export function passwordInternal(ctx: SandboxContext, password: string | null) {
  const salt = randomHex(ctx, 16)
  return {
    password_salt: salt,
    password_hash: password === null ? null : hashPassword(password, salt),
  }
}

/** Masks a phone number for display: keeps the country prefix and the last 4 digits. */
export function maskPhone(phone: string | null | undefined): string | null {
  if (!phone) return null
  const digits = phone.replace(/\D/g, '')
  return `+${digits.slice(0, digits.length > 10 ? digits.length - 10 : 1)} *** *** ${digits.slice(-4)}`
}

/** Creates and inserts a user row (id usr-NNN from ctx.db.nextId); returns it. */
export function createUserRow(ctx: SandboxContext, input: NewUser): Row {
  const now = ctx.now().toISOString()
  const confirmed = input.confirmed ?? true
  const method = input.two_factor_method ?? null
  const phone = input.phone ?? null
  const attributes: UserAttributes = {
    email: input.email.toLowerCase(),
    first_name: input.first_name ?? '',
    last_name: input.last_name ?? '',
    role: input.role ?? 'analyst',
    organization_id: input.organization_id,
    two_factor_enabled: method !== null,
    two_factor_method: method,
    phone_number: maskPhone(phone),
    confirmed,
    status: input.status ?? (confirmed ? 'active' : 'unconfirmed'),
    partner: input.partner ?? false,
    locale: input.locale ?? 'en',
    time_zone: input.time_zone ?? 'UTC',
    current_product: null,
    created_at: now,
    updated_at: now,
  }
  const internal: UserInternal = {
    organization_id: input.organization_id,
    ...passwordInternal(ctx, input.password === undefined ? SANDBOX_PASSWORD : input.password),
    phone,
    otp_secret: method === 'app' ? base32Secret(ctx) : null,
    recovery_codes: [],
    notification_preferences: { ...DEFAULT_NOTIFICATION_PREFERENCES },
  }
  return ctx.db.insert(USERS, { id: ctx.db.nextId('usr'), type: 'user', attributes, internal })
}

/** Creates and inserts an organization row (id org-NNN); returns it. */
export function createOrganizationRow(ctx: SandboxContext, input: NewOrganization): Row {
  const now = ctx.now().toISOString()
  const attributes: OrganizationAttributes = {
    name: input.name,
    description: input.description ?? null,
    country: input.country ?? null,
    partner: input.partner ?? false,
    parent_id: input.parent_id ?? null,
    time_zone: input.time_zone ?? 'UTC',
    created_at: now,
    updated_at: now,
  }
  const id = ctx.db.nextId('org')
  // internal.organization_id lets org scoping treat an organization as its own scope.
  return ctx.db.insert(ORGANIZATIONS, {
    id,
    type: 'organization',
    attributes,
    internal: { organization_id: id },
  })
}

/** The user row with this e-mail (case-insensitive), if any. */
export function findUserByEmail(ctx: SandboxContext, email: string): Row | undefined {
  const wanted = email.trim().toLowerCase()
  return ctx.db.list(USERS).find((u) => String(u.attributes.email).toLowerCase() === wanted)
}

/** Typed view of a user row's attributes. */
export function userAttrs(row: Row): UserAttributes {
  return row.attributes as UserAttributes
}

/** Typed view of a user row's internal fields. */
export function userInternal(row: Row): UserInternal {
  return (row.internal ?? {}) as UserInternal
}

/** Notification preference keys and their defaults (decided here). */
export const DEFAULT_NOTIFICATION_PREFERENCES: Record<string, boolean> = {
  scan_completed: true,
  scan_failed: true,
  report_ready: true,
  new_critical_vulnerability: true,
  exception_expiring: false,
  saq_approved: true,
  weekly_summary: false,
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** A 32-character base32 provisioning secret from ctx.rng. */
export function base32Secret(ctx: SandboxContext): string {
  let out = ''
  for (let i = 0; i < 32; i++) out += BASE32[ctx.rng.int(0, 31)]
  return out
}
