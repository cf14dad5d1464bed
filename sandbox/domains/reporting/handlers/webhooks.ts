import type { AnyHandler, Handlers, Row, SandboxContext, SandboxRequest } from '../../../types'
import { recordAudit } from '../activity'
import { callerOf, listAnswer, nowIso, requireOwned, singleAnswer } from '../util'

function audit(ctx: SandboxContext, req: SandboxRequest, action: string, id: string) {
  const caller = callerOf(req, ctx)
  recordAudit(ctx, {
    organizationId: caller.organizationId,
    action,
    actorId: caller.userId,
    resourceType: 'webhook',
    resourceId: id,
  })
}

function setActive(active: boolean): AnyHandler {
  return (req, ctx) => {
    const row = requireOwned(ctx, req, 'webhooks', req.path.id)
    if (row.attributes.active === active) return singleAnswer(row)
    const updated = ctx.db.update('webhooks', row.id, { active, updated_at: nowIso(ctx) })
    audit(ctx, req, active ? 'webhook.activate' : 'webhook.deactivate', row.id)
    return singleAnswer(updated)
  }
}

function deliveriesOf(ctx: SandboxContext, webhook: Row): Row[] {
  return ctx.db.list('webhook_deliveries').filter((d) => d.attributes.webhook_id === webhook.id)
}

/**
 * Handlers of the webhooks group (list and show are generic). The secret lives in the row's
 * internal data only; answers say `has_secret`.
 */
export const webhookHandlers: Handlers = {
  'webhooks.create': (req, ctx) => {
    const caller = callerOf(req, ctx)
    const body = req.body
    const now = nowIso(ctx)
    const secret = typeof body.secret === 'string' ? body.secret : undefined
    const row = ctx.db.insert('webhooks', {
      id: ctx.db.nextId('whk'),
      type: 'webhook',
      attributes: {
        name: body.name,
        url: body.url,
        events: body.events,
        description: body.description ?? null,
        active: body.active ?? true,
        has_secret: secret !== undefined,
        last_delivery_at: null,
        last_delivery_status: null,
        created_at: now,
        updated_at: now,
      },
      internal: { organization_id: caller.organizationId, secret },
    })
    audit(ctx, req, 'webhook.create', row.id)
    return singleAnswer(row, 201)
  },
  'webhooks.update': (req, ctx) => {
    const row = requireOwned(ctx, req, 'webhooks', req.path.id)
    const { secret, ...rest } = req.body
    const changes: Record<string, unknown> = { updated_at: nowIso(ctx) }
    for (const [key, value] of Object.entries(rest)) if (value !== undefined) changes[key] = value
    let internal: Record<string, unknown> | undefined
    if (secret === null) {
      changes.has_secret = false
      internal = { secret: undefined }
    } else if (typeof secret === 'string') {
      changes.has_secret = true
      internal = { secret }
    }
    const updated = ctx.db.update('webhooks', row.id, changes, internal)
    audit(ctx, req, 'webhook.update', row.id)
    return singleAnswer(updated)
  },
  'webhooks.delete': (req, ctx) => {
    const row = requireOwned(ctx, req, 'webhooks', req.path.id)
    for (const d of deliveriesOf(ctx, row)) ctx.db.remove('webhook_deliveries', d.id)
    ctx.db.remove('webhooks', row.id)
    audit(ctx, req, 'webhook.delete', row.id)
    return { status: 200, body: { data: { id: row.id, deleted: true } } }
  },
  'webhooks.activate': setActive(true),
  'webhooks.deactivate': setActive(false),
  'webhooks.deliveries': (req, ctx) => {
    const webhook = requireOwned(ctx, req, 'webhooks', req.path.id)
    const q = req.query
    const rows = deliveriesOf(ctx, webhook).filter(
      (d) =>
        (!q.status || d.attributes.status === q.status) &&
        (!q.event || d.attributes.event === q.event),
    )
    return listAnswer(req, rows, { defaultSort: '-delivered_at', searchFields: ['event'] })
  },
  'webhooks.delivery': (req, ctx) => {
    const webhook = requireOwned(ctx, req, 'webhooks', req.path.id)
    const delivery = ctx.db.get('webhook_deliveries', req.path.delivery_id)
    if (!delivery || delivery.attributes.webhook_id !== webhook.id) return ctx.notFound('Delivery')
    return singleAnswer(delivery)
  },
}
