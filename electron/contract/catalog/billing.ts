import { z } from 'zod'
import { ALL_RELEASES } from '../releases'
import {
  anyObject,
  collection,
  dateTime,
  deletedResponse,
  description,
  idParam,
  name,
  plainListQuery,
  resource,
  single,
} from '../schemas/common'
import { defineGroup, defineOperation } from './types'

/** A feature or plan code (decided here): lower-case letters, digits and '_', 1–64 characters. */
export const featureCode = z
  .string()
  .regex(/^[a-z0-9_]{1,64}$/, 'must be 1–64 lower-case letters, digits or "_"')

/** How a plan grants one feature (interface §2): a limit, whether active, whether unlimited. */
export const featureGrant = z.strictObject({
  limit: z.number().min(0).optional(),
  active: z.boolean().optional(),
  unlimited: z.boolean().optional(),
})

/** Features keyed by feature code (interface §2), at most 100 of them. */
export const featureMap = z
  .record(featureCode, featureGrant)
  .refine((m) => Object.keys(m).length <= 100, 'must have at most 100 features')

/** The Plan body of plan update and create (interface §2): name required, the rest optional. */
export const planBody = z.strictObject({
  name,
  code: featureCode.optional(),
  description: description.optional(),
  price: z.number().min(0).max(1_000_000_000).optional(),
  plan_order: z.number().int().min(0).max(100_000).optional(),
  features: featureMap.optional(),
  partner: z.boolean().optional(),
})

/** FeaturesBodyRequest (interface §2 names it; shape decided here): features to grant or change. */
export const featuresBody = z.strictObject({ features: featureMap })

/** Body of revoke features (decided here): the codes to take away, 1–100 of them. */
export const featureCodesBody = z.strictObject({
  feature_codes: z.array(featureCode).min(1).max(100),
})

/** A feature as a plan or subscription holds it (all fields tolerated as optional). */
export const featureGrantAttributes = z.looseObject({
  limit: z.number().nullish(),
  active: z.boolean().optional(),
  unlimited: z.boolean().optional(),
})

/** Attributes of a plan (decided here, Plan fields plus product, default flag and dates). */
export const planAttributes = z.looseObject({
  name: z.string(),
  code: z.string().nullish(),
  description: z.string().nullish(),
  price: z.number().nullish(),
  currency: z.string().nullish(),
  plan_order: z.number().nullish(),
  features: z.record(z.string(), featureGrantAttributes).optional(),
  partner: z.boolean().optional(),
  default: z.boolean().optional(),
  product_id: z.string().nullish(),
  product_code: z.string().nullish(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
})

/** Attributes of a product (the interface names "product"; fields decided here). */
export const productAttributes = z.looseObject({
  code: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  active: z.boolean().optional(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
})

/** Attributes of a feature (decided here): 'limit' features count, 'toggle' features switch. */
export const featureAttributes = z.looseObject({
  code: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  kind: z.string().optional(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
})

/**
 * Answer of plan update (interface §4): "a JSON object"; the sandbox sends the plan envelope,
 * any other object is accepted too.
 */
export const planUpdateResponse = z.union([single(planAttributes), anyObject])

/** Path parameters of the product-scoped plan collection. */
export const productPath = z.strictObject({ product_code: idParam })

/** Path parameters of one plan of a product (interface §4: product_code and id, both strings). */
export const productPlanPath = z.strictObject({ product_code: idParam, id: idParam })

/** Plan envelope with its resource (for the UI and the sandbox). */
export const planResource = resource(planAttributes)

const g = 'billing' as const
const custom = { kind: 'custom' } as const
const plans = '/v2/billing/products/{product_code}/plans'

/** Billing: plans of a product, their features and defaults; the feature list. */
export const billingOperations = defineGroup([
  defineOperation({
    id: 'billing.list_plans',
    group: g,
    method: 'GET',
    path: plans,
    pathParams: productPath,
    query: plainListQuery,
    response: collection(planAttributes),
    releases: ALL_RELEASES,
    summary: 'Retrieve all plans of a product',
    source: 'decided',
    sandbox: custom,
    example: { path: { product_code: 'pci_scan' } },
  }),
  defineOperation({
    id: 'billing.create_plan',
    group: g,
    method: 'POST',
    path: plans,
    pathParams: productPath,
    body: planBody,
    response: single(planAttributes),
    releases: ALL_RELEASES,
    summary: 'Create a plan of a product',
    source: 'decided',
    successStatus: 201,
    sandbox: custom,
    example: {
      path: { product_code: 'internal_scan' },
      body: {
        name: 'Internal Starter',
        code: 'starter',
        price: 99,
        plan_order: 0,
        features: { targets_limit: { limit: 16, active: true, unlimited: false } },
      },
    },
  }),
  defineOperation({
    id: 'billing.show_plan',
    group: g,
    method: 'GET',
    path: `${plans}/{id}`,
    pathParams: productPlanPath,
    response: single(planAttributes),
    releases: ALL_RELEASES,
    summary: 'Retrieve a plan of a product',
    source: 'decided',
    sandbox: custom,
    example: { path: { product_code: 'pci_scan', id: 'pln-002' } },
  }),
  defineOperation({
    id: 'billing.update_plan',
    group: g,
    method: 'PUT',
    path: `${plans}/{id}`,
    pathParams: productPlanPath,
    body: planBody,
    response: planUpdateResponse,
    releases: ALL_RELEASES,
    summary: 'Update a plan of a product (features, when given, replace the whole map)',
    source: 'interface',
    errors: [401, 404, 422],
    sandbox: custom,
    example: {
      path: { product_code: 'pci_scan', id: 'pln-002' },
      body: { name: 'PCI Professional', price: 949.5, plan_order: 2 },
    },
  }),
  defineOperation({
    id: 'billing.delete_plan',
    group: g,
    method: 'DELETE',
    path: `${plans}/{id}`,
    pathParams: productPlanPath,
    response: deletedResponse,
    releases: ALL_RELEASES,
    summary: 'Delete a plan (refused with 409 while it is the default or has active subscriptions)',
    source: 'decided',
    errors: [401, 403, 404, 409],
    sandbox: custom,
    example: { path: { product_code: 'pci_scan', id: 'pln-003' } },
  }),
  defineOperation({
    id: 'billing.default_plan',
    group: g,
    method: 'GET',
    path: `${plans}/default`,
    pathParams: productPath,
    response: single(planAttributes),
    releases: ALL_RELEASES,
    summary: 'Retrieve the default plan of a product',
    source: 'decided',
    sandbox: custom,
    example: { path: { product_code: 'pci_scan' } },
  }),
  defineOperation({
    id: 'billing.assign_features',
    group: g,
    method: 'PUT',
    path: `${plans}/{id}/assign_features`,
    pathParams: productPlanPath,
    body: featuresBody,
    response: single(planAttributes),
    releases: ALL_RELEASES,
    summary: 'Grant features to a plan, or change how they are granted',
    source: 'decided',
    sandbox: custom,
    example: {
      path: { product_code: 'pci_scan', id: 'pln-001' },
      body: { features: { api_access: { limit: 0, active: true, unlimited: false } } },
    },
  }),
  defineOperation({
    id: 'billing.revoke_features',
    group: g,
    method: 'PUT',
    path: `${plans}/{id}/revoke_features`,
    pathParams: productPlanPath,
    body: featureCodesBody,
    response: single(planAttributes),
    releases: ALL_RELEASES,
    summary: 'Take features away from a plan',
    source: 'decided',
    sandbox: custom,
    example: {
      path: { product_code: 'pci_scan', id: 'pln-002' },
      body: { feature_codes: ['webhooks'] },
    },
  }),
  defineOperation({
    id: 'billing.list_features',
    group: g,
    method: 'GET',
    path: '/v2/billing/features',
    query: plainListQuery,
    response: collection(featureAttributes),
    releases: ALL_RELEASES,
    summary: 'Retrieve all features',
    source: 'decided',
    sandbox: custom,
    example: {},
  }),
  defineOperation({
    id: 'billing.set_default_plan',
    group: g,
    method: 'PUT',
    path: `${plans}/{id}/set_default`,
    pathParams: productPlanPath,
    response: single(planAttributes),
    releases: ALL_RELEASES,
    summary: 'Make a plan the default of its product (the previous default stops being one)',
    source: 'decided',
    sandbox: custom,
    example: { path: { product_code: 'pci_scan', id: 'pln-002' } },
  }),
  defineOperation({
    id: 'billing.unset_default_plan',
    group: g,
    method: 'PUT',
    path: `${plans}/{id}/unset_default`,
    pathParams: productPlanPath,
    response: single(planAttributes),
    releases: ALL_RELEASES,
    summary: 'Make a plan no longer the default of its product (no-op when it is not)',
    source: 'decided',
    sandbox: custom,
    example: { path: { product_code: 'pci_scan', id: 'pln-001' } },
  }),
  defineOperation({
    id: 'billing.default_plans',
    group: g,
    method: 'GET',
    path: '/v2/billing/default_plans',
    response: collection(planAttributes),
    releases: ALL_RELEASES,
    summary: 'Retrieve the default plan of every product',
    source: 'decided',
    sandbox: custom,
    example: {},
  }),
])
