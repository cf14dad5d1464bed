import type { Handlers, Row, SandboxContext } from '../../../types'
import { recordAudit } from '../activity'
import { callerOf, nowIso, orgOf } from '../util'

function rowOf(ctx: SandboxContext, organizationId: string): Row | undefined {
  return ctx.db.list('white_label').find((r) => orgOf(r) === organizationId)
}

/** Settings of an organization that never saved any: its name and the product's defaults. */
export function defaultWhiteLabel(ctx: SandboxContext, organizationId: string): Row {
  const orgName = ctx.db.get('organizations', organizationId)?.attributes.name
  return {
    id: 'default',
    type: 'white_label',
    attributes: {
      company_name: typeof orgName === 'string' ? orgName : null,
      primary_color: '#1f6feb',
      logo: null,
      support_email: null,
      custom_domain: null,
      updated_at: null,
    },
  }
}

/** Handlers of white label settings: one record per organization, made on the first update. */
export const whiteLabelHandlers: Handlers = {
  'white_label.show': (req, ctx) => {
    const caller = callerOf(req, ctx)
    const row = rowOf(ctx, caller.organizationId) ?? defaultWhiteLabel(ctx, caller.organizationId)
    return {
      status: 200,
      body: { data: { id: row.id, type: row.type, attributes: row.attributes } },
    }
  },
  'white_label.update': (req, ctx) => {
    const caller = callerOf(req, ctx)
    if (caller.role === 'customer') ctx.error(403, 'Customers cannot change white label settings')
    const changes: Record<string, unknown> = { updated_at: nowIso(ctx) }
    for (const [key, value] of Object.entries(req.body))
      if (value !== undefined) changes[key] = value
    if (typeof changes.primary_color === 'string')
      changes.primary_color = changes.primary_color.toLowerCase()
    const existing = rowOf(ctx, caller.organizationId)
    const row = existing
      ? ctx.db.update('white_label', existing.id, changes)
      : ctx.db.insert('white_label', {
          id: ctx.db.nextId('wlb'),
          type: 'white_label',
          attributes: { ...defaultWhiteLabel(ctx, caller.organizationId).attributes, ...changes },
          internal: { organization_id: caller.organizationId },
        })
    recordAudit(ctx, {
      organizationId: caller.organizationId,
      action: 'white_label.update',
      actorId: caller.userId,
      resourceType: 'white_label',
      resourceId: row.id,
      details: { fields: Object.keys(changes).filter((k) => k !== 'updated_at') },
    })
    return {
      status: 200,
      body: { data: { id: row.id, type: row.type, attributes: row.attributes } },
    }
  },
}
