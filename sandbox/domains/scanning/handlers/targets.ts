// Target handlers beyond the generic kinds: host calculation and writes that count hosts.
import type { Handler, Handlers, SandboxContext } from '../../../types'
import { countWithExclusions, parseAddress } from '../addresses'
import { one, touch, visible } from '../util'

/** The address's host count; 422 with the parser's sentence on `field` when it is refused. */
export function hostsOrInvalid(ctx: SandboxContext, address: string, field = 'address'): number {
  const entry = parseAddress(address)
  if (!entry.ok) ctx.invalid({ [field]: [entry.problem] })
  return entry.count
}

/** Handlers of targets.calculate_hosts, targets.create and targets.update. */
export const targetHandlers: Handlers = {
  'targets.calculate_hosts': (req, ctx) => {
    const { address, exclusions } = req.body
    const counted = countWithExclusions(address, exclusions ?? [])
    if (!counted.ok) return ctx.invalid({ [counted.field]: [counted.problem] })
    const data: Record<string, unknown> = { address, hosts_count: counted.count }
    if (exclusions !== undefined) data.excluded_count = counted.excluded
    return { status: 200, body: { data } }
  },
  'targets.create': (req, ctx) => createTargetRow(req, ctx),
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
  // Validates the address before the generic-style insert (hosts_count is computed).
  const hosts = hostsOrInvalid(ctx, b.address)
  const now = ctx.now().toISOString()
  const row = ctx.db.insert('targets', {
    id: ctx.db.nextId('tgt'),
    type: 'target',
    attributes: {
      description: null,
      tags: [],
      last_scanned_at: null,
      ...b,
      hosts_count: hosts,
      created_at: now,
      updated_at: now,
    },
    internal: { organization_id: req.caller?.organizationId ?? 'org-001' },
  })
  return one(req, row, 201)
}
