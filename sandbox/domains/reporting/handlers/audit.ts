import type { Handlers } from '../../../types'
import { listAnswer, ownedRows } from '../util'

/** Start (or, with `end`, the last millisecond) of a date or date-time filter value. */
export function boundary(value: string, end: boolean): number {
  if (value.length === 10) return Date.parse(`${value}T00:00:00Z`) + (end ? 86_400_000 - 1 : 0)
  return Date.parse(value)
}

/** Handlers of the audit group (one event is the generic show). */
export const auditHandlers: Handlers = {
  'audit.list': (req, ctx) => {
    const q = req.query
    const from = q.from ? boundary(q.from, false) : -Infinity
    const to = q.to ? boundary(q.to, true) : Infinity
    if (from > to) ctx.invalid({ from: ['must not be after to'] })
    const actor = q.actor?.toLowerCase()
    const rows = ownedRows(ctx, req, 'audit_events').filter((r) => {
      const a = r.attributes
      const at = Date.parse(String(a.occurred_at))
      return (
        at >= from &&
        at <= to &&
        (!actor ||
          String(a.actor_id ?? '').toLowerCase() === actor ||
          String(a.actor_email ?? '').toLowerCase() === actor) &&
        (!q.action || a.action === q.action) &&
        (!q.resource_type || a.resource_type === q.resource_type)
      )
    })
    return listAnswer(req, rows, {
      defaultSort: '-occurred_at',
      searchFields: ['action', 'actor_email', 'resource_id'],
    })
  },
}
