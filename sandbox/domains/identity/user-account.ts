import type { Handler, Handlers, Row, SandboxContext, SandboxRequest } from '../../types'
import { ownedResources, transferResources as transferOwned } from '../commerce/resources'
import { callerOf } from './auth-handlers'
import { PERMISSIONS } from './permissions'
import { me, refuseWhileImpersonating, single } from './user-two-factor'
import {
  checkPassword,
  DEFAULT_NOTIFICATION_PREFERENCES,
  ORGANIZATIONS,
  passwordInternal,
  USERS,
  userAttrs,
  userInternal,
} from './users'

const stamp = (ctx: SandboxContext) => ({ updated_at: ctx.now().toISOString() })

/** Product codes known even when the commerce domain has seeded no products. */
const KNOWN_PRODUCTS = ['pci_scan', 'external_scan', 'internal_scan']

/** Sorts, searches and pages rows like the engine's generic list; answers a collection. */
export function listRows(rows: Row[], query: Record<string, unknown>, searchFields: string[]) {
  let out = rows
  const search = typeof query.search === 'string' ? query.search.trim().toLowerCase() : ''
  if (search) {
    out = out.filter((r) =>
      searchFields.some((f) =>
        String(r.attributes[f] ?? '')
          .toLowerCase()
          .includes(search),
      ),
    )
  }
  if (typeof query.sort === 'string' && query.sort) {
    const desc = query.sort.startsWith('-')
    const field = desc ? query.sort.slice(1) : query.sort
    out = [...out].sort((a, b) => {
      const x = String(a.attributes[field] ?? '')
      const y = String(b.attributes[field] ?? '')
      return (x < y ? -1 : x > y ? 1 : 0) * (desc ? -1 : 1)
    })
  }
  const perPage = Number(query.per_page ?? 25)
  const page = Number(query.page ?? 1)
  const slice = out.slice((page - 1) * perPage, page * perPage)
  return {
    status: 200,
    body: {
      data: slice.map((r) => ({ id: r.id, type: r.type, attributes: r.attributes })),
      meta: {
        pagination: {
          current_page: page,
          per_page: perPage,
          total_pages: Math.ceil(out.length / perPage),
          total_count: out.length,
        },
      },
    },
  }
}

/** A product row's code (`code` in the commerce domain's rows; `product_code` tolerated). */
function productCode(row: Row): string {
  return String(row.attributes.product_code ?? row.attributes.code ?? '')
}

/** The organization a row belongs to (internal or shown), for rows of other domains. */
function orgOf(row: Row): unknown {
  return row.internal?.organization_id ?? row.attributes.organization_id
}

const show: Handler<'user.show'> = (req, ctx) => single(me(req, ctx))

const update: Handler<'user.update'> = (req, ctx) =>
  single(ctx.db.update(USERS, me(req, ctx).id, { ...req.body, ...stamp(ctx) }))

const changePassword: Handler<'user.change_password'> = (req, ctx) => {
  refuseWhileImpersonating(req, ctx)
  const user = me(req, ctx)
  const { current_password, password } = req.body
  if (!checkPassword(user, current_password))
    return ctx.invalid({ current_password: ['is incorrect'] })
  if (password === current_password) {
    return ctx.invalid({ password: ['must differ from the current password'] })
  }
  ctx.db.update(USERS, user.id, stamp(ctx), passwordInternal(ctx, password))
  return { status: 200, body: { data: { success: true } } }
}

function preferences(row: Row) {
  const prefs = {
    ...DEFAULT_NOTIFICATION_PREFERENCES,
    ...userInternal(row).notification_preferences,
  }
  return {
    status: 200,
    body: { data: { id: row.id, type: 'notification_preferences', attributes: prefs } },
  }
}

const getPreferences: Handler<'user.notification_preferences'> = (req, ctx) =>
  preferences(me(req, ctx))

const updatePreferences: Handler<'user.update_notification_preferences'> = (req, ctx) => {
  const user = me(req, ctx)
  const current = userInternal(user).notification_preferences ?? {}
  const next = { ...current, ...req.body }
  return preferences(ctx.db.update(USERS, user.id, {}, { notification_preferences: next }))
}

/** Marked not implemented by the interface: an empty list flagged meta.not_implemented. */
const activePlans: Handler<'user.active_plans'> = () => ({
  status: 200,
  body: { data: [], meta: { not_implemented: true } },
})

const members: Handler<'user.organization_members'> = (req, ctx) => {
  const org = callerOf(req, ctx).organizationId
  const rows = ctx.db.list(USERS).filter((u) => userAttrs(u).organization_id === org)
  return listRows(rows, req.query, ['email', 'first_name', 'last_name'])
}

/** Codes of the products the caller's organization has an active subscription to. */
function subscribedCodes(ctx: SandboxContext, org: string): Set<string> {
  const products = ctx.db.list('products')
  const codeOf = (id: unknown) => {
    const product = products.find((p) => p.id === id)
    return product ? productCode(product) : undefined
  }
  const out = new Set<string>()
  for (const s of ctx.db.list('subscriptions')) {
    const a = s.attributes
    if (orgOf(s) !== org || (a.status !== undefined && a.status !== 'active')) continue
    const code = a.product_code ?? codeOf(a.product_id)
    if (typeof code === 'string') out.add(code)
  }
  return out
}

const products: Handler<'user.products'> = (req, ctx) => {
  const subscribed = subscribedCodes(ctx, callerOf(req, ctx).organizationId)
  const data = ctx.db.list('products').map((p) => ({
    id: p.id,
    type: p.type,
    attributes: {
      ...p.attributes,
      product_code: productCode(p),
      subscribed: subscribed.has(productCode(p)),
    },
  }))
  return { status: 200, body: { data } }
}

const organization: Handler<'user.organization'> = (req, ctx) =>
  single(
    ctx.db.get(ORGANIZATIONS, callerOf(req, ctx).organizationId) ?? ctx.notFound('organization'),
  )

const updateOrganization: Handler<'user.update_organization'> = (req, ctx) => {
  const caller = callerOf(req, ctx)
  if (caller.role !== 'administrator') {
    return ctx.error(403, 'only administrators can change the organization')
  }
  const org = ctx.db.get(ORGANIZATIONS, caller.organizationId) ?? ctx.notFound('organization')
  return single(ctx.db.update(ORGANIZATIONS, org.id, { ...req.body, ...stamp(ctx) }))
}

const subscriptionsHistory: Handler<'user.subscriptions_history'> = (req, ctx) => {
  const org = callerOf(req, ctx).organizationId
  const rows = ctx.db
    .list('subscriptions')
    .filter((s) => orgOf(s) === org)
    .sort((a, b) => String(b.attributes.created_at).localeCompare(String(a.attributes.created_at)))
  return listRows(rows, req.query, ['status', 'product_code'])
}

const changeProduct: Handler<'user.change_product'> = (req, ctx) => {
  const code = String(req.body.product_code)
  const seeded = ctx.db.list('products')
  const known = seeded.length
    ? seeded.some((p) => productCode(p) === code)
    : KNOWN_PRODUCTS.includes(code)
  if (!known) return ctx.notFound(`product ${code}`)
  return single(ctx.db.update(USERS, me(req, ctx).id, { current_product: code, ...stamp(ctx) }))
}

/** Sessions expire (the engine's TTL) but the engine does not say when: expires_at is null. */
const tokenValidity: Handler<'user.token_validity'> = (req, ctx) => ({
  status: 200,
  body: { data: { valid: true, via: callerOf(req, ctx).via, expires_at: null } },
})

const permissions: Handler<'user.permissions'> = (req, ctx) => {
  const role = callerOf(req, ctx).role
  return { status: 200, body: { data: { role, permissions: PERMISSIONS[role] } } }
}

/**
 * Decided: an account can always be deleted by its owner (not through impersonation); being
 * the last administrator of the organization, or owning resources, only gives warnings.
 */
function deletability(req: SandboxRequest, ctx: SandboxContext) {
  const user = me(req, ctx)
  const reasons: string[] = []
  const warnings: string[] = []
  if (req.caller?.impersonatorId) reasons.push('an impersonating administrator cannot delete it')
  const attrs = userAttrs(user)
  const admins = ctx.db
    .list(USERS)
    .filter((u) => u.attributes.organization_id === attrs.organization_id)
    .filter((u) => u.attributes.role === 'administrator')
  if (attrs.role === 'administrator' && admins.length === 1) {
    warnings.push('you are the last administrator of your organization')
  }
  const owned = Object.values(ownedResources(ctx, user.id)).reduce((n, rows) => n + rows.length, 0)
  if (owned > 0) warnings.push(`${owned} resources you own will have no owner: transfer them first`)
  return { deletable: reasons.length === 0, reasons, warnings }
}

const deletabilityCheck: Handler<'user.deletability'> = (req, ctx) => ({
  status: 200,
  body: { data: deletability(req, ctx) },
})

const deleteAccount: Handler<'user.delete'> = (req, ctx) => {
  refuseWhileImpersonating(req, ctx)
  const user = me(req, ctx)
  if (!checkPassword(user, String(req.body.password))) {
    return ctx.invalid({ password: ['is incorrect'] })
  }
  ctx.sessions.revokeAccessToken(user.id)
  ctx.sessions.revoke(callerOf(req, ctx).token)
  ctx.db.remove(USERS, user.id)
  return { status: 200, body: { data: { id: user.id, deleted: true } } }
}

const generateAccessToken: Handler<'user.generate_access_token'> = (req, ctx) => {
  refuseWhileImpersonating(req, ctx)
  const user = me(req, ctx)
  const access_token = ctx.sessions.createAccessToken(user.id)
  const created_at = ctx.now().toISOString()
  ctx.db.update(USERS, user.id, {}, { access_token_created_at: created_at })
  return { status: 200, body: { data: { access_token, created_at } } }
}

const revokeAccessToken: Handler<'user.revoke_access_token'> = (req, ctx) => {
  const revoked = ctx.sessions.revokeAccessToken(callerOf(req, ctx).userId)
  return { status: 200, body: { data: { success: true, revoked } } }
}

const transferResources: Handler<'user.transfer_resources'> = (req, ctx) => {
  const caller = callerOf(req, ctx)
  const to = String(req.body.user_id)
  const target = ctx.db.get(USERS, to)
  if (!target || userAttrs(target).organization_id !== caller.organizationId) {
    return ctx.notFound(`user ${to}`)
  }
  if (target.id === caller.userId) return ctx.invalid({ user_id: ['cannot be yourself'] })
  if (userAttrs(target).status !== 'active')
    return ctx.invalid({ user_id: ['is not an active user'] })
  // One ownership rule for the whole sandbox (commerce's resources.ts): internal.owner_id.
  const byCollection = transferOwned(ctx, caller.userId, to)
  const transferred = Object.values(byCollection).reduce((a, b) => a + b, 0)
  return {
    status: 200,
    body: { data: { to_user_id: to, transferred, by_collection: byCollection } },
  }
}

/** Handlers of the user group's account, organization and token operations. */
export const accountHandlers: Handlers = {
  'user.show': show,
  'user.update': update,
  'user.change_password': changePassword,
  'user.notification_preferences': getPreferences,
  'user.update_notification_preferences': updatePreferences,
  'user.active_plans': activePlans,
  'user.organization_members': members,
  'user.products': products,
  'user.organization': organization,
  'user.update_organization': updateOrganization,
  'user.subscriptions_history': subscriptionsHistory,
  'user.change_product': changeProduct,
  'user.token_validity': tokenValidity,
  'user.permissions': permissions,
  'user.deletability': deletabilityCheck,
  'user.delete': deleteAccount,
  'user.generate_access_token': generateAccessToken,
  'user.revoke_access_token': revokeAccessToken,
  'user.transfer_resources': transferResources,
}
