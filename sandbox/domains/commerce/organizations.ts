import type { Caller, Handlers, Row, SandboxContext } from '../../types'
import { present } from '../../engine/generic'
import { createOrganizationRow } from '../identity/users'
import { requirePermission } from './access'
import { csvFile } from './csv'
import {
  ORGANIZATIONS,
  SUBSCRIPTIONS,
  USERS,
  callerOf,
  isRootAdmin,
  listAnswer,
  nowIso,
  orgOfUser,
  sortAndSearch,
  subscriptionAttrs,
  visibleOrg,
  visibleOrgIds,
} from './store'

const SEARCH = ['name', 'description', 'country'] as const

/** Columns of the organizations CSV export. */
export const ORGANIZATION_CSV_COLUMNS = [
  'id',
  'name',
  'description',
  'country',
  'partner',
  'parent_id',
  'time_zone',
  'users_count',
  'active_plans',
  'created_at',
] as const

const usersOf = (ctx: SandboxContext, orgId: string) =>
  ctx.db.list(USERS).filter((u) => orgOfUser(u) === orgId)

/** An organization as the API shows it, with its users_count. */
function showOrg(ctx: SandboxContext) {
  return (row: Row) => {
    const shown = present(row)
    return {
      ...shown,
      attributes: { ...shown.attributes, users_count: usersOf(ctx, row.id).length },
    }
  }
}

const single = (ctx: SandboxContext, row: Row, status = 200) => ({
  status,
  body: { data: showOrg(ctx)(row) },
})

/** Ids of the organizations below `orgId` (children, their children, …). */
export function descendantsOf(ctx: SandboxContext, orgId: string): Set<string> {
  const out = new Set<string>()
  const all = ctx.db.list(ORGANIZATIONS)
  let frontier = [orgId]
  while (frontier.length > 0) {
    const next = all.filter(
      (o) => frontier.includes(String(o.attributes.parent_id)) && !out.has(o.id) && o.id !== orgId,
    )
    for (const o of next) out.add(o.id)
    frontier = next.map((o) => o.id)
  }
  return out
}

/** 422 unless `parent` is an organization the caller administers and not `self` or below it. */
function checkParent(ctx: SandboxContext, caller: Caller, parent: unknown, self?: string): void {
  if (parent === undefined) return
  if (parent === null) {
    if (!isRootAdmin(caller)) {
      ctx.invalid({ parent_id: ['only administrators of the root organization can clear it'] })
    }
    return
  }
  const id = String(parent)
  if (!ctx.db.get(ORGANIZATIONS, id) || !visibleOrgIds(ctx, caller).has(id)) {
    ctx.invalid({ parent_id: ['is not an organization you administer'] })
  }
  if (self !== undefined && (id === self || descendantsOf(ctx, self).has(id))) {
    ctx.invalid({ parent_id: ['cannot be the organization itself or one below it'] })
  }
}

function filteredOrgs(ctx: SandboxContext, caller: Caller, query: Record<string, unknown>): Row[] {
  const visible = visibleOrgIds(ctx, caller)
  return ctx.db.list(ORGANIZATIONS).filter((o) => {
    const a = o.attributes
    return (
      visible.has(o.id) &&
      (query.partner === undefined || String(a.partner === true) === query.partner) &&
      (query.parent_id === undefined || a.parent_id === query.parent_id)
    )
  })
}

const activePlanNames = (ctx: SandboxContext, orgId: string) =>
  ctx.db
    .list(SUBSCRIPTIONS)
    .map(subscriptionAttrs)
    .filter((s) => s.organization_id === orgId && s.status === 'active')
    .map((s) => s.plan_name)
    .join('; ')

/** Handlers of the organizations themselves (subscriptions are in subscriptions.ts). */
export const organizationsHandlers: Handlers = {
  'organizations.list': (req, ctx) => {
    const caller = requirePermission(req, ctx, 'organizations.read')
    return listAnswer(filteredOrgs(ctx, caller, req.query), req.query, SEARCH, showOrg(ctx))
  },

  'organizations.create': (req, ctx) => {
    const caller = requirePermission(req, ctx, 'organizations.write')
    const b = req.body
    checkParent(ctx, caller, b.parent_id)
    // Organizations made by a non-root administrator hang below theirs, so they stay visible.
    const root = isRootAdmin(caller)
    const row = createOrganizationRow(ctx, {
      name: String(b.name),
      description: (b.description as string | undefined) ?? null,
      country: (b.country as string | undefined) ?? null,
      partner: b.partner === true,
      parent_id:
        (b.parent_id as string | null | undefined) ?? (root ? null : caller.organizationId),
      time_zone: b.time_zone as string | undefined,
    })
    return single(ctx, row, 201)
  },

  'organizations.show': (req, ctx) => {
    const caller = callerOf(req, ctx)
    const id = req.path.id
    if (id !== caller.organizationId) requirePermission(req, ctx, 'organizations.read')
    return single(ctx, visibleOrg(ctx, caller, id))
  },

  'organizations.update': (req, ctx) => {
    const caller = requirePermission(req, ctx, 'organizations.write')
    const org = visibleOrg(ctx, caller, req.path.id)
    const b = req.body
    if ('parent_id' in b) checkParent(ctx, caller, b.parent_id, org.id)
    return single(ctx, ctx.db.update(ORGANIZATIONS, org.id, { ...b, updated_at: nowIso(ctx) }))
  },

  'organizations.delete': (req, ctx) => {
    const caller = requirePermission(req, ctx, 'organizations.write')
    const org = visibleOrg(ctx, caller, req.path.id)
    if (org.id === caller.organizationId) ctx.error(409, 'You cannot delete your own organization')
    if (descendantsOf(ctx, org.id).size > 0) {
      ctx.error(409, 'The organization has child organizations; move or delete them first')
    }
    // Its users and subscriptions go with it.
    const users = usersOf(ctx, org.id)
    for (const u of users) {
      ctx.sessions.revokeAccessToken(u.id)
      ctx.db.remove(USERS, u.id)
    }
    const subs = ctx.db
      .list(SUBSCRIPTIONS)
      .filter((s) => subscriptionAttrs(s).organization_id === org.id)
    for (const s of subs) ctx.db.remove(SUBSCRIPTIONS, s.id)
    ctx.db.remove(ORGANIZATIONS, org.id)
    return {
      status: 200,
      body: {
        data: {
          id: org.id,
          deleted: true,
          users_deleted: users.length,
          subscriptions_deleted: subs.length,
        },
      },
    }
  },

  'organizations.export': (req, ctx) => {
    const caller = requirePermission(req, ctx, 'organizations.read')
    const { search, sort } = req.query
    const rows = sortAndSearch(filteredOrgs(ctx, caller, req.query), { search, sort }, SEARCH).map(
      (o) => ({
        ...o,
        attributes: {
          ...o.attributes,
          users_count: usersOf(ctx, o.id).length,
          active_plans: activePlanNames(ctx, o.id),
        },
      }),
    )
    return { status: 200, file: csvFile('organizations.csv', ORGANIZATION_CSV_COLUMNS, rows) }
  },

  'organizations.change_user_organization': (req, ctx) => {
    const caller = requirePermission(req, ctx, 'organizations.write')
    const org = visibleOrg(ctx, caller, req.path.id)
    const userId = String(req.body.user_id)
    const user = ctx.db.get(USERS, userId)
    const visible = visibleOrgIds(ctx, caller)
    if (!user || !visible.has(orgOfUser(user))) {
      return ctx.invalid({ user_id: ['is not a user you administer'] })
    }
    const from = orgOfUser(user)
    if (from === org.id) ctx.invalid({ user_id: ['already belongs to this organization'] })
    const admins = usersOf(ctx, from).filter((u) => u.attributes.role === 'administrator')
    if (user.attributes.role === 'administrator' && admins.length <= 1) {
      ctx.invalid({ user_id: ['is the last administrator of their organization'] })
    }
    const moved = ctx.db.update(
      USERS,
      user.id,
      { organization_id: org.id, updated_at: nowIso(ctx) },
      { organization_id: org.id },
    )
    return { status: 200, body: { data: present(moved) } }
  },
}
