import type { Handlers, Row, SandboxContext, SandboxRequest } from '../../types'
import { requirePermission } from './access'
import {
  FEATURES,
  PLANS,
  SUBSCRIPTIONS,
  checkFeatureCodes,
  listAnswer,
  mergeGrants,
  nowIso,
  one,
  planAttrs,
  planOfProduct,
  plansOf,
  productByCode,
  subscriptionAttrs,
  type PlanAttributes,
} from './store'

/** 422 when another plan of the same product already uses `code`. */
function checkCodeFree(ctx: SandboxContext, productId: string, code: string, selfId?: string) {
  const taken = plansOf(ctx, productId).some((p) => p.id !== selfId && planAttrs(p).code === code)
  if (taken) ctx.invalid({ code: ['has already been taken by another plan of this product'] })
}

/** A plan code derived from a name: "PCI Gold 2025" → "pci_gold_2025". */
export function codeFromName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64)
  return slug || 'plan'
}

function setDefault(ctx: SandboxContext, plan: Row, value: boolean): Row {
  const p = planAttrs(plan)
  const stamp = nowIso(ctx)
  if (value) {
    for (const other of plansOf(ctx, p.product_id)) {
      if (other.id !== plan.id && planAttrs(other).default) {
        ctx.db.update(PLANS, other.id, { default: false, updated_at: stamp })
      }
    }
  }
  if (p.default === value) return plan
  return ctx.db.update(PLANS, plan.id, { default: value, updated_at: stamp })
}

const hasActiveSubscriptions = (ctx: SandboxContext, planId: string) =>
  ctx.db.list(SUBSCRIPTIONS).some((s) => {
    const a = subscriptionAttrs(s)
    return a.plan_id === planId && a.status === 'active'
  })

const read = (req: SandboxRequest, ctx: SandboxContext) =>
  requirePermission(req, ctx, 'billing.read')

/** Handlers of the billing group, keyed by operation id. */
export const billingHandlers: Handlers = {
  'billing.list_plans': (req, ctx) => {
    read(req, ctx)
    const product = productByCode(ctx, req.path.product_code)
    return listAnswer(plansOf(ctx, product.id), req.query, ['name', 'code', 'description'])
  },

  'billing.create_plan': (req, ctx) => {
    requirePermission(req, ctx, 'billing.write')
    const product = productByCode(ctx, req.path.product_code)
    const body = req.body
    const code = body.code ?? codeFromName(body.name)
    checkCodeFree(ctx, product.id, code)
    const stamp = nowIso(ctx)
    const attributes: PlanAttributes = {
      product_id: product.id,
      product_code: String(product.attributes.code),
      name: body.name,
      code,
      description: body.description ?? null,
      price: body.price ?? 0,
      currency: 'USD',
      plan_order: body.plan_order ?? plansOf(ctx, product.id).length + 1,
      features: mergeGrants(ctx, {}, body.features ?? {}),
      partner: body.partner ?? false,
      default: false,
      created_at: stamp,
      updated_at: stamp,
    }
    return one(ctx.db.insert(PLANS, { id: ctx.db.nextId('pln'), type: 'plan', attributes }), 201)
  },

  'billing.show_plan': (req, ctx) => {
    read(req, ctx)
    return one(planOfProduct(ctx, req.path.product_code, req.path.id).plan)
  },

  // Interface §4: PUT /v2/billing/products/{product_code}/plans/{id}; name required; 200 object.
  'billing.update_plan': (req, ctx) => {
    const { plan } = planOfProduct(ctx, req.path.product_code, req.path.id)
    requirePermission(req, ctx, 'billing.write')
    const body = req.body
    const p = planAttrs(plan)
    if (body.code !== undefined) checkCodeFree(ctx, p.product_id, body.code, plan.id)
    const changes: Partial<PlanAttributes> = { name: body.name, updated_at: nowIso(ctx) }
    if (body.code !== undefined) changes.code = body.code
    if (body.description !== undefined) changes.description = body.description
    if (body.price !== undefined) changes.price = body.price
    if (body.plan_order !== undefined) changes.plan_order = body.plan_order
    if (body.partner !== undefined) changes.partner = body.partner
    // Features given in an update replace the plan's whole map.
    if (body.features !== undefined) changes.features = mergeGrants(ctx, {}, body.features)
    return one(ctx.db.update(PLANS, plan.id, changes))
  },

  'billing.delete_plan': (req, ctx) => {
    const { plan } = planOfProduct(ctx, req.path.product_code, req.path.id)
    requirePermission(req, ctx, 'billing.write')
    if (planAttrs(plan).default) {
      ctx.error(409, 'The default plan of a product cannot be deleted; unset it first')
    }
    if (hasActiveSubscriptions(ctx, plan.id)) {
      ctx.error(409, 'The plan has active subscriptions; move them to another plan first')
    }
    ctx.db.remove(PLANS, plan.id)
    return { status: 200, body: { data: { id: plan.id, deleted: true } } }
  },

  'billing.default_plan': (req, ctx) => {
    read(req, ctx)
    const product = productByCode(ctx, req.path.product_code)
    const plan = plansOf(ctx, product.id).find((p) => planAttrs(p).default)
    return one(plan ?? ctx.notFound(`Product ${req.path.product_code} has no default plan`))
  },

  'billing.assign_features': (req, ctx) => {
    const { plan } = planOfProduct(ctx, req.path.product_code, req.path.id)
    requirePermission(req, ctx, 'billing.write')
    const { features } = req.body
    const merged = mergeGrants(ctx, planAttrs(plan).features, features)
    return one(ctx.db.update(PLANS, plan.id, { features: merged, updated_at: nowIso(ctx) }))
  },

  'billing.revoke_features': (req, ctx) => {
    const { plan } = planOfProduct(ctx, req.path.product_code, req.path.id)
    requirePermission(req, ctx, 'billing.write')
    const { feature_codes: codes } = req.body
    checkFeatureCodes(ctx, codes, 'feature_codes')
    const features = { ...planAttrs(plan).features }
    for (const code of codes) delete features[code]
    return one(ctx.db.update(PLANS, plan.id, { features, updated_at: nowIso(ctx) }))
  },

  'billing.list_features': (req, ctx) => {
    read(req, ctx)
    return listAnswer(ctx.db.list(FEATURES), req.query, ['code', 'name', 'description'])
  },

  'billing.set_default_plan': (req, ctx) => {
    const { plan } = planOfProduct(ctx, req.path.product_code, req.path.id)
    requirePermission(req, ctx, 'billing.write')
    return one(setDefault(ctx, plan, true))
  },

  'billing.unset_default_plan': (req, ctx) => {
    const { plan } = planOfProduct(ctx, req.path.product_code, req.path.id)
    requirePermission(req, ctx, 'billing.write')
    return one(setDefault(ctx, plan, false))
  },

  'billing.default_plans': (req, ctx) => {
    read(req, ctx)
    const rows = ctx.db
      .list(PLANS)
      .filter((p) => planAttrs(p).default)
      .sort((a, b) => planAttrs(a).product_id.localeCompare(planAttrs(b).product_id))
    return listAnswer(rows, { per_page: 500 })
  },
}
