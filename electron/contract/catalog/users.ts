import { z } from 'zod'
import { ALL_RELEASES } from '../releases'
import {
  byIdsFilter,
  anyObject,
  byId,
  collection,
  dateTime,
  deletedResponse,
  idParam,
  listQuery,
  okResponse,
  single,
} from '../schemas/common'
import { defineGroup, defineOperation } from './types'

/** The roles a user can have (decided here). */
export const userRole = z.enum(['administrator', 'manager', 'analyst', 'customer'])

/** A user's e-mail address (decided here). */
export const userEmail = z.string().trim().toLowerCase().max(254).email('must be an e-mail address')

/** A first or last name (decided here): at most 100 characters. */
export const personName = z.string().trim().max(100)

/** Attributes of a user as the administration operations show them (decided here). */
export const userAttributes = z.looseObject({
  email: z.string(),
  first_name: z.string().nullish(),
  last_name: z.string().nullish(),
  role: z.string(),
  organization_id: z.string().nullish(),
  two_factor_enabled: z.boolean().optional(),
  two_factor_method: z.string().nullish(),
  phone_number: z.string().nullish(),
  confirmed: z.boolean().optional(),
  status: z.string().optional(),
  partner: z.boolean().optional(),
  locale: z.string().nullish(),
  time_zone: z.string().nullish(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
})

/** Body of user create (decided here); the user confirms by e-mail (token in the sandbox log). */
export const userCreateBody = z.strictObject({
  email: userEmail,
  first_name: personName.optional(),
  last_name: personName.optional(),
  role: userRole,
  organization_id: idParam.optional(),
  locale: z.string().max(10).optional(),
  time_zone: z.string().max(64).optional(),
})

/** Body of user update (decided here). */
export const userUpdateBody = z.strictObject({
  first_name: personName.optional(),
  last_name: personName.optional(),
  role: userRole.optional(),
  locale: z.string().max(10).optional(),
  time_zone: z.string().max(64).optional(),
})

/** Body of create customer (decided here): a customer user in a new customer organization. */
export const customerCreateBody = z.strictObject({
  email: userEmail,
  first_name: personName.optional(),
  last_name: personName.optional(),
  organization_name: z.string().trim().min(1, 'is required').max(200),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code')
    .optional(),
})

/** Body of invite (decided here): the invitation token goes out by e-mail (the sandbox log). */
export const userInviteBody = z.strictObject({
  email: userEmail,
  role: userRole,
  first_name: personName.optional(),
  last_name: personName.optional(),
  organization_id: idParam.optional(),
})

/**
 * One row of an import (decided here). Only the structure is checked by request validation;
 * the content (e-mail format, known role, duplicates) is checked per row, so one bad row does
 * not refuse the whole file.
 */
export const userImportRow = z.strictObject({
  email: z.string().max(320),
  first_name: z.string().max(200).optional(),
  last_name: z.string().max(200).optional(),
  role: z.string().max(40),
})

/** Body of import (decided here): 1–500 rows into one organization (default: the caller's). */
export const userImportBody = z.strictObject({
  organization_id: idParam.optional(),
  users: z.array(userImportRow).min(1).max(500),
})

/** Answer of import (decided here): counts, created users and per-row errors (row is 1-based). */
export const userImportResponse = z.looseObject({
  data: z.looseObject({
    created: z.number().int(),
    failed: z.number().int(),
    users: z.array(z.looseObject({ id: z.string(), email: z.string() })),
    errors: z.array(
      z.looseObject({
        row: z.number().int(),
        email: z.string().nullish(),
        messages: z.record(z.string(), z.array(z.string())),
      }),
    ),
  }),
})

/** Answer of the deletability check (decided here). */
export const userDeletableResponse = z.looseObject({
  data: z.looseObject({
    id: z.string(),
    deletable: z.boolean(),
    reasons: z.array(z.string()),
    resources_count: z.number().int().optional(),
  }),
})

/** Body of inherit resources (decided here): whose resources move to the user in the path. */
export const inheritResourcesBody = z.strictObject({ from_user_id: idParam })

/** Answer of inherit resources (decided here): how many rows moved, per kind. */
export const inheritResourcesResponse = z.looseObject({
  data: z.looseObject({
    user_id: z.string(),
    from_user_id: z.string(),
    moved: z.record(z.string(), z.number().int()),
    total: z.number().int(),
  }),
})

/** Query of the users list (plus `ids`) and export (decided here). */
export const usersListQuery = listQuery({
  role: userRole.optional(),
  organization_id: idParam.optional(),
  status: z.enum(['active', 'unconfirmed', 'invited']).optional(),
})

const g = 'users' as const
const custom = { kind: 'custom' } as const

/** Users (administration): list, create, show, update, delete, invite, import, export and more. */
export const usersOperations = defineGroup([
  defineOperation({
    id: 'users.list',
    group: g,
    method: 'GET',
    path: '/v2/users',
    query: usersListQuery.extend(byIdsFilter),
    response: collection(userAttributes),
    releases: ALL_RELEASES,
    summary: 'List the users the caller administers',
    source: 'decided',
    sandbox: custom,
    example: { query: { role: 'analyst', per_page: 10 } },
  }),
  defineOperation({
    id: 'users.create',
    group: g,
    method: 'POST',
    path: '/v2/users',
    body: userCreateBody,
    response: single(userAttributes),
    releases: ALL_RELEASES,
    summary: 'Create a user; confirmation instructions are sent by e-mail',
    source: 'decided',
    successStatus: 201,
    sandbox: custom,
    example: {
      body: {
        email: 'new.analyst@sandbox.test',
        first_name: 'Nia',
        last_name: 'Okafor',
        role: 'analyst',
      },
    },
  }),
  defineOperation({
    id: 'users.show',
    group: g,
    method: 'GET',
    path: '/v2/users/{id}',
    pathParams: byId,
    response: single(userAttributes),
    releases: ALL_RELEASES,
    summary: 'Show one user',
    source: 'decided',
    sandbox: custom,
    example: { path: { id: 'usr-002' } },
  }),
  defineOperation({
    id: 'users.update',
    group: g,
    method: 'PUT',
    path: '/v2/users/{id}',
    pathParams: byId,
    body: userUpdateBody,
    response: single(userAttributes),
    releases: ALL_RELEASES,
    summary: 'Update a user',
    source: 'decided',
    sandbox: custom,
    example: { path: { id: 'usr-002' }, body: { last_name: 'Analyst-Reyes' } },
  }),
  defineOperation({
    id: 'users.delete',
    group: g,
    method: 'DELETE',
    path: '/v2/users/{id}',
    pathParams: byId,
    response: deletedResponse,
    releases: ALL_RELEASES,
    summary: 'Delete a user (refused with 409 while the deletability check says no)',
    source: 'decided',
    errors: [401, 403, 404, 409],
    sandbox: custom,
    example: { path: { id: 'usr-007' } },
  }),
  defineOperation({
    id: 'users.create_customer',
    group: g,
    method: 'POST',
    path: '/v2/users/create_customer',
    body: customerCreateBody,
    response: single(userAttributes),
    releases: ALL_RELEASES,
    summary: 'Create a customer user in a new customer organization',
    source: 'decided',
    successStatus: 201,
    sandbox: custom,
    example: {
      body: {
        email: 'buyer@initech.test',
        first_name: 'Bill',
        last_name: 'Lumbergh',
        organization_name: 'Initech',
        country: 'US',
      },
    },
  }),
  defineOperation({
    id: 'users.invite',
    group: g,
    method: 'POST',
    path: '/v2/users/invite',
    body: userInviteBody,
    response: single(userAttributes),
    releases: ALL_RELEASES,
    summary: 'Invite a user by e-mail: a pending user with an invitation token',
    source: 'decided',
    successStatus: 201,
    sandbox: custom,
    example: { body: { email: 'invitee@sandbox.test', role: 'analyst' } },
  }),
  defineOperation({
    id: 'users.resend_confirmation',
    group: g,
    method: 'PUT',
    path: '/v2/users/{id}/resend_confirmation',
    pathParams: byId,
    response: okResponse,
    releases: ALL_RELEASES,
    idempotent: false,
    summary: 'Send the confirmation instructions of an unconfirmed user again',
    source: 'decided',
    errors: [401, 403, 404, 422],
    sandbox: custom,
    example: { path: { id: 'usr-006' } },
  }),
  defineOperation({
    id: 'users.import',
    group: g,
    method: 'POST',
    path: '/v2/users/import',
    body: userImportBody,
    response: userImportResponse,
    releases: ALL_RELEASES,
    summary: 'Import up to 500 users; each row is created or reported with its errors',
    source: 'decided',
    sandbox: custom,
    example: {
      body: {
        users: [
          {
            email: 'imported.one@sandbox.test',
            first_name: 'Ima',
            last_name: 'One',
            role: 'analyst',
          },
          {
            email: 'imported.two@sandbox.test',
            first_name: 'Ima',
            last_name: 'Two',
            role: 'manager',
          },
        ],
      },
    },
  }),
  defineOperation({
    id: 'users.deletable',
    group: g,
    method: 'GET',
    path: '/v2/users/{id}/deletable',
    pathParams: byId,
    response: userDeletableResponse,
    releases: ALL_RELEASES,
    summary: 'Check whether a user can be deleted, and why not',
    source: 'decided',
    sandbox: custom,
    example: { path: { id: 'usr-002' } },
  }),
  defineOperation({
    id: 'users.inherit_resources',
    group: g,
    method: 'PUT',
    path: '/v2/users/{id}/inherit_resources',
    pathParams: byId,
    body: inheritResourcesBody,
    response: inheritResourcesResponse,
    releases: ALL_RELEASES,
    summary: "Move another user's resources to this user",
    source: 'decided',
    sandbox: custom,
    example: { path: { id: 'usr-001' }, body: { from_user_id: 'usr-002' } },
  }),
  defineOperation({
    id: 'users.export',
    group: g,
    method: 'GET',
    path: '/v2/users/export',
    query: usersListQuery,
    response: anyObject,
    responseKind: 'file',
    releases: ALL_RELEASES,
    summary: 'Export the users as CSV',
    source: 'decided',
    sandbox: custom,
    example: {},
  }),
  defineOperation({
    id: 'users.set_partner',
    group: g,
    method: 'PUT',
    path: '/v2/users/{id}/set_partner',
    pathParams: byId,
    response: single(userAttributes),
    releases: ALL_RELEASES,
    summary: 'Mark a user as a partner',
    source: 'decided',
    sandbox: custom,
    example: { path: { id: 'usr-002' } },
  }),
  defineOperation({
    id: 'users.unset_partner',
    group: g,
    method: 'PUT',
    path: '/v2/users/{id}/unset_partner',
    pathParams: byId,
    response: single(userAttributes),
    releases: ALL_RELEASES,
    summary: 'Remove the partner mark from a user',
    source: 'decided',
    sandbox: custom,
    example: { path: { id: 'usr-002' } },
  }),
])
