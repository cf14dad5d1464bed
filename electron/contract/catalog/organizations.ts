import { z } from 'zod'
import { ALL_RELEASES } from '../releases'
import {
  byIdsFilter,
  anyObject,
  byId,
  collection,
  dateTime,
  deletedResponse,
  description,
  idParam,
  listQuery,
  name,
  single,
} from '../schemas/common'
import { featureCodesBody, featureGrantAttributes, featuresBody } from './billing'
import { defineGroup, defineOperation } from './types'
import { userAttributes } from './users'

/** Attributes of an organization (decided here). */
export const organizationAttributes = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  country: z.string().nullish(),
  partner: z.boolean().optional(),
  parent_id: z.string().nullish(),
  time_zone: z.string().nullish(),
  users_count: z.number().int().optional(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
})

/** An ISO 3166-1 alpha-2 country code. */
const country = z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code')

/** Body of organization create (decided here). */
export const organizationCreateBody = z.strictObject({
  name,
  description: description.optional(),
  country: country.optional(),
  partner: z.boolean().optional(),
  parent_id: idParam.nullable().optional(),
  time_zone: z.string().max(64).optional(),
})

/** Body of organization update (decided here): any subset of the create fields. */
export const organizationUpdateBody = organizationCreateBody.partial()

/** Subscription states (decided here): 'replaced' when a later plan of the same product took over. */
export const subscriptionStatus = z.enum(['active', 'cancelled', 'expired', 'replaced'])

/** Attributes of an organization's subscription to a plan (decided here). */
export const subscriptionAttributes = z.looseObject({
  organization_id: z.string(),
  plan_id: z.string(),
  plan_code: z.string().nullish(),
  plan_name: z.string().nullish(),
  product_id: z.string().nullish(),
  product_code: z.string().nullish(),
  product_name: z.string().nullish(),
  status: z.string(),
  price: z.number().nullish(),
  currency: z.string().nullish(),
  auto_renew: z.boolean().optional(),
  features: z.record(z.string(), featureGrantAttributes).optional(),
  starts_at: dateTime.nullish(),
  ends_at: dateTime.nullish(),
  cancelled_at: dateTime.nullish(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
})

/** Body of subscribe (decided here): the plan; an active plan of the same product is replaced. */
export const subscribeBody = z.strictObject({
  plan_id: idParam,
  auto_renew: z.boolean().optional(),
})

/** Body of unsubscribe (decided here): the plan whose active subscription ends now. */
export const unsubscribeBody = z.strictObject({ plan_id: idParam })

/** Body of change a user's organization (decided here): the user moves into the path's organization. */
export const changeUserOrganizationBody = z.strictObject({ user_id: idParam })

/** Body of subscription update (decided here). */
export const subscriptionUpdateBody = z.strictObject({
  auto_renew: z.boolean().optional(),
  price: z.number().min(0).max(1_000_000_000).optional(),
  ends_at: dateTime.nullable().optional(),
})

/** Query of the organizations list (plus `ids`) and export (decided here). */
export const organizationsListQuery = listQuery({
  partner: z.enum(['true', 'false']).optional(),
  parent_id: idParam.optional(),
})

/** Query of subscription lists (decided here). */
export const subscriptionsListQuery = listQuery({
  status: subscriptionStatus.optional(),
  product_code: idParam.optional(),
})

/** Path parameters of one subscription of an organization. */
export const orgSubscriptionPath = z.strictObject({ id: idParam, subscription_id: idParam })

const g = 'organizations' as const
const custom = { kind: 'custom' } as const
const subs = '/v2/organizations/{id}/subscriptions'

/** Organizations (administration) and their plan subscriptions. */
export const organizationsOperations = defineGroup([
  defineOperation({
    id: 'organizations.list',
    group: g,
    method: 'GET',
    path: '/v2/organizations',
    query: organizationsListQuery.extend(byIdsFilter),
    response: collection(organizationAttributes),
    releases: ALL_RELEASES,
    summary: 'List organizations',
    source: 'decided',
    sandbox: custom,
    example: { query: { sort: 'name' } },
  }),
  defineOperation({
    id: 'organizations.create',
    group: g,
    method: 'POST',
    path: '/v2/organizations',
    body: organizationCreateBody,
    response: single(organizationAttributes),
    releases: ALL_RELEASES,
    summary: 'Create an organization',
    source: 'decided',
    successStatus: 201,
    sandbox: custom,
    example: { body: { name: 'Umbrella Clinics', country: 'GB', parent_id: 'org-001' } },
  }),
  defineOperation({
    id: 'organizations.show',
    group: g,
    method: 'GET',
    path: '/v2/organizations/{id}',
    pathParams: byId,
    response: single(organizationAttributes),
    releases: ALL_RELEASES,
    summary: 'Retrieve an organization (any user may retrieve their own)',
    source: 'decided',
    sandbox: custom,
    example: { path: { id: 'org-002' } },
  }),
  defineOperation({
    id: 'organizations.update',
    group: g,
    method: 'PUT',
    path: '/v2/organizations/{id}',
    pathParams: byId,
    body: organizationUpdateBody,
    response: single(organizationAttributes),
    releases: ALL_RELEASES,
    summary: 'Update an organization',
    source: 'decided',
    sandbox: custom,
    example: { path: { id: 'org-002' }, body: { description: 'Retail chain, 140 stores' } },
  }),
  defineOperation({
    id: 'organizations.delete',
    group: g,
    method: 'DELETE',
    path: '/v2/organizations/{id}',
    pathParams: byId,
    response: deletedResponse,
    releases: ALL_RELEASES,
    summary: 'Delete an organization (refused with 409 while it has users or child organizations)',
    source: 'decided',
    errors: [401, 403, 404, 409],
    sandbox: custom,
    example: { path: { id: 'org-003' } },
  }),
  defineOperation({
    id: 'organizations.export',
    group: g,
    method: 'GET',
    path: '/v2/organizations/export',
    query: organizationsListQuery,
    response: anyObject,
    responseKind: 'file',
    releases: ALL_RELEASES,
    summary: 'Export the organizations as CSV',
    source: 'decided',
    sandbox: custom,
    example: {},
  }),
  defineOperation({
    id: 'organizations.subscribe',
    group: g,
    method: 'PUT',
    path: '/v2/organizations/{id}/subscribe',
    pathParams: byId,
    body: subscribeBody,
    response: single(subscriptionAttributes),
    releases: ALL_RELEASES,
    idempotent: false,
    summary: 'Subscribe an organization to a plan (replaces its active plan of that product)',
    source: 'decided',
    sandbox: custom,
    example: { path: { id: 'org-002' }, body: { plan_id: 'pln-002' } },
  }),
  defineOperation({
    id: 'organizations.unsubscribe',
    group: g,
    method: 'PUT',
    path: '/v2/organizations/{id}/unsubscribe',
    pathParams: byId,
    body: unsubscribeBody,
    response: single(subscriptionAttributes),
    releases: ALL_RELEASES,
    idempotent: false,
    summary: "End an organization's active subscription to a plan",
    source: 'decided',
    sandbox: custom,
    example: { path: { id: 'org-001' }, body: { plan_id: 'pln-005' } },
  }),
  defineOperation({
    id: 'organizations.dependent_subscriptions',
    group: g,
    method: 'GET',
    path: '/v2/organizations/{id}/dependent_subscriptions',
    pathParams: byId,
    query: subscriptionsListQuery,
    response: collection(subscriptionAttributes),
    releases: ALL_RELEASES,
    summary: "List the subscriptions of an organization's child (customer) organizations",
    source: 'decided',
    sandbox: custom,
    example: { path: { id: 'org-001' } },
  }),
  defineOperation({
    id: 'organizations.change_user_organization',
    group: g,
    method: 'PUT',
    path: '/v2/organizations/{id}/change_user_organization',
    pathParams: byId,
    body: changeUserOrganizationBody,
    response: single(userAttributes),
    releases: ALL_RELEASES,
    summary: 'Move a user into this organization',
    source: 'decided',
    sandbox: custom,
    example: { path: { id: 'org-002' }, body: { user_id: 'usr-002' } },
  }),
  defineOperation({
    id: 'organizations.list_subscriptions',
    group: g,
    method: 'GET',
    path: subs,
    pathParams: byId,
    query: subscriptionsListQuery,
    response: collection(subscriptionAttributes),
    releases: ALL_RELEASES,
    summary: "List all of an organization's subscriptions, past and present",
    source: 'decided',
    sandbox: custom,
    example: { path: { id: 'org-001' } },
  }),
  defineOperation({
    id: 'organizations.active_subscriptions',
    group: g,
    method: 'GET',
    path: `${subs}/active`,
    pathParams: byId,
    query: subscriptionsListQuery,
    response: collection(subscriptionAttributes),
    releases: ALL_RELEASES,
    summary: "List an organization's active subscriptions",
    source: 'decided',
    sandbox: custom,
    example: { path: { id: 'org-001' } },
  }),
  defineOperation({
    id: 'organizations.show_subscription',
    group: g,
    method: 'GET',
    path: `${subs}/{subscription_id}`,
    pathParams: orgSubscriptionPath,
    response: single(subscriptionAttributes),
    releases: ALL_RELEASES,
    summary: "Show one of an organization's subscriptions",
    source: 'decided',
    sandbox: custom,
    example: { path: { id: 'org-001', subscription_id: 'sub-002' } },
  }),
  defineOperation({
    id: 'organizations.update_subscription',
    group: g,
    method: 'PUT',
    path: `${subs}/{subscription_id}`,
    pathParams: orgSubscriptionPath,
    body: subscriptionUpdateBody,
    response: single(subscriptionAttributes),
    releases: ALL_RELEASES,
    summary: "Update one of an organization's subscriptions",
    source: 'decided',
    sandbox: custom,
    example: { path: { id: 'org-001', subscription_id: 'sub-002' }, body: { auto_renew: false } },
  }),
  defineOperation({
    id: 'organizations.assign_subscription_features',
    group: g,
    method: 'PUT',
    path: `${subs}/{subscription_id}/assign_features`,
    pathParams: orgSubscriptionPath,
    body: featuresBody,
    response: single(subscriptionAttributes),
    releases: ALL_RELEASES,
    summary: 'Grant features to one subscription, beyond or instead of its plan',
    source: 'decided',
    sandbox: custom,
    example: {
      path: { id: 'org-001', subscription_id: 'sub-002' },
      body: { features: { targets_limit: { limit: 500, active: true, unlimited: false } } },
    },
  }),
  defineOperation({
    id: 'organizations.revoke_subscription_features',
    group: g,
    method: 'PUT',
    path: `${subs}/{subscription_id}/revoke_features`,
    pathParams: orgSubscriptionPath,
    body: featureCodesBody,
    response: single(subscriptionAttributes),
    releases: ALL_RELEASES,
    summary: 'Take features away from one subscription',
    source: 'decided',
    sandbox: custom,
    example: {
      path: { id: 'org-001', subscription_id: 'sub-002' },
      body: { feature_codes: ['webhooks'] },
    },
  }),
])
