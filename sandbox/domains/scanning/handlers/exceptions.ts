// Exception handlers: create/update with checks, details, activate, reset, statistics.
import type { Handlers, SandboxContext } from '../../../types'
import { exceptionStatistics } from '../widgets'
import { findVisible, insertRow, iso, one, touch, visible, visibleRows } from '../util'

function futureOrInvalid(ctx: SandboxContext, expiresAt: string): void {
  if (Date.parse(expiresAt) <= ctx.now().getTime()) {
    ctx.invalid({ expires_at: ['must be in the future'] })
  }
}

/** Handlers of the exceptions group beyond the generic kinds. */
export const exceptionHandlers: Handlers = {
  'exceptions.create': (req, ctx) => {
    const b = req.body
    // Looked up by id: a scan of every visible finding cost 80 ms a create on the large seed.
    const vuln = findVisible(ctx, req, 'vulnerabilities', String(b.vulnerability_id))
    if (!vuln)
      return ctx.invalid({ vulnerability_id: [`unknown vulnerability ${b.vulnerability_id}`] })
    if (b.host_id && b.host_id !== vuln.attributes.host_id) {
      ctx.invalid({
        host_id: [`vulnerability ${vuln.id} is on host ${String(vuln.attributes.host_id)}`],
      })
    }
    futureOrInvalid(ctx, b.expires_at)
    const open = ctx.db
      .list('exceptions')
      .find((e) => e.attributes.vulnerability_id === vuln.id && e.attributes.state !== 'expired')
    if (open) ctx.error(409, `Vulnerability ${vuln.id} already has exception ${open.id}`)
    const row = insertRow(
      ctx,
      'exceptions',
      String(vuln.internal?.organization_id ?? req.caller?.organizationId),
      {
        vulnerability_id: vuln.id,
        host_id: vuln.attributes.host_id,
        scan_id: vuln.attributes.scan_id,
        kind: b.kind,
        reason: b.reason,
        state: 'pending',
        expires_at: new Date(Date.parse(b.expires_at)).toISOString(),
        activated_at: null,
        activated_by: null,
        created_by: req.caller?.userId ?? null,
        vulnerability_title: vuln.attributes.title,
        severity: vuln.attributes.severity,
        host_ip: vuln.attributes.host_ip,
      },
    )
    return one(req, row, 201)
  },

  'exceptions.update': (req, ctx) => {
    const row = visible(ctx, req, 'exceptions', req.path.id)
    const b = req.body
    const patch: Record<string, unknown> = { ...b }
    if (b.expires_at) {
      futureOrInvalid(ctx, b.expires_at)
      patch.expires_at = new Date(Date.parse(b.expires_at)).toISOString()
      // A new expiry date revives an expired exception as pending (it needs activating again).
      if (row.attributes.state === 'expired')
        Object.assign(patch, { state: 'pending', activated_at: null, activated_by: null })
    }
    return one(req, touch(ctx, 'exceptions', row.id, patch))
  },

  'exceptions.details': (req, ctx) => {
    const row = visible(ctx, req, 'exceptions', req.path.id)
    const vuln = ctx.db.get('vulnerabilities', String(row.attributes.vulnerability_id))
    const host = ctx.db.get('hosts', String(row.attributes.host_id))
    if (!vuln || !host) return ctx.notFound(`the vulnerability of exception ${row.id}`)
    const v = vuln.attributes
    return {
      status: 200,
      body: {
        data: {
          id: row.id,
          type: row.type,
          attributes: {
            ...row.attributes,
            vulnerability: {
              id: vuln.id,
              title: v.title,
              severity: v.severity,
              cvss_score: v.cvss_score,
              cve_ids: v.cve_ids,
            },
            host: {
              id: host.id,
              ip: host.attributes.ip,
              hostname: host.attributes.hostname ?? null,
            },
          },
        },
      },
    }
  },

  'exceptions.activate': (req, ctx) => {
    const row = visible(ctx, req, 'exceptions', req.path.id)
    if (row.attributes.state === 'active') return one(req, row)
    if (Date.parse(String(row.attributes.expires_at)) <= ctx.now().getTime()) {
      ctx.error(
        409,
        `Exception ${row.id} expired on ${String(row.attributes.expires_at)}; set a new expiry date first`,
      )
    }
    return one(
      req,
      touch(ctx, 'exceptions', row.id, {
        state: 'active',
        activated_at: iso(ctx),
        activated_by: req.caller?.userId ?? null,
      }),
    )
  },

  'exceptions.reset': (req, ctx) => {
    const row = visible(ctx, req, 'exceptions', req.path.id)
    if (row.attributes.state === 'pending') return one(req, row)
    return one(
      req,
      touch(ctx, 'exceptions', row.id, {
        state: 'pending',
        activated_at: null,
        activated_by: null,
      }),
    )
  },

  'exceptions.statistics': (req, ctx) => ({
    status: 200,
    body: { data: exceptionStatistics(visibleRows(ctx, req, 'exceptions'), ctx.now().getTime()) },
  }),
}
