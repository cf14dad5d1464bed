import { AsyncLocalStorage } from 'node:async_hooks'
import { createHmac } from 'node:crypto'
import type { Row, SandboxContext } from '../../types'
import { nowIso } from './util'

/** What one audit event records (besides its time). */
export interface AuditInput {
  organizationId: string
  action: string
  actorId?: string | null
  actorEmail?: string | null
  resourceType?: string | null
  resourceId?: string | null
  ipAddress?: string | null
  userAgent?: string | null
  details?: Record<string, unknown> | null
  /** Defaults to the sandbox clock. */
  occurredAt?: string
}

/** Email of a seeded or created user, when the identity domain has it. */
export function emailOf(ctx: SandboxContext, userId: string | null | undefined): string | null {
  if (!userId) return null
  const email = ctx.db.get('users', userId)?.attributes.email
  return typeof email === 'string' ? email : null
}

/**
 * The request being answered, as the audit middleware sees it (audit-writes.ts): where it came
 * from, and whether its handler recorded an event of its own (then the middleware records none).
 */
export const auditScope = new AsyncLocalStorage<{
  recorded: boolean
  ipAddress?: string
  userAgent?: string
}>()

/**
 * Appends an event to the audit log. Exported so other domains (sign-in, scans) can record what
 * they do: `recordAudit(ctx, { organizationId, action: 'user.sign_in', actorId })`.
 */
export function recordAudit(ctx: SandboxContext, input: AuditInput): Row {
  const scope = auditScope.getStore()
  if (scope) scope.recorded = true
  return ctx.db.insert('audit_events', {
    id: ctx.db.nextId('aud'),
    type: 'audit_event',
    attributes: {
      action: input.action,
      actor_id: input.actorId ?? null,
      actor_email: input.actorEmail ?? emailOf(ctx, input.actorId),
      resource_type: input.resourceType ?? null,
      resource_id: input.resourceId ?? null,
      ip_address: input.ipAddress ?? scope?.ipAddress ?? '127.0.0.1',
      user_agent: input.userAgent ?? scope?.userAgent ?? 'ScanDesk',
      details: input.details ?? null,
      occurred_at: input.occurredAt ?? nowIso(ctx),
    },
    internal: { organization_id: input.organizationId },
  })
}

/** What one notification says and to whom. */
export interface NotificationInput {
  userId: string
  organizationId: string
  kind: string
  title: string
  body?: string
  level?: 'info' | 'warning' | 'critical'
  resourceType?: string
  resourceId?: string
  createdAt?: string
  read?: boolean
  seen?: boolean
}

/** Sends a notification to one user. Exported for other domains (scan completed, …). */
export function notify(ctx: SandboxContext, input: NotificationInput): Row {
  const at = input.createdAt ?? nowIso(ctx)
  return ctx.db.insert('notifications', {
    id: ctx.db.nextId('ntf'),
    type: 'notification',
    attributes: {
      title: input.title,
      body: input.body ?? null,
      kind: input.kind,
      level: input.level ?? 'info',
      read: input.read ?? false,
      seen: input.seen ?? input.read ?? false,
      read_at: input.read ? at : null,
      seen_at: (input.seen ?? input.read) ? at : null,
      resource_type: input.resourceType ?? null,
      resource_id: input.resourceId ?? null,
      created_at: at,
    },
    internal: { organization_id: input.organizationId, user_id: input.userId },
  })
}

/** Signature header value of a delivery: HMAC-SHA256 of the body with the webhook's secret. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
}

/** Options of one simulated delivery. */
export interface DeliveryInput {
  event: string
  payload: Record<string, unknown>
  deliveredAt?: string
  /** Forces the outcome (seed data); otherwise decided from the URL. */
  responseStatus?: number | null
  durationMs?: number
  attempt?: number
}

/**
 * Records one delivery of `event` to a webhook (the sandbox does not call the URL: a URL whose
 * host contains "unreachable" fails with a connection error, "error" answers 500, others 200).
 */
export function recordDelivery(ctx: SandboxContext, webhook: Row, input: DeliveryInput): Row {
  const at = input.deliveredAt ?? nowIso(ctx)
  const id = ctx.db.nextId('dlv')
  const body = JSON.stringify({ id, event: input.event, occurred_at: at, data: input.payload })
  const url = String(webhook.attributes.url)
  const status =
    input.responseStatus !== undefined
      ? input.responseStatus
      : url.includes('unreachable')
        ? null
        : url.includes('error')
          ? 500
          : 200
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'ScanDesk-Webhooks/2',
    'x-scandesk-event': input.event,
    'x-scandesk-delivery': id,
  }
  const secret = webhook.internal?.secret
  if (typeof secret === 'string') headers['x-scandesk-signature'] = signBody(secret, body)
  const ok = status !== null && status >= 200 && status < 300
  const row = ctx.db.insert('webhook_deliveries', {
    id,
    type: 'webhook_delivery',
    attributes: {
      webhook_id: webhook.id,
      event: input.event,
      status: ok ? 'succeeded' : 'failed',
      response_status: status,
      duration_ms: input.durationMs ?? (status === null ? 10_000 : ctx.rng.int(35, 900)),
      attempt: input.attempt ?? 1,
      request_headers: headers,
      request_body: body,
      response_body:
        status === null ? null : ok ? '{"received":true}' : '{"error":"internal server error"}',
      error: status === null ? 'connection refused' : null,
      delivered_at: at,
    },
    internal: { organization_id: webhook.internal?.organization_id },
  })
  ctx.db.update('webhooks', webhook.id, {
    last_delivery_at: at,
    last_delivery_status: row.attributes.status,
  })
  return row
}

/** Delivers `event` to every active webhook of the organization that subscribes to it. */
export function emitWebhookEvent(
  ctx: SandboxContext,
  organizationId: string,
  event: string,
  payload: Record<string, unknown>,
): Row[] {
  return ctx.db
    .list('webhooks')
    .filter(
      (w) =>
        w.internal?.organization_id === organizationId &&
        w.attributes.active === true &&
        (w.attributes.events as string[]).includes(event),
    )
    .map((w) => recordDelivery(ctx, w, { event, payload }))
}
