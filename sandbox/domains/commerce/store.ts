import type { Caller, Row, SandboxContext, SandboxRequest, SandboxResponse } from '../../types'
import { ROOT_ORGANIZATION, present } from '../../engine/generic'
import { keepIds } from '../../engine/ids'
import { ORGANIZATIONS, USERS } from '../identity/users'

/**
 * Shared pieces of the commerce domain: collection names, row shapes, lookups, visibility rules
 * and list answers. Other domains (the current-user group: products, subscriptions history,
 * change product) may import these.
 */

/** Collection names owned by the commerce domain. */
export const PRODUCTS = 'products'
export const FEATURES = 'features'
export const PLANS = 'plans'
export const SUBSCRIPTIONS = 'subscriptions'
export { ORGANIZATIONS, USERS }

/** How a plan or subscription grants one feature. */
export interface FeatureGrant {
  limit: number
  active: boolean
  unlimited: boolean
}

/** Attributes of a 'product' row. */
export interface ProductAttributes {
  code: string
  name: string
  description: string | null
  active: boolean
  created_at: string
  updated_at: string
}

/** Attributes of a 'feature' row ('limit' features count something, 'toggle' ones switch). */
export interface FeatureAttributes {
  code: string
  name: string
  description: string | null
  kind: 'limit' | 'toggle'
  created_at: string
  updated_at: string
}

/** Attributes of a 'plan' row. */
export interface PlanAttributes {
  product_id: string
  product_code: string
  name: string
  code: string
  description: string | null
  price: number
  currency: string
  plan_order: number
  features: Record<string, FeatureGrant>
  partner: boolean
  default: boolean
  created_at: string
  updated_at: string
  [key: string]: unknown
}

/** Attributes of a 'subscription' row. */
export interface SubscriptionAttributes {
  organization_id: string
  plan_id: string
  plan_code: string
  plan_name: string
  product_id: string
  product_code: string
  product_name: string
  status: 'active' | 'cancelled' | 'expired' | 'replaced'
  price: number
  currency: string
  auto_renew: boolean
  features: Record<string, FeatureGrant>
  starts_at: string
  ends_at: string | null
  cancelled_at: string | null
  created_at: string
  updated_at: string
  [key: string]: unknown
}

/** Typed view of a plan row. */
export const planAttrs = (row: Row): PlanAttributes => row.attributes as PlanAttributes
/** Typed view of a subscription row. */
export const subscriptionAttrs = (row: Row): SubscriptionAttributes =>
  row.attributes as SubscriptionAttributes

/** The product with this code, or a 404. */
export function productByCode(ctx: SandboxContext, code: string): Row {
  const row = ctx.db.list(PRODUCTS).find((p) => p.attributes.code === code)
  return row ?? ctx.notFound(`Couldn't find product ${code}`)
}

/** The plans of a product, in plan_order. */
export function plansOf(ctx: SandboxContext, productId: string): Row[] {
  return ctx.db
    .list(PLANS)
    .filter((p) => planAttrs(p).product_id === productId)
    .sort((a, b) => planAttrs(a).plan_order - planAttrs(b).plan_order || a.id.localeCompare(b.id))
}

/** The plan `id` of product `code`; 404 for an unknown product, plan, or a plan of another product. */
export function planOfProduct(
  ctx: SandboxContext,
  code: string,
  id: string,
): { product: Row; plan: Row } {
  const product = productByCode(ctx, code)
  const plan = ctx.db.get(PLANS, id)
  if (!plan || planAttrs(plan).product_id !== product.id) {
    ctx.notFound(`Couldn't find plan ${id} of product ${code}`)
  }
  return { product, plan }
}

/** Codes of every known feature. */
export function featureCodes(ctx: SandboxContext): Set<string> {
  return new Set(ctx.db.list(FEATURES).map((f) => String(f.attributes.code)))
}

/**
 * Merges requested grants into `current` (missing fields keep their value, new features get
 * limit 0, active, not unlimited); unknown feature codes are a 422 on `features.<code>`.
 */
export function mergeGrants(
  ctx: SandboxContext,
  current: Record<string, FeatureGrant>,
  requested: Record<string, Partial<FeatureGrant>>,
): Record<string, FeatureGrant> {
  checkFeatureCodes(ctx, Object.keys(requested), 'features')
  const out: Record<string, FeatureGrant> = { ...current }
  for (const [code, grant] of Object.entries(requested)) {
    const base = current[code] ?? { limit: 0, active: true, unlimited: false }
    out[code] = {
      limit: grant.limit ?? base.limit,
      active: grant.active ?? base.active,
      unlimited: grant.unlimited ?? base.unlimited,
    }
  }
  return out
}

/** 422 when any code is not a known feature; `field` names where the codes came from. */
export function checkFeatureCodes(ctx: SandboxContext, codes: string[], field: string): void {
  const known = featureCodes(ctx)
  const errors: Record<string, string[]> = {}
  codes.forEach((code, i) => {
    if (!known.has(code)) {
      errors[field === 'features' ? `features.${code}` : `${field}.${i}`] = [
        'is not a known feature',
      ]
    }
  })
  if (Object.keys(errors).length > 0) ctx.invalid(errors)
}

/** The caller of a 'user' operation (the engine always resolves one for them). */
export function callerOf(req: SandboxRequest, ctx: SandboxContext): Caller {
  return req.caller ?? ctx.error(401, 'Sign in first')
}

/** True for an administrator of the root organization, who administers every organization. */
export function isRootAdmin(caller: Caller): boolean {
  return caller.role === 'administrator' && caller.organizationId === ROOT_ORGANIZATION
}

/**
 * The organizations a caller administers: every one for root administrators; their own and its
 * descendants (parent_id chain) for other administrators and managers; their own for the rest.
 */
export function visibleOrgIds(ctx: SandboxContext, caller: Caller): Set<string> {
  const all = ctx.db.list(ORGANIZATIONS)
  if (isRootAdmin(caller)) return new Set(all.map((o) => o.id))
  const out = new Set([caller.organizationId])
  if (caller.role !== 'administrator' && caller.role !== 'manager') return out
  let grew = true
  while (grew) {
    grew = false
    for (const o of all) {
      const parent = o.attributes.parent_id
      if (typeof parent === 'string' && out.has(parent) && !out.has(o.id)) {
        out.add(o.id)
        grew = true
      }
    }
  }
  return out
}

/** The organization row if the caller administers it, else 404 (its existence is not revealed). */
export function visibleOrg(ctx: SandboxContext, caller: Caller, id: string): Row {
  const row = ctx.db.get(ORGANIZATIONS, id)
  if (!row || !visibleOrgIds(ctx, caller).has(id)) ctx.notFound(`Couldn't find organization ${id}`)
  return row
}

/** The organization a user row belongs to. */
export function orgOfUser(row: Row): string {
  return String(row.internal?.organization_id ?? row.attributes.organization_id ?? '')
}

/** A single-resource answer. */
export function one(row: Row, status = 200): SandboxResponse {
  return { status, body: { data: present(row) } }
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0
  if (a === undefined || a === null) return 1
  if (b === undefined || b === null) return -1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  const sa = String(a)
  const sb = String(b)
  return sa < sb ? -1 : sa > sb ? 1 : 0
}

/** Search (over `searchFields`), sort and page, as the generic list does. */
export function sortAndSearch(
  rows: Row[],
  query: Record<string, unknown>,
  searchFields: readonly string[],
): Row[] {
  let out = rows
  const search = typeof query.search === 'string' ? query.search.trim().toLowerCase() : ''
  if (search) {
    out = out.filter((r) =>
      searchFields.some((f) => {
        const v = r.attributes[f]
        return typeof v === 'string' && v.toLowerCase().includes(search)
      }),
    )
  }
  if (typeof query.sort === 'string' && query.sort !== '') {
    const desc = query.sort.startsWith('-')
    const field = desc ? query.sort.slice(1) : query.sort
    out = [...out].sort((a, b) => {
      const c = compare(a.attributes[field], b.attributes[field])
      return (desc ? -c : c) || a.id.localeCompare(b.id)
    })
  }
  return out
}

/** A collection answer: `rows` narrowed by `ids`, searched, sorted and paged by the list query. */
export function listAnswer(
  rows: Row[],
  query: Record<string, unknown>,
  searchFields: readonly string[] = [],
  show: (row: Row) => ReturnType<typeof present> = present,
): SandboxResponse {
  const all = sortAndSearch(keepIds(rows, query), query, searchFields)
  const perPage = Number(query.per_page ?? 25)
  const page = Number(query.page ?? 1)
  const slice = all.slice((page - 1) * perPage, page * perPage)
  return {
    status: 200,
    body: {
      data: slice.map(show),
      meta: {
        pagination: {
          current_page: page,
          per_page: perPage,
          total_pages: Math.ceil(all.length / perPage),
          total_count: all.length,
        },
      },
    },
  }
}

/** The current sandbox time as ISO 8601. */
export const nowIso = (ctx: SandboxContext): string => ctx.now().toISOString()
