// Scanner handlers: update, activation, app type, organization assignment and verification.
import type { Handlers, Row, SandboxContext } from '../../../types'
import { iso, listOf, one, touch, visible } from '../util'

/** Waits the configured time a scanner round trip takes (`actionDelayMs`; 0 answers at once). */
export function scannerRoundTrip(ctx: SandboxContext): Promise<void> {
  const ms = ctx.options.actionDelayMs
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve()
}

/**
 * Whether the service can reach a scanner. Hosts in the reserved `.invalid` domain (RFC 6761)
 * never answer: that is the sandbox's switch for failed verifications and syncs.
 */
export const reachable = (scanner: Row): boolean =>
  !String(scanner.attributes.host).toLowerCase().endsWith('.invalid')

/** The message of a scanner that did not answer. */
export const unreachableMessage = (scanner: Row): string =>
  `Could not reach ${String(scanner.attributes.host)}:${String(scanner.attributes.port)} (connection timed out)`

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

  'scanners.verify': async (req, ctx) => {
    visible(ctx, req, 'scanners', req.path.id)
    await scannerRoundTrip(ctx)
    // Read again after the wait: the scanner may have changed or gone meanwhile.
    const row = visible(ctx, req, 'scanners', req.path.id)
    const ok = reachable(row)
    return one(
      req,
      touch(ctx, 'scanners', row.id, {
        verification_status: ok ? 'verified' : 'failed',
        verification_message: ok ? 'Scanner answered and is up to date' : unreachableMessage(row),
        last_verified_at: iso(ctx),
        ...(ok ? { version: '9.4.2' } : {}),
      }),
    )
  },
}
