// The audit log's middleware: every write of the catalog is recorded as a real service records
// it — who (the caller, or for the calls before a session the user they name), what (an action
// `<resource type>.<verb>`), to which record, from where and when. A handler that records its own
// event (a download with its format, an approval) is left to it. docs/sandbox.md, "Audit log".
import type { GroupId } from '@contract/catalog/types'
import type { Row, SandboxContext, SandboxRequest, SandboxResponse } from '../../types'
import { SandboxHttpError } from '../../types'
import { CHALLENGES, LINK_TOKENS } from '../identity/tokens'
import { findUserByEmail, USERS } from '../identity/users'
import { auditScope, emailOf, recordAudit, type AuditInput } from './activity'

/** The service type of the records each group writes (the audit's `resource_type`). */
export const GROUP_RESOURCE_TYPES: Readonly<Record<GroupId, string>> = {
  auth: 'user',
  targets: 'target',
  scans: 'scan',
  reports: 'report',
  advanced_reports: 'advanced_report',
  vulnerabilities: 'vulnerability',
  exceptions: 'exception',
  schedules: 'schedule',
  webhooks: 'webhook',
  audit: 'audit_event',
  notifications: 'notification',
  hosts: 'host',
  scanners: 'scanner',
  port_lists: 'port_list',
  credentials: 'credential',
  user: 'user',
  organizations: 'organization',
  users: 'user',
  white_label: 'white_label',
  billing: 'plan',
  saq: 'saq',
}

/** Actions of the calls made before (or around) a session, whose verb is not the operation's. */
const AUTH_ACTIONS: Readonly<Record<string, string>> = {
  'auth.sign_in': 'user.sign_in',
  'auth.two_factor_check': 'user.sign_in',
  'auth.sms_otp_verify': 'user.sign_in',
  'auth.sign_in_recovery_code': 'user.sign_in',
  'auth.sso_login': 'user.sign_in',
  'auth.sms_otp_send': 'user.sms_otp_send',
  'auth.sign_out': 'user.sign_out',
  'auth.confirm_user': 'user.confirm',
  'auth.accept_invitation': 'user.accept_invitation',
  'auth.password_reset_request': 'user.password_reset_request',
  'auth.password_reset_confirm': 'user.password_reset',
  'auth.impersonate': 'user.impersonate',
  'auth.stop_impersonation': 'user.stop_impersonation',
}

/** How a sign-in step went in by (the details of `user.sign_in`). */
const SIGN_IN_METHODS: Readonly<Record<string, string>> = {
  'auth.sign_in': 'password',
  'auth.two_factor_check': 'two_factor',
  'auth.sms_otp_verify': 'sms',
  'auth.sign_in_recovery_code': 'recovery_code',
  'auth.sso_login': 'sso',
}

/** True for the operations the log records: every write that changes something. */
export function isAuditedWrite(req: SandboxRequest): boolean {
  return req.op.method !== 'GET' && !req.op.computeOnly
}

/** The `<type>.<verb>` action of a write (`exceptions.create` → `exception.create`). */
export function actionOf(opId: string, group: GroupId): string {
  const named = AUTH_ACTIONS[opId]
  if (named) return named
  const verb = opId.slice(opId.indexOf('.') + 1)
  const type = GROUP_RESOURCE_TYPES[group]
  // billing.create_plan → plan.create: the billing group's verbs name the plan.
  return `${type}.${group === 'billing' ? verb.replace(/_plan$/, '') : verb}`
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)
const dataOf = (answer: SandboxResponse | null): Record<string, unknown> => {
  const body = answer?.body as { data?: unknown } | undefined
  const data = body?.data
  return data && typeof data === 'object' && !Array.isArray(data)
    ? (data as Record<string, unknown>)
    : {}
}

/** The user a call made without a session is about: from its answer, or what it was sent. */
function subjectOf(
  req: SandboxRequest,
  answer: SandboxResponse | null,
  ctx: SandboxContext,
): Row | undefined {
  const body = (req.body ?? {}) as Record<string, unknown>
  const token = text((answer?.body as { token?: unknown } | undefined)?.token)
  const session = token ? ctx.sessions.resolve('Bearer', token) : null
  if (session) return ctx.db.get(USERS, session.userId)
  const data = dataOf(answer)
  const id = text(data.user_id) ?? (req.op.group === 'auth' ? text(data.id) : null)
  if (id) return ctx.db.get(USERS, id)
  const email = text(body.username) ?? text(body.email)
  if (email) return findUserByEmail(ctx, email)
  const otp = text(body.otp_token)
  if (otp) {
    const challenge = ctx.db.list(CHALLENGES).find((c) => c.internal?.otp_token === otp)
    return challenge ? ctx.db.get(USERS, String(challenge.attributes.user_id)) : undefined
  }
  const link = Object.entries(body).find(([k, v]) => k.endsWith('_token') && text(v))?.[1]
  if (link) {
    const row = ctx.db.list(LINK_TOKENS).find((r) => r.internal?.token === link)
    return row ? ctx.db.get(USERS, String(row.attributes.user_id)) : undefined
  }
  return undefined
}

/** The organization a user belongs to, as the identity domain stores it. */
function organizationOf(user: Row): string | null {
  return text(user.internal?.organization_id) ?? text(user.attributes.organization_id)
}

/** Who did it and under which organization the event is filed; null when nobody can be named. */
function actorOf(
  req: SandboxRequest,
  answer: SandboxResponse | null,
  ctx: SandboxContext,
): { actorId: string; organizationId: string } | null {
  if (req.caller) return { actorId: req.caller.userId, organizationId: req.caller.organizationId }
  const user = subjectOf(req, answer, ctx)
  const organizationId = user ? organizationOf(user) : null
  return user && organizationId ? { actorId: user.id, organizationId } : null
}

/** The records a write touched: a bulk delete's each, else the path's id or the answer's. */
function resourcesOf(
  req: SandboxRequest,
  answer: SandboxResponse,
  actorId: string,
): { ids: (string | null)[]; bulk: boolean } {
  const data = dataOf(answer)
  if (Array.isArray(data.deleted))
    return { ids: data.deleted.filter((id): id is string => typeof id === 'string'), bulk: true }
  if (req.op.group === 'auth' || req.op.group === 'user') {
    const target = req.op.id === 'auth.impersonate' ? text(data.user_id) : null
    return { ids: [target ?? actorId], bulk: false }
  }
  return { ids: [text(req.path.id) ?? text(data.id)], bulk: false }
}

/** What the event says beyond who and what: the fields sent (names only, never values). */
function detailsOf(req: SandboxRequest, bulk: boolean): Record<string, unknown> | null {
  const out: Record<string, unknown> = {}
  const method = SIGN_IN_METHODS[req.op.id]
  if (method) out.method = method
  const body = req.body
  if (!method && body && typeof body === 'object' && !Array.isArray(body)) {
    const fields = Object.keys(body as object).filter((k) => k !== 'ids')
    if (fields.length) out.fields = fields.sort()
  }
  for (const [key, value] of Object.entries(req.path))
    if (key !== 'id' && typeof value === 'string') out[key] = value
  if (bulk) out.bulk = true
  if (req.caller?.impersonatorId) out.impersonator_id = req.caller.impersonatorId
  return Object.keys(out).length ? out : null
}

/** Where a request came from, as the log records it. */
function where(req: SandboxRequest): { ipAddress?: string; userAgent?: string } {
  const agent = req.headers['user-agent']
  const ip = req.remoteAddress?.replace(/^::ffff:/, '')
  return {
    ...(ip ? { ipAddress: ip } : {}),
    ...(agent ? { userAgent: Array.isArray(agent) ? agent[0] : agent } : {}),
  }
}

/** The events one successful write records (none when nobody can be named). */
export function eventsOfWrite(
  req: SandboxRequest,
  answer: SandboxResponse,
  ctx: SandboxContext,
): AuditInput[] {
  const actor = actorOf(req, answer, ctx)
  if (!actor) return []
  const { ids, bulk } = resourcesOf(req, answer, actor.actorId)
  const type = GROUP_RESOURCE_TYPES[req.op.group]
  const action = bulk ? `${type}.delete` : actionOf(req.op.id, req.op.group)
  const details = detailsOf(req, bulk)
  return ids.map((resourceId) => ({
    ...actor,
    ...where(req),
    action,
    resourceType: type,
    resourceId,
    details,
  }))
}

/** A refused sign-in step, as the log records it (`user.sign_in_failed`), or null. */
function failedSignIn(req: SandboxRequest, err: unknown, ctx: SandboxContext): AuditInput | null {
  if (!SIGN_IN_METHODS[req.op.id] || !(err instanceof SandboxHttpError) || err.status !== 401)
    return null
  const user = subjectOf(req, null, ctx)
  const organizationId = user ? organizationOf(user) : null
  if (!user || !organizationId) return null
  return {
    organizationId,
    actorId: user.id,
    ...where(req),
    action: 'user.sign_in_failed',
    resourceType: 'user',
    resourceId: user.id,
    details: { method: SIGN_IN_METHODS[req.op.id], reason: err.message },
  }
}

/**
 * The reporting domain's `around`: runs the handler and records what a successful write did,
 * unless the handler recorded its own event; a refused sign-in is recorded too.
 */
export async function auditWrites(
  req: SandboxRequest,
  ctx: SandboxContext,
  next: () => Promise<SandboxResponse>,
): Promise<SandboxResponse> {
  if (!isAuditedWrite(req)) return next()
  const scope = { recorded: false, ...where(req) }
  // Read before the write: deleting one's own account leaves no email to name the actor by.
  const actorEmail = req.caller ? emailOf(ctx, req.caller.userId) : null
  try {
    const answer = await auditScope.run(scope, next)
    if (!scope.recorded && answer.status >= 200 && answer.status < 300)
      for (const event of eventsOfWrite(req, answer, ctx))
        recordAudit(ctx, { ...event, actorEmail: actorEmail ?? emailOf(ctx, event.actorId) })
    return answer
  } catch (err) {
    const failed = scope.recorded ? null : failedSignIn(req, err, ctx)
    if (failed) recordAudit(ctx, failed)
    throw err
  }
}
