// Port list handlers: create with ranges, activation, ranges, app type and sync.
import type { Handlers } from '../../../types'
import { addRanges, portCount, type PortRange } from '../ports'
import { insertRow, iso, listOf, one, orgOf, touch, visible } from '../util'
import { reachable, scannerRoundTrip, unreachableMessage } from './scanners'

/** Handlers of the port_lists group beyond the generic kinds. */
export const portListHandlers: Handlers = {
  'port_lists.create': (req, ctx) => {
    const b = req.body
    const ranges = addRanges(ctx, [], b.ranges ?? [])
    const row = insertRow(ctx, 'port_lists', orgOf(req), {
      name: b.name,
      description: b.description ?? null,
      app_type: b.app_type,
      activated: true,
      ...ranges,
      synced_at: null,
    })
    return one(req, row, 201)
  },

  'port_lists.activated': (req, ctx) =>
    listOf(ctx, { ...req, query: { ...req.query, activated: true } }, 'port_lists'),

  'port_lists.add_range': (req, ctx) => {
    const row = visible(ctx, req, 'port_lists', req.path.id)
    const next = addRanges(ctx, row.attributes.ranges as PortRange[], [req.body], 'range')
    return one(req, touch(ctx, 'port_lists', row.id, next))
  },

  'port_lists.delete_range': (req, ctx) => {
    const row = visible(ctx, req, 'port_lists', req.path.id)
    const ranges = row.attributes.ranges as PortRange[]
    if (!ranges.some((r) => r.id === req.path.range_id)) {
      ctx.notFound(`port range ${req.path.range_id} of port list ${row.id}`)
    }
    const left = ranges.filter((r) => r.id !== req.path.range_id)
    return one(req, touch(ctx, 'port_lists', row.id, { ranges: left, port_count: portCount(left) }))
  },

  'port_lists.activate': (req, ctx) => {
    const row = visible(ctx, req, 'port_lists', req.path.id)
    return one(
      req,
      row.attributes.activated ? row : touch(ctx, 'port_lists', row.id, { activated: true }),
    )
  },

  'port_lists.deactivate': (req, ctx) => {
    const row = visible(ctx, req, 'port_lists', req.path.id)
    return one(
      req,
      row.attributes.activated ? touch(ctx, 'port_lists', row.id, { activated: false }) : row,
    )
  },

  'port_lists.update_app_type': (req, ctx) => {
    const row = visible(ctx, req, 'port_lists', req.path.id)
    return one(req, touch(ctx, 'port_lists', row.id, { app_type: req.body.app_type }))
  },

  'port_lists.sync': async (req, ctx) => {
    const before = visible(ctx, req, 'port_lists', req.path.id)
    if (!before.attributes.activated) {
      ctx.error(409, `Port list ${before.id} is deactivated; activate it before syncing it`)
    }
    await scannerRoundTrip(ctx)
    const row = visible(ctx, req, 'port_lists', req.path.id)
    // Pushed to the organization's activated scanners of the list's product; one that does not
    // answer fails the sync (409) and synced_at stays as it was.
    const org = String(row.internal?.organization_id)
    const down = ctx.db
      .list('scanners')
      .filter(
        (s) =>
          s.internal?.organization_id === org &&
          s.attributes.activated === true &&
          s.attributes.app_type === row.attributes.app_type &&
          !reachable(s),
      )
    if (down.length > 0) {
      ctx.error(
        409,
        `Port list ${row.id} was not synced: scanner ${down[0].id} (${String(down[0].attributes.name)}) did not answer. ${unreachableMessage(down[0])}.`,
      )
    }
    return one(req, touch(ctx, 'port_lists', row.id, { synced_at: iso(ctx) }))
  },
}
