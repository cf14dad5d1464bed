import type { AppError } from '@contract/errors'

/** A plan as the billing screens use it (the list's row, read leniently). */
export interface PlanRow {
  id: string
  name: string
  code: string
  description: string
  price: number | null
  currency: string
  plan_order: number | null
  isDefault: boolean
  partner: boolean
  features: Record<string, unknown>
}

/** A plan row from a plan resource of the service. */
export function planRowOf(resource: { id: string; attributes: Record<string, unknown> }): PlanRow {
  const a = resource.attributes
  const features = a.features && typeof a.features === 'object' ? a.features : {}
  return {
    id: resource.id,
    name: String(a.name ?? resource.id),
    code: typeof a.code === 'string' ? a.code : '',
    description: typeof a.description === 'string' ? a.description : '',
    price: typeof a.price === 'number' ? a.price : null,
    currency: typeof a.currency === 'string' ? a.currency : '',
    plan_order: typeof a.plan_order === 'number' ? a.plan_order : null,
    isDefault: a.default === true,
    partner: a.partner === true,
    features: features as Record<string, unknown>,
  }
}

/** Plans in the product's order (plan_order, then name); plans without an order last. */
export function byPlanOrder(a: PlanRow, b: PlanRow): number {
  const oa = a.plan_order ?? Number.MAX_SAFE_INTEGER
  const ob = b.plan_order ?? Number.MAX_SAFE_INTEGER
  return oa - ob || a.name.localeCompare(b.name)
}

/** "USD 299.00", or "—" when the service sent no price. */
export function priceText(price: number | null, currency: string): string {
  if (price === null) return '—'
  const amount = price.toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  })
  return currency ? `${currency} ${amount}` : amount
}

/** What the update form starts from: the Plan fields the service holds (never the features). */
export function planFormInitial(plan: PlanRow): Record<string, unknown> {
  const out: Record<string, unknown> = { name: plan.name, partner: plan.partner }
  if (plan.code) out.code = plan.code
  if (plan.description) out.description = plan.description
  if (plan.price !== null) out.price = plan.price
  if (plan.plan_order !== null) out.plan_order = plan.plan_order
  return out
}

/**
 * Why a plan was not deleted, in plain words: the service refuses (409) while the plan is its
 * product's default or has active subscriptions.
 */
export function deleteRefusal(plan: PlanRow, error: AppError): string {
  const head = `“${plan.name}” was not deleted:`
  if (error.code !== 'CONFLICT') return `${head} ${error.message}`
  // The service's own words say which (the sandbox's do); else what the list last showed.
  const said = error.message.toLowerCase()
  const isDefault = said.includes('default') || (!said.includes('subscription') && plan.isDefault)
  if (isDefault)
    return `${head} it is the default plan of this product. Make another plan the default, or unset it, first.`
  return `${head} it has active subscriptions. Move those organizations to another plan first.`
}
