import type { Row, SandboxContext } from '../../types'
import { ORGANIZATIONS, USERS } from '../identity/users'

/**
 * Who owns what (decided here for the whole sandbox): a row belongs to a user when its
 * `internal.owner_id` (or, if shown, `attributes.owner_id`) is that user's id. The deletability
 * check, inherit resources and delete all use this one rule.
 */

const NOT_RESOURCES = new Set([USERS, ORGANIZATIONS])

const ownerOf = (row: Row): unknown => row.internal?.owner_id ?? row.attributes.owner_id

/** The rows `userId` owns, by collection (collections with none are left out). */
export function ownedResources(ctx: SandboxContext, userId: string): Record<string, Row[]> {
  const out: Record<string, Row[]> = {}
  for (const name of Object.keys(ctx.db.state.collections).sort()) {
    if (NOT_RESOURCES.has(name)) continue
    const rows = ctx.db.list(name).filter((r) => ownerOf(r) === userId)
    if (rows.length > 0) out[name] = rows
  }
  return out
}

/** Moves every row owned by `fromId` to `toId`; returns how many moved, per collection. */
export function transferResources(
  ctx: SandboxContext,
  fromId: string,
  toId: string,
): Record<string, number> {
  const moved: Record<string, number> = {}
  const stamp = ctx.now().toISOString()
  for (const [name, rows] of Object.entries(ownedResources(ctx, fromId))) {
    for (const row of rows) {
      const attrs: Record<string, unknown> = {}
      if ('owner_id' in row.attributes) attrs.owner_id = toId
      if ('updated_at' in row.attributes) attrs.updated_at = stamp
      ctx.db.update(name, row.id, attrs, { owner_id: toId })
    }
    moved[name] = rows.length
  }
  return moved
}
