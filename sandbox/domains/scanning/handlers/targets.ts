// Target handlers beyond the generic kinds: host calculation and an update that recounts hosts.
import type { Handler, Handlers, SandboxContext } from '../../../types'
import { countHosts, MIN_IPV6_PREFIX, parseAddress } from '../addresses'
import { one, touch, visible } from '../util'

function hostsOrInvalid(ctx: SandboxContext, address: string): number {
  const info = parseAddress(address)
  if (info.kind === 'invalid') ctx.invalid({ address: [info.reason] })
  const count = countHosts(address)
  if (count === null) {
    ctx.invalid({ address: [`IPv6 ranges wider than /${MIN_IPV6_PREFIX} are not counted`] })
  }
  return count
}

/** Handlers of targets.calculate_hosts and targets.update. */
export const targetHandlers: Handlers = {
  'targets.calculate_hosts': (req, ctx) => {
    const { address } = req.body
    return { status: 200, body: { data: { address, hosts_count: hostsOrInvalid(ctx, address) } } }
  },
  'targets.create': (req, ctx) => {
    // Validates the address before the generic-style insert (hosts_count is computed).
    hostsOrInvalid(ctx, req.body.address)
    return createTargetRow(req, ctx)
  },
  'targets.update': (req, ctx) => {
    const target = visible(ctx, req, 'targets', req.path.id)
    const b = req.body
    const patch: Record<string, unknown> = { ...b }
    if (b.address !== undefined) patch.hosts_count = hostsOrInvalid(ctx, b.address)
    return one(req, touch(ctx, 'targets', target.id, patch))
  },
}

const createTargetRow: Handler<'targets.create'> = (req, ctx) => {
  const b = req.body
  const now = ctx.now().toISOString()
  const row = ctx.db.insert('targets', {
    id: ctx.db.nextId('tgt'),
    type: 'target',
    attributes: {
      description: null,
      tags: [],
      last_scanned_at: null,
      ...b,
      hosts_count: countHosts(b.address),
      created_at: now,
      updated_at: now,
    },
    internal: { organization_id: req.caller?.organizationId ?? 'org-001' },
  })
  return one(req, row, 201)
}
