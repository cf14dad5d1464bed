import type { AnyHandler, Handlers, Row, SandboxContext, SandboxRequest } from '../../../types'
import { callerOf, flag, listAnswer, nowIso, singleAnswer } from '../util'

function mine(ctx: SandboxContext, req: SandboxRequest): Row[] {
  const caller = callerOf(req, ctx)
  return ctx.db.list('notifications').filter((n) => n.internal?.user_id === caller.userId)
}

function requireMine(ctx: SandboxContext, req: SandboxRequest): Row {
  const caller = callerOf(req, ctx)
  const row = ctx.db.get('notifications', req.path.id)
  if (!row || row.internal?.user_id !== caller.userId) ctx.notFound('Notification')
  return row
}

function markRead(ctx: SandboxContext, row: Row): Row {
  if (row.attributes.read === true) return row
  const now = nowIso(ctx)
  return ctx.db.update('notifications', row.id, {
    read: true,
    read_at: now,
    seen: true,
    seen_at: row.attributes.seen_at ?? now,
  })
}

function markSeen(ctx: SandboxContext, row: Row): Row {
  if (row.attributes.seen === true) return row
  return ctx.db.update('notifications', row.id, { seen: true, seen_at: nowIso(ctx) })
}

function markAll(
  field: 'read' | 'seen',
  change: (ctx: SandboxContext, row: Row) => Row,
): AnyHandler {
  return (req, ctx) => {
    const pending = mine(ctx, req).filter((n) => n.attributes[field] !== true)
    for (const row of pending) change(ctx, row)
    return { status: 200, body: { data: { success: true, updated: pending.length } } }
  }
}

/** Handlers of the notifications group: every operation sees only the caller's own. */
export const notificationHandlers: Handlers = {
  'notifications.list': (req, ctx) => {
    const all = mine(ctx, req)
    const read = flag(req.query.read)
    const seen = flag(req.query.seen)
    const kind = req.query.kind
    const rows = all.filter(
      (n) =>
        (read === undefined || n.attributes.read === read) &&
        (seen === undefined || n.attributes.seen === seen) &&
        (!kind || n.attributes.kind === kind),
    )
    return listAnswer(req, rows, {
      defaultSort: '-created_at',
      searchFields: ['title', 'body'],
      meta: {
        unread_count: all.filter((n) => !n.attributes.read).length,
        unseen_count: all.filter((n) => !n.attributes.seen).length,
      },
    })
  },
  'notifications.show': (req, ctx) => singleAnswer(requireMine(ctx, req)),
  'notifications.delete': (req, ctx) => {
    const row = requireMine(ctx, req)
    ctx.db.remove('notifications', row.id)
    return { status: 200, body: { data: { id: row.id, deleted: true } } }
  },
  'notifications.mark_read': (req, ctx) => singleAnswer(markRead(ctx, requireMine(ctx, req))),
  'notifications.mark_seen': (req, ctx) => singleAnswer(markSeen(ctx, requireMine(ctx, req))),
  'notifications.mark_all_read': markAll('read', markRead),
  'notifications.mark_all_seen': markAll('seen', markSeen),
}
