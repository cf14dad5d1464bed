// Scanner handlers: update, activation, app type, organization assignment and verification.
import type { Handlers } from '../../../types'
import { iso, listOf, one, touch, visible } from '../util'

/** Handlers of the scanners group beyond the generic kinds. */
export const scannerHandlers: Handlers = {
  'scanners.update': (req, ctx) => {
    const row = visible(ctx, req, 'scanners', req.path.id)
    const b = req.body
    const moved =
      (b.host !== undefined && b.host !== row.attributes.host) ||
      (b.port !== undefined && b.port !== row.attributes.port)
    const reset = moved
      ? { verification_status: 'unverified', verification_message: null, last_verified_at: null }
      : {}
    return one(req, touch(ctx, 'scanners', row.id, { ...b, ...reset }))
  },

  'scanners.activated': (req, ctx) =>
    listOf(ctx, { ...req, query: { ...req.query, activated: true } }, 'scanners'),

  'scanners.activate': (req, ctx) => {
    const row = visible(ctx, req, 'scanners', req.path.id)
    if (row.attributes.verification_status === 'failed') {
      ctx.error(
        409,
        `Scanner ${row.id} failed its last verification; verify it before activating it`,
      )
    }
    return one(
      req,
      row.attributes.activated ? row : touch(ctx, 'scanners', row.id, { activated: true }),
    )
  },

  'scanners.deactivate': (req, ctx) => {
    const row = visible(ctx, req, 'scanners', req.path.id)
    return one(
      req,
      row.attributes.activated ? touch(ctx, 'scanners', row.id, { activated: false }) : row,
    )
  },

  'scanners.update_app_type': (req, ctx) => {
    const row = visible(ctx, req, 'scanners', req.path.id)
    return one(req, touch(ctx, 'scanners', row.id, { app_type: req.body.app_type }))
  },

  'scanners.assign_organization': (req, ctx) => {
    const row = visible(ctx, req, 'scanners', req.path.id)
    if (req.caller?.role !== 'administrator') {
      ctx.error(403, 'Only administrators can move a scanner to another organization')
    }
    const { organization_id } = req.body
    if (!ctx.db.get('organizations', organization_id)) {
      ctx.invalid({ organization_id: [`unknown organization ${organization_id}`] })
    }
    return one(req, touch(ctx, 'scanners', row.id, {}, { organization_id }))
  },

  'scanners.verify': (req, ctx) => {
    const row = visible(ctx, req, 'scanners', req.path.id)
    const host = String(row.attributes.host)
    const reachable = !host.endsWith('.invalid')
    return one(
      req,
      touch(ctx, 'scanners', row.id, {
        verification_status: reachable ? 'verified' : 'failed',
        verification_message: reachable
          ? 'Scanner answered and is up to date'
          : `Could not reach ${host}:${String(row.attributes.port)} (connection timed out)`,
        last_verified_at: iso(ctx),
        ...(reachable ? { version: '9.4.2' } : {}),
      }),
    )
  },
}
