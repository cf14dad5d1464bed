import { z } from 'zod'
import { ALL_RELEASES } from '../releases'
import {
  anyObject,
  collection,
  dateTime,
  deletedResponse,
  description,
  idParam,
  meta,
  name,
  okResponse,
  plainListQuery,
  single,
} from '../schemas/common'
import { newPassword, otpCode } from './auth'
import { defineGroup, defineOperation } from './types'

/** A user's role (decided here). */
export const userRole = z.enum(['administrator', 'manager', 'analyst', 'customer'])

/** UserAttributes (fields decided here): what the service shows about a user. */
export const userAttributes = z.looseObject({
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: userRole,
  organization_id: z.string(),
  two_factor_enabled: z.boolean(),
  two_factor_method: z.enum(['app', 'sms']).nullable(),
  phone_number: z.string().nullish(),
  confirmed: z.boolean(),
  status: z.enum(['active', 'unconfirmed', 'invited']).optional(),
  partner: z.boolean(),
  locale: z.string(),
  time_zone: z.string(),
  current_product: z.string().nullish(),
  created_at: dateTime,
  updated_at: dateTime,
})

/** OrganizationAttributes (fields decided here). */
export const organizationAttributes = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  country: z.string().nullish(),
  partner: z.boolean(),
  parent_id: z.string().nullish(),
  time_zone: z.string(),
  created_at: dateTime,
  updated_at: dateTime,
})

/** Notification preference switches (decided here); every key optional in updates. */
export const notificationPreferencesShape = {
  scan_completed: z.boolean(),
  scan_failed: z.boolean(),
  report_ready: z.boolean(),
  new_critical_vulnerability: z.boolean(),
  exception_expiring: z.boolean(),
  saq_approved: z.boolean(),
  weekly_summary: z.boolean(),
}

/** Notification preferences as shown. */
export const notificationPreferencesAttributes = z.looseObject(notificationPreferencesShape)

/** A product as shown to the current user (fields from the billing products, plus subscribed). */
export const userProductAttributes = z.looseObject({
  name: z.string().optional(),
  product_code: z.string().optional(),
  subscribed: z.boolean(),
})

/** A subscription of the current organization, past or present (fields decided by billing). */
export const subscriptionHistoryAttributes = z.looseObject({
  status: z.string().optional(),
  product_code: z.string().nullish(),
  plan_id: z.string().nullish(),
  created_at: z.string().optional(),
})

const wrap = <S extends z.ZodType>(data: S) => z.looseObject({ data })
const phone = z
  .string()
  .trim()
  .regex(/^\+?[0-9 ().-]{6,24}$/, 'must be a phone number in international form')
const password = z.string().min(1, 'is required').max(1024)

const g = 'user' as const
const custom = { kind: 'custom' } as const
const base = { group: g, releases: ALL_RELEASES, source: 'decided', sandbox: custom } as const

/** The current user: profile, second factor, tokens, organization, products and account. */
export const userOperations = defineGroup([
  defineOperation({
    ...base,
    id: 'user.two_factor_enable',
    method: 'POST',
    path: '/v2/user/two_factor/enable',
    body: z.strictObject({ method: z.enum(['app', 'sms']), phone: phone.optional() }),
    response: wrap(
      z.looseObject({
        method: z.enum(['app', 'sms']),
        secret: z.string().optional(),
        otpauth_uri: z.string().optional(),
        phone_number: z.string().optional(),
      }),
    ),
    summary:
      'Start enabling two-factor authentication (app: provisioning secret and otpauth URI; sms: sends a code)',
    example: { body: { method: 'app' } },
  }),
  defineOperation({
    ...base,
    id: 'user.two_factor_verify',
    method: 'POST',
    path: '/v2/user/two_factor/verify',
    body: z.strictObject({ code: otpCode }),
    response: wrap(
      z.looseObject({
        two_factor_enabled: z.literal(true),
        two_factor_method: z.enum(['app', 'sms']),
        recovery_codes: z.array(z.string()).optional(),
      }),
    ),
    summary: 'Verify the installation of two-factor authentication with a code',
    example: { body: { code: '112233' } },
  }),
  defineOperation({
    ...base,
    id: 'user.two_factor_disable',
    method: 'PUT',
    path: '/v2/user/two_factor/disable',
    body: z.strictObject({ password }),
    response: single(userAttributes),
    summary: 'Disable two-factor authentication (needs the password)',
    example: { body: { password: 'sandbox-password' } },
  }),
  defineOperation({
    ...base,
    id: 'user.phone_lookup',
    method: 'POST',
    path: '/v2/user/phone_lookup',
    body: z.strictObject({ phone }),
    response: wrap(
      z.looseObject({
        phone_number: z.string(),
        valid: z.boolean(),
        country_code: z.string().nullable(),
        country: z.string().nullable(),
        can_receive_sms: z.boolean(),
      }),
    ),
    idempotent: true,
    computeOnly: true,
    summary: 'Look up a phone number: normalised form, country, whether it can receive SMS',
    example: { body: { phone: '+1 415 555 0142' } },
  }),
  defineOperation({
    ...base,
    id: 'user.default_two_factor_method',
    method: 'PUT',
    path: '/v2/user/two_factor/default_method',
    body: z.strictObject({ method: z.enum(['app', 'sms']) }),
    response: single(userAttributes),
    summary: 'Choose the default second-factor method (app or sms)',
    example: { body: { method: 'sms' } },
  }),
  defineOperation({
    ...base,
    id: 'user.generate_recovery_codes',
    method: 'POST',
    path: '/v2/user/recovery_codes',
    response: wrap(
      z.looseObject({ recovery_codes: z.array(z.string()).min(1), generated_at: dateTime }),
    ),
    errors: [401, 403, 409],
    summary: 'Generate 10 new recovery codes (shown once; replaces the old ones)',
    example: {},
  }),
  defineOperation({
    ...base,
    id: 'user.recovery_codes',
    method: 'GET',
    path: '/v2/user/recovery_codes',
    // Decided: codes are never shown again after generation; only how many remain, masked.
    response: wrap(
      z.looseObject({
        remaining: z.number().int(),
        masked_codes: z.array(z.string()),
        generated_at: dateTime.nullable(),
      }),
    ),
    summary: 'How many unused recovery codes remain (masked)',
    example: {},
  }),
  defineOperation({
    ...base,
    id: 'user.notification_preferences',
    method: 'GET',
    path: '/v2/user/notification_preferences',
    response: single(notificationPreferencesAttributes),
    summary: 'Get the notification preferences',
    example: {},
  }),
  defineOperation({
    ...base,
    id: 'user.update_notification_preferences',
    method: 'PUT',
    path: '/v2/user/notification_preferences',
    body: z
      .strictObject(notificationPreferencesShape)
      .partial()
      .refine((b) => Object.keys(b).length > 0, 'give at least one preference'),
    response: single(notificationPreferencesAttributes),
    summary: 'Update some notification preferences',
    example: { body: { weekly_summary: true } },
  }),
  defineOperation({
    ...base,
    id: 'user.show',
    method: 'GET',
    path: '/v2/user',
    response: single(userAttributes),
    summary: 'Get the current user',
    example: {},
  }),
  defineOperation({
    ...base,
    id: 'user.update',
    method: 'PUT',
    path: '/v2/user',
    body: z.strictObject({
      first_name: z.string().trim().min(1, 'is required').max(100).optional(),
      last_name: z.string().trim().min(1, 'is required').max(100).optional(),
      locale: z
        .string()
        .regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'must be a locale such as en or en-GB')
        .optional(),
      time_zone: z.string().min(1).max(64).optional(),
    }),
    response: single(userAttributes),
    summary: 'Update the current user (names, locale, time zone)',
    example: { body: { first_name: 'Ada', time_zone: 'Europe/Berlin' } },
  }),
  defineOperation({
    ...base,
    id: 'user.change_password',
    method: 'PUT',
    path: '/v2/user/change_password',
    body: z.strictObject({ current_password: password, password: newPassword }),
    response: okResponse,
    idempotent: false,
    summary: 'Change the password (a wrong current password answers 422)',
    example: { body: { current_password: 'sandbox-password', password: 'sandbox-password-2' } },
  }),
  defineOperation({
    ...base,
    id: 'user.active_plans',
    method: 'GET',
    path: '/v2/user/active_plans',
    // The interface marks this operation "not implemented yet". Decided: the sandbox answers
    // 200 with an empty list and meta.not_implemented = true (not 501), so clients can show
    // "not available" without treating it as a failure.
    response: z.looseObject({
      data: z.array(anyObject),
      meta: meta.extend({ not_implemented: z.boolean().optional() }).optional(),
    }),
    notImplemented: true,
    summary: 'Active plans of the current user (not implemented by the service yet)',
    example: {},
  }),
  defineOperation({
    ...base,
    id: 'user.organization_members',
    method: 'GET',
    path: '/v2/user/organization_members',
    query: plainListQuery,
    response: collection(userAttributes),
    summary: "List the members of the current user's organization",
    example: { query: { per_page: 10 } },
  }),
  defineOperation({
    ...base,
    id: 'user.products',
    method: 'GET',
    path: '/v2/user/products',
    response: collection(userProductAttributes),
    summary: "List products, marked with whether the user's organization subscribes to them",
    example: {},
  }),
  defineOperation({
    ...base,
    id: 'user.organization',
    method: 'GET',
    path: '/v2/user/organization',
    response: single(organizationAttributes),
    summary: "Get the current user's organization",
    example: {},
  }),
  defineOperation({
    ...base,
    id: 'user.update_organization',
    method: 'PUT',
    path: '/v2/user/organization',
    body: z.strictObject({
      name: name.optional(),
      description: description.optional(),
      country: z.string().max(100).optional(),
      time_zone: z.string().min(1).max(64).optional(),
    }),
    response: single(organizationAttributes),
    summary: "Update the current user's organization (administrators)",
    example: { body: { description: 'Card payments for European merchants' } },
  }),
  defineOperation({
    ...base,
    id: 'user.subscriptions_history',
    method: 'GET',
    path: '/v2/user/subscriptions_history',
    query: plainListQuery,
    response: collection(subscriptionHistoryAttributes),
    summary: "Past and present subscriptions of the user's organization, newest first",
    example: {},
  }),
  defineOperation({
    ...base,
    id: 'user.change_product',
    method: 'PUT',
    path: '/v2/user/change_product',
    body: z.strictObject({
      product_code: z.string().regex(/^[a-z0-9_]{1,64}$/, 'must be a product code'),
    }),
    response: single(userAttributes),
    errors: [401, 403, 404, 422],
    summary: 'Switch the product the user works in (sets current_product)',
    example: { body: { product_code: 'external_scan' } },
  }),
  defineOperation({
    ...base,
    id: 'user.token_validity',
    method: 'GET',
    path: '/v2/user/token_validity',
    response: wrap(
      z.looseObject({
        valid: z.boolean(),
        via: z.enum(['session', 'access_token']),
        expires_at: z.string().nullable(),
      }),
    ),
    offline: 'online-only',
    summary: 'Check that the authorization token is valid (and how it authenticates)',
    example: {},
  }),
  defineOperation({
    ...base,
    id: 'user.permissions',
    method: 'GET',
    path: '/v2/user/permissions',
    response: wrap(z.looseObject({ role: userRole, permissions: z.array(z.string()) })),
    summary: "The current user's permissions (by role)",
    example: {},
  }),
  defineOperation({
    ...base,
    id: 'user.deletability',
    method: 'GET',
    path: '/v2/user/deletability',
    response: wrap(
      z.looseObject({
        deletable: z.boolean(),
        reasons: z.array(z.string()),
        warnings: z.array(z.string()),
      }),
    ),
    offline: 'online-only',
    summary: 'Whether the current user can delete their own account, and what it implies',
    example: {},
  }),
  defineOperation({
    ...base,
    id: 'user.delete',
    method: 'DELETE',
    path: '/v2/user',
    body: z.strictObject({ password }),
    response: deletedResponse,
    idempotent: false,
    errors: [401, 403, 422],
    summary: 'Delete the own account (needs the password)',
    example: { body: { password: 'sandbox-password' } },
  }),
  defineOperation({
    ...base,
    id: 'user.generate_access_token',
    method: 'PUT',
    path: '/v2/user/generate_access_token',
    response: wrap(z.looseObject({ access_token: z.string().min(1), created_at: dateTime })),
    idempotent: false,
    source: 'interface',
    summary: 'Generate a long-lived access token (replaces the previous one; sent as Basic)',
    example: {},
  }),
  defineOperation({
    ...base,
    id: 'user.revoke_access_token',
    method: 'DELETE',
    path: '/v2/user/access_token',
    response: wrap(z.looseObject({ success: z.boolean(), revoked: z.boolean() })),
    summary: 'Revoke the current access token (revoked is false when there was none)',
    example: {},
  }),
  defineOperation({
    ...base,
    id: 'user.transfer_resources',
    method: 'PUT',
    path: '/v2/user/transfer_resources',
    body: z.strictObject({ user_id: idParam }),
    response: wrap(
      z.looseObject({
        to_user_id: z.string(),
        transferred: z.number().int(),
        by_collection: z.record(z.string(), z.number().int()),
      }),
    ),
    errors: [401, 403, 404, 422],
    summary: 'Transfer everything the current user owns to another user of the organization',
    example: { body: { user_id: 'usr-002' } },
  }),
])
