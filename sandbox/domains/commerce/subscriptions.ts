import type { Handlers, Row, SandboxContext, SandboxRequest } from '../../types'
import { requirePermission } from './access'
import { descendantsOf } from './organizations'
import { insertSubscription } from './seed'
import {
  PLANS,
  SUBSCRIPTIONS,
  checkFeatureCodes,
  listAnswer,
  mergeGrants,
  nowIso,
  one,
  planAttrs,
  subscriptionAttrs,
  visibleOrg,
} from './store'

const SEARCH = ['plan_name', 'plan_code', 'product_name', 'product_code'] as const

/** Subscriptions of organizations `orgIds`, filtered by status and product_code. */
function subscriptionsOf(
  ctx: SandboxContext,
  orgIds: Set<string>,
  query: Record<string, unknown>,
): Row[] {
  return ctx.db.list(SUBSCRIPTIONS).filter((s) => {
    const a = subscriptionAttrs(s)
    return (
      orgIds.has(a.organization_id) &&
      (query.status === undefined || a.status === query.status) &&
      (query.product_code === undefined || a.product_code === query.product_code)
    )
  })
}

/** The active subscriptions of one organization (for other domains: current plans, limits). */
export function activeSubscriptions(ctx: SandboxContext, orgId: string): Row[] {
  return subscriptionsOf(ctx, new Set([orgId]), { status: 'active' })
}

/** The organization in the path (administrators only) and, when asked, its subscription. */
function orgAndSubscription(req: SandboxRequest, ctx: SandboxContext, write: boolean) {
  const caller = requirePermission(req, ctx, write ? 'organizations.write' : 'organizations.read')
  const org = visibleOrg(ctx, caller, req.path.id)
  const sub = ctx.db.get(SUBSCRIPTIONS, req.path.subscription_id ?? '')
  const ofOrg = sub && subscriptionAttrs(sub).organization_id === org.id
  return { org, sub: ofOrg ? sub : undefined }
}

function requireSubscription(req: SandboxRequest, ctx: SandboxContext, write: boolean): Row {
  const { sub } = orgAndSubscription(req, ctx, write)
  return sub ?? ctx.notFound(`Couldn't find subscription ${req.path.subscription_id}`)
}

/** Ends a subscription now with `status`. */
function end(ctx: SandboxContext, sub: Row, status: 'cancelled' | 'replaced'): Row {
  const stamp = nowIso(ctx)
  return ctx.db.update(SUBSCRIPTIONS, sub.id, {
    status,
    ends_at: stamp,
    cancelled_at: status === 'cancelled' ? stamp : null,
    auto_renew: false,
    updated_at: stamp,
  })
}

/** Handlers of subscribe/unsubscribe and the organization subscription operations. */
export const subscriptionHandlers: Handlers = {
  'organizations.subscribe': (req, ctx) => {
    const { org } = orgAndSubscription(req, ctx, true)
    const b = req.body
    const plan = ctx.db.get(PLANS, String(b.plan_id)) ?? ctx.invalid({ plan_id: ['is not a plan'] })
    const p = planAttrs(plan)
    if (p.partner && org.attributes.partner !== true) {
      ctx.invalid({ plan_id: ['is a partner plan; the organization is not a partner'] })
    }
    const active = activeSubscriptions(ctx, org.id).filter(
      (s) => subscriptionAttrs(s).product_id === p.product_id,
    )
    if (active.some((s) => subscriptionAttrs(s).plan_id === plan.id)) {
      ctx.invalid({ plan_id: ['is already an active plan of this organization'] })
    }
    for (const s of active) end(ctx, s, 'replaced')
    const sub = insertSubscription(ctx, org.id, plan, {
      auto_renew: b.auto_renew === undefined ? true : b.auto_renew === true,
    })
    return one(sub)
  },

  'organizations.unsubscribe': (req, ctx) => {
    const { org } = orgAndSubscription(req, ctx, true)
    const planId = String(req.body.plan_id)
    const sub = activeSubscriptions(ctx, org.id).find(
      (s) => subscriptionAttrs(s).plan_id === planId,
    )
    if (!sub) return ctx.invalid({ plan_id: ['is not an active plan of this organization'] })
    return one(end(ctx, sub, 'cancelled'))
  },

  'organizations.dependent_subscriptions': (req, ctx) => {
    const { org } = orgAndSubscription(req, ctx, false)
    const rows = subscriptionsOf(ctx, descendantsOf(ctx, org.id), req.query)
    return listAnswer(rows, req.query, SEARCH)
  },

  'organizations.list_subscriptions': (req, ctx) => {
    const { org } = orgAndSubscription(req, ctx, false)
    return listAnswer(subscriptionsOf(ctx, new Set([org.id]), req.query), req.query, SEARCH)
  },

  'organizations.active_subscriptions': (req, ctx) => {
    const { org } = orgAndSubscription(req, ctx, false)
    if (req.query.status !== undefined && req.query.status !== 'active') {
      return listAnswer([], req.query)
    }
    const rows = subscriptionsOf(ctx, new Set([org.id]), { ...req.query, status: 'active' })
    return listAnswer(rows, req.query, SEARCH)
  },

  'organizations.show_subscription': (req, ctx) => one(requireSubscription(req, ctx, false)),

  'organizations.update_subscription': (req, ctx) => {
    const sub = requireSubscription(req, ctx, true)
    const b = req.body
    if (typeof b.ends_at === 'string') {
      const ends = Date.parse(b.ends_at)
      if (Number.isNaN(ends)) ctx.invalid({ ends_at: ['must be an ISO 8601 date-time'] })
      if (ends <= Date.parse(subscriptionAttrs(sub).starts_at)) {
        ctx.invalid({ ends_at: ['must be after starts_at'] })
      }
      b.ends_at = new Date(ends).toISOString()
    }
    return one(ctx.db.update(SUBSCRIPTIONS, sub.id, { ...b, updated_at: nowIso(ctx) }))
  },

  'organizations.assign_subscription_features': (req, ctx) => {
    const sub = requireSubscription(req, ctx, true)
    const { features } = req.body
    const merged = mergeGrants(ctx, subscriptionAttrs(sub).features, features)
    return one(ctx.db.update(SUBSCRIPTIONS, sub.id, { features: merged, updated_at: nowIso(ctx) }))
  },

  'organizations.revoke_subscription_features': (req, ctx) => {
    const sub = requireSubscription(req, ctx, true)
    const { feature_codes: codes } = req.body
    checkFeatureCodes(ctx, codes, 'feature_codes')
    const features = { ...subscriptionAttrs(sub).features }
    for (const code of codes) delete features[code]
    return one(ctx.db.update(SUBSCRIPTIONS, sub.id, { features, updated_at: nowIso(ctx) }))
  },
}
