import type { Caller, Handlers, Row, SandboxContext, SandboxRequest } from '../../types'
import { issueLinkToken } from '../identity/tokens'
import {
  createOrganizationRow,
  createUserRow,
  findUserByEmail,
  userAttrs,
  type UserRole,
} from '../identity/users'
import { requirePermission } from './access'
import { csvFile } from './csv'
import { ownedResources, transferResources } from './resources'
import { USERS, listAnswer, nowIso, one, orgOfUser, sortAndSearch, visibleOrgIds } from './store'

const ROLES: readonly UserRole[] = ['administrator', 'manager', 'analyst', 'customer']
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const SEARCH = ['email', 'first_name', 'last_name'] as const
/** Columns of the users CSV export. */
export const USER_CSV_COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'role',
  'organization_id',
  'status',
  'confirmed',
  'two_factor_enabled',
  'partner',
  'created_at',
] as const

/** The user `id` if the caller administers its organization, else 404. */
function visibleUser(ctx: SandboxContext, caller: Caller, id: string): Row {
  const row = ctx.db.get(USERS, id)
  if (!row || !visibleOrgIds(ctx, caller).has(orgOfUser(row)))
    ctx.notFound(`Couldn't find user ${id}`)
  return row
}

/** The organization new users go to: the body's (one the caller administers) or the caller's. */
function targetOrg(ctx: SandboxContext, caller: Caller, requested: unknown): string {
  const org = typeof requested === 'string' ? requested : caller.organizationId
  if (!visibleOrgIds(ctx, caller).has(org)) {
    ctx.invalid({ organization_id: ['is not an organization you administer'] })
  }
  return org
}

/** Only administrators may grant the administrator role. */
function checkGrant(ctx: SandboxContext, caller: Caller, role: unknown): void {
  if (role === 'administrator' && caller.role !== 'administrator') {
    ctx.error(403, 'Only administrators can grant the administrator role')
  }
}

function checkEmailFree(ctx: SandboxContext, email: string): void {
  if (findUserByEmail(ctx, email)) ctx.invalid({ email: ['has already been taken'] })
}

const administratorsOf = (ctx: SandboxContext, orgId: string) =>
  ctx.db.list(USERS).filter((u) => orgOfUser(u) === orgId && u.attributes.role === 'administrator')

/** Why `user` cannot be deleted by `caller` (empty when it can), and how many rows it owns. */
export function deletability(ctx: SandboxContext, caller: Caller, user: Row) {
  const reasons: string[] = []
  if (user.id === caller.userId) reasons.push('you cannot delete yourself')
  const admins = administratorsOf(ctx, orgOfUser(user))
  if (user.attributes.role === 'administrator' && admins.length <= 1) {
    reasons.push('is the last administrator of its organization')
  }
  const owned = Object.values(ownedResources(ctx, user.id)).reduce((n, rows) => n + rows.length, 0)
  if (owned > 0) {
    reasons.push(`owns ${owned} resources; move them to another user with inherit resources first`)
  }
  return { deletable: reasons.length === 0, reasons, resources_count: owned }
}

/** The users the caller administers, filtered by the list query's role/organization/status. */
function filteredUsers(ctx: SandboxContext, caller: Caller, query: Record<string, unknown>): Row[] {
  const orgs = visibleOrgIds(ctx, caller)
  return ctx.db.list(USERS).filter((u) => {
    const a = u.attributes
    return (
      orgs.has(orgOfUser(u)) &&
      (query.role === undefined || a.role === query.role) &&
      (query.organization_id === undefined || orgOfUser(u) === query.organization_id) &&
      (query.status === undefined || a.status === query.status)
    )
  })
}

/** Checks one import row; returns its field errors (empty when it can be created). */
function importRowErrors(
  ctx: SandboxContext,
  caller: Caller,
  row: Record<string, unknown>,
  seen: Set<string>,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {}
  const add = (field: string, message: string) => (errors[field] ??= []).push(message)
  const email = String(row.email ?? '')
    .trim()
    .toLowerCase()
  if (!EMAIL.test(email) || email.length > 254) add('email', 'must be an e-mail address')
  else if (seen.has(email)) add('email', 'appears more than once in this import')
  else if (findUserByEmail(ctx, email)) add('email', 'has already been taken')
  if (!ROLES.includes(row.role as UserRole)) add('role', `must be one of ${ROLES.join(', ')}`)
  else if (row.role === 'administrator' && caller.role !== 'administrator') {
    add('role', 'only administrators can grant the administrator role')
  }
  for (const f of ['first_name', 'last_name']) {
    if (typeof row[f] === 'string' && (row[f] as string).trim().length > 100) {
      add(f, 'must be at most 100 characters')
    }
  }
  return errors
}

/** Handlers of the users group, keyed by operation id. */
export const usersHandlers: Handlers = {
  'users.list': (req, ctx) => {
    const caller = requirePermission(req, ctx, 'users.read')
    return listAnswer(filteredUsers(ctx, caller, req.query), req.query, SEARCH)
  },

  'users.create': (req, ctx) => {
    const caller = requirePermission(req, ctx, 'users.write')
    const b = req.body
    checkGrant(ctx, caller, b.role)
    const org = targetOrg(ctx, caller, b.organization_id)
    checkEmailFree(ctx, String(b.email))
    const user = createUserRow(ctx, {
      email: String(b.email),
      first_name: b.first_name as string | undefined,
      last_name: b.last_name as string | undefined,
      role: b.role as UserRole,
      organization_id: org,
      password: null,
      confirmed: false,
      locale: b.locale as string | undefined,
      time_zone: b.time_zone as string | undefined,
    })
    issueLinkToken(ctx, 'confirmation', user)
    return one(user, 201)
  },

  'users.show': (req, ctx) => {
    const caller = requirePermission(req, ctx, 'users.read')
    return one(visibleUser(ctx, caller, req.path.id))
  },

  'users.update': (req, ctx) => {
    const caller = requirePermission(req, ctx, 'users.write')
    const user = visibleUser(ctx, caller, req.path.id)
    const b = req.body
    if (b.role !== undefined && b.role !== user.attributes.role) {
      checkGrant(ctx, caller, b.role)
      if (user.attributes.role === 'administrator') {
        checkGrant(ctx, caller, 'administrator')
        if (administratorsOf(ctx, orgOfUser(user)).length <= 1) {
          ctx.invalid({ role: ['the organization needs at least one administrator'] })
        }
      }
    }
    return one(ctx.db.update(USERS, user.id, { ...b, updated_at: nowIso(ctx) }))
  },

  'users.delete': (req, ctx) => {
    const caller = requirePermission(req, ctx, 'users.delete')
    const user = visibleUser(ctx, caller, req.path.id)
    const check = deletability(ctx, caller, user)
    if (!check.deletable) ctx.error(409, `The user cannot be deleted: ${check.reasons.join('; ')}`)
    ctx.sessions.revokeAccessToken(user.id)
    ctx.db.remove(USERS, user.id)
    return { status: 200, body: { data: { id: user.id, deleted: true } } }
  },

  'users.create_customer': (req, ctx) => {
    const caller = requirePermission(req, ctx, 'users.write')
    const b = req.body
    checkEmailFree(ctx, String(b.email))
    const org = createOrganizationRow(ctx, {
      name: String(b.organization_name),
      country: (b.country as string | undefined) ?? null,
      parent_id: caller.organizationId,
    })
    const user = createUserRow(ctx, {
      email: String(b.email),
      first_name: b.first_name as string | undefined,
      last_name: b.last_name as string | undefined,
      role: 'customer',
      organization_id: org.id,
      password: null,
      confirmed: false,
      status: 'invited',
    })
    issueLinkToken(ctx, 'invitation', user)
    return one(user, 201)
  },

  'users.invite': (req, ctx) => {
    const caller = requirePermission(req, ctx, 'users.write')
    const b = req.body
    checkGrant(ctx, caller, b.role)
    const org = targetOrg(ctx, caller, b.organization_id)
    checkEmailFree(ctx, String(b.email))
    const user = createUserRow(ctx, {
      email: String(b.email),
      first_name: b.first_name as string | undefined,
      last_name: b.last_name as string | undefined,
      role: b.role as UserRole,
      organization_id: org,
      password: null,
      confirmed: false,
      status: 'invited',
    })
    issueLinkToken(ctx, 'invitation', user)
    return one(user, 201)
  },

  'users.resend_confirmation': (req, ctx) => {
    const caller = requirePermission(req, ctx, 'users.write')
    const user = visibleUser(ctx, caller, req.path.id)
    const a = userAttrs(user)
    if (a.confirmed) ctx.invalid({ base: ['the user has already confirmed their account'] })
    issueLinkToken(ctx, a.status === 'invited' ? 'invitation' : 'confirmation', user)
    return { status: 200, body: { data: { success: true } } }
  },

  'users.import': (req, ctx) => {
    const caller = requirePermission(req, ctx, 'users.write')
    const b = req.body
    const org = targetOrg(ctx, caller, b.organization_id)
    const seen = new Set<string>()
    const created: { id: string; email: string }[] = []
    const errors: { row: number; email: string | null; messages: Record<string, string[]> }[] = []
    b.users.forEach((row, i) => {
      const messages = importRowErrors(ctx, caller, row, seen)
      const email = String(row.email ?? '')
        .trim()
        .toLowerCase()
      if (Object.keys(messages).length > 0) {
        errors.push({
          row: i + 1,
          email: typeof row.email === 'string' ? row.email : null,
          messages,
        })
        return
      }
      seen.add(email)
      const user = createUserRow(ctx, {
        email,
        first_name: typeof row.first_name === 'string' ? row.first_name.trim() : undefined,
        last_name: typeof row.last_name === 'string' ? row.last_name.trim() : undefined,
        role: row.role as UserRole,
        organization_id: org,
        password: null,
        confirmed: false,
      })
      issueLinkToken(ctx, 'confirmation', user)
      created.push({ id: user.id, email })
    })
    return {
      status: 200,
      body: { data: { created: created.length, failed: errors.length, users: created, errors } },
    }
  },

  'users.deletable': (req, ctx) => {
    const caller = requirePermission(req, ctx, 'users.read')
    const user = visibleUser(ctx, caller, req.path.id)
    return { status: 200, body: { data: { id: user.id, ...deletability(ctx, caller, user) } } }
  },

  'users.inherit_resources': (req, ctx) => {
    const caller = requirePermission(req, ctx, 'users.write')
    const user = visibleUser(ctx, caller, req.path.id)
    const fromId = String(req.body.from_user_id)
    if (fromId === user.id) ctx.invalid({ from_user_id: ['must be another user'] })
    const from = ctx.db.get(USERS, fromId)
    if (!from || !visibleOrgIds(ctx, caller).has(orgOfUser(from))) {
      return ctx.invalid({ from_user_id: ['is not a user you administer'] })
    }
    if (orgOfUser(from) !== orgOfUser(user)) {
      ctx.invalid({ from_user_id: ['must belong to the same organization'] })
    }
    const moved = transferResources(ctx, from.id, user.id)
    const total = Object.values(moved).reduce((n, c) => n + c, 0)
    return {
      status: 200,
      body: { data: { user_id: user.id, from_user_id: from.id, moved, total } },
    }
  },

  'users.export': (req, ctx) => {
    const caller = requirePermission(req, ctx, 'users.read')
    const { search, sort } = req.query
    const rows = sortAndSearch(filteredUsers(ctx, caller, req.query), { search, sort }, SEARCH)
    return { status: 200, file: csvFile('users.csv', USER_CSV_COLUMNS, rows) }
  },

  'users.set_partner': (req, ctx) => setPartner(req, ctx, true),
  'users.unset_partner': (req, ctx) => setPartner(req, ctx, false),
}

function setPartner(req: SandboxRequest, ctx: SandboxContext, partner: boolean) {
  const caller = requirePermission(req, ctx, 'users.write')
  const user = visibleUser(ctx, caller, req.path.id)
  if (user.attributes.partner === partner) return one(user)
  return one(ctx.db.update(USERS, user.id, { partner, updated_at: nowIso(ctx) }))
}
