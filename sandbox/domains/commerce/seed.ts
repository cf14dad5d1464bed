import type { Row, SandboxContext } from '../../types'
import {
  FEATURES,
  PLANS,
  PRODUCTS,
  SUBSCRIPTIONS,
  planAttrs,
  type FeatureGrant,
  type PlanAttributes,
  type SubscriptionAttributes,
} from './store'

const DAY = 86_400_000

const PRODUCT_SEED = [
  [
    'pci_scan',
    'PCI ASV Scanning',
    'Quarterly external scans by an Approved Scanning Vendor for PCI DSS 11.3.2',
  ],
  [
    'external_scan',
    'External Vulnerability Scanning',
    'Scans of internet-facing hosts and services',
  ],
  [
    'internal_scan',
    'Internal Vulnerability Scanning',
    'Scans of internal networks through an on-premises scanner',
  ],
] as const

const FEATURE_SEED = [
  ['targets_limit', 'Targets', 'limit', 'How many scan targets the organization may define'],
  ['scans_per_month', 'Scans per month', 'limit', 'How many scans may start each calendar month'],
  ['saq_access', 'Self-assessment questionnaires', 'toggle', 'PCI DSS SAQ drafting and approval'],
  ['api_access', 'API access', 'toggle', 'Access tokens for the HTTP interface'],
  ['advanced_reports', 'Advanced reports', 'toggle', 'Custom report templates and schedules'],
  ['webhooks', 'Webhooks', 'toggle', 'Event deliveries to the organization’s endpoints'],
  [
    'internal_scanners',
    'Internal scanners',
    'limit',
    'How many on-premises scanners may be registered',
  ],
] as const

const limit = (n: number): FeatureGrant => ({ limit: n, active: true, unlimited: false })
const on: FeatureGrant = { limit: 0, active: true, unlimited: false }
const unlimited: FeatureGrant = { limit: 0, active: true, unlimited: true }

interface PlanSeed {
  product: string
  name: string
  code: string
  price: number
  order: number
  isDefault?: boolean
  partner?: boolean
  description: string
  features: Record<string, FeatureGrant>
}

// Ids follow this order: pln-001 … pln-008.
const PLAN_SEED: PlanSeed[] = [
  {
    product: 'pci_scan',
    name: 'PCI Basic',
    code: 'basic',
    price: 299,
    order: 1,
    isDefault: true,
    description: 'Quarterly ASV scans of up to 10 targets',
    features: { targets_limit: limit(10), scans_per_month: limit(20), saq_access: on },
  },
  {
    product: 'pci_scan',
    name: 'PCI Professional',
    code: 'professional',
    price: 899,
    order: 2,
    description: 'ASV scans of up to 100 targets with reports, API and webhooks',
    features: {
      targets_limit: limit(100),
      scans_per_month: limit(200),
      saq_access: on,
      api_access: on,
      advanced_reports: on,
      webhooks: on,
    },
  },
  {
    product: 'pci_scan',
    name: 'PCI Legacy 2019',
    code: 'legacy_2019',
    price: 199,
    order: 9,
    description: 'Retired plan kept for billing history',
    features: { targets_limit: limit(5), scans_per_month: limit(8) },
  },
  {
    product: 'external_scan',
    name: 'External Starter',
    code: 'starter',
    price: 149,
    order: 1,
    isDefault: true,
    description: 'Monthly scans of up to 25 internet-facing targets',
    features: { targets_limit: limit(25), scans_per_month: limit(30) },
  },
  {
    product: 'external_scan',
    name: 'External Business',
    code: 'business',
    price: 499,
    order: 2,
    description: 'Unlimited scans of up to 250 targets',
    features: {
      targets_limit: limit(250),
      scans_per_month: unlimited,
      api_access: on,
      webhooks: on,
    },
  },
  {
    product: 'external_scan',
    name: 'External Partner',
    code: 'partner',
    price: 0,
    order: 3,
    partner: true,
    description: 'For partners who resell scanning to their customers',
    features: {
      targets_limit: unlimited,
      scans_per_month: unlimited,
      api_access: on,
      webhooks: on,
      advanced_reports: on,
    },
  },
  {
    product: 'internal_scan',
    name: 'Internal Standard',
    code: 'standard',
    price: 399,
    order: 1,
    isDefault: true,
    description: 'One on-premises scanner, 500 internal hosts',
    features: {
      targets_limit: limit(500),
      internal_scanners: limit(1),
      scans_per_month: limit(60),
    },
  },
  {
    product: 'internal_scan',
    name: 'Internal Enterprise',
    code: 'enterprise',
    price: 1299,
    order: 2,
    description: 'Ten scanners and unlimited scans',
    features: {
      targets_limit: unlimited,
      internal_scanners: limit(10),
      scans_per_month: unlimited,
      api_access: on,
      advanced_reports: on,
    },
  },
]

// Ids follow this order: sub-001 … sub-006. Days are relative to the sandbox clock at seed time.
const SUBSCRIPTION_SEED: {
  org: string
  plan: string
  status: SubscriptionAttributes['status']
  startDaysAgo: number
  endDaysAgo?: number
  endsInDays?: number
}[] = [
  { org: 'org-001', plan: 'pln-001', status: 'replaced', startDaysAgo: 730, endDaysAgo: 400 },
  { org: 'org-001', plan: 'pln-002', status: 'active', startDaysAgo: 400, endsInDays: 330 },
  { org: 'org-001', plan: 'pln-005', status: 'active', startDaysAgo: 200, endsInDays: 165 },
  { org: 'org-002', plan: 'pln-004', status: 'expired', startDaysAgo: 500, endDaysAgo: 135 },
  { org: 'org-002', plan: 'pln-001', status: 'active', startDaysAgo: 120, endsInDays: 245 },
  { org: 'org-002', plan: 'pln-003', status: 'cancelled', startDaysAgo: 900, endDaysAgo: 600 },
]

/** Seeds products, features, plans and subscriptions, in that order (after identity). */
export function seedCommerce(ctx: SandboxContext): void {
  const now = ctx.now().getTime()
  const at = (days: number) => new Date(now + days * DAY).toISOString()
  const productIds = new Map<string, Row>()
  PRODUCT_SEED.forEach(([code, name, description], i) => {
    const stamp = at(-1000 + i)
    const row = ctx.db.insert(PRODUCTS, {
      id: ctx.db.nextId('prd'),
      type: 'product',
      attributes: { code, name, description, active: true, created_at: stamp, updated_at: stamp },
    })
    productIds.set(code, row)
  })
  FEATURE_SEED.forEach(([code, name, kind, description], i) => {
    const stamp = at(-1000 + i)
    ctx.db.insert(FEATURES, {
      id: ctx.db.nextId('fea'),
      type: 'feature',
      attributes: { code, name, kind, description, created_at: stamp, updated_at: stamp },
    })
  })
  PLAN_SEED.forEach((p, i) => {
    const product = productIds.get(p.product)!
    const attributes: PlanAttributes = {
      product_id: product.id,
      product_code: p.product,
      name: p.name,
      code: p.code,
      description: p.description,
      price: p.price,
      currency: 'USD',
      plan_order: p.order,
      features: p.features,
      partner: p.partner ?? false,
      default: p.isDefault ?? false,
      created_at: at(-990 + i),
      updated_at: at(-300 + i),
    }
    ctx.db.insert(PLANS, { id: ctx.db.nextId('pln'), type: 'plan', attributes })
  })
  for (const s of SUBSCRIPTION_SEED) {
    const plan = ctx.db.require(PLANS, s.plan)
    const ends = s.endDaysAgo !== undefined ? at(-s.endDaysAgo) : at(s.endsInDays ?? 365)
    insertSubscription(ctx, s.org, plan, {
      status: s.status,
      starts_at: at(-s.startDaysAgo),
      ends_at: ends,
      cancelled_at: s.status === 'cancelled' ? ends : null,
      auto_renew: s.status === 'active',
      created_at: at(-s.startDaysAgo - 1),
      updated_at: s.endDaysAgo !== undefined ? ends : at(-s.startDaysAgo),
    })
  }
}

/** Inserts a subscription of `orgId` to `plan` (product and plan fields copied); returns it. */
export function insertSubscription(
  ctx: SandboxContext,
  orgId: string,
  plan: Row,
  extra: Partial<SubscriptionAttributes> = {},
): Row {
  const p = planAttrs(plan)
  const product = ctx.db.require(PRODUCTS, p.product_id)
  const stamp = ctx.now().toISOString()
  const attributes: SubscriptionAttributes = {
    organization_id: orgId,
    plan_id: plan.id,
    plan_code: p.code,
    plan_name: p.name,
    product_id: product.id,
    product_code: p.product_code,
    product_name: String(product.attributes.name),
    status: 'active',
    price: p.price,
    currency: p.currency,
    auto_renew: true,
    features: structuredClone(p.features),
    starts_at: stamp,
    ends_at: null,
    cancelled_at: null,
    created_at: stamp,
    updated_at: stamp,
    ...extra,
  }
  return ctx.db.insert(SUBSCRIPTIONS, {
    id: ctx.db.nextId('sub'),
    type: 'subscription',
    attributes,
    internal: { organization_id: orgId },
  })
}
