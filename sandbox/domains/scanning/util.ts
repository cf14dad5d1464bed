import { inScope, present, runGeneric } from '../../engine/generic'
import type { Row, SandboxContext, SandboxRequest, SandboxResponse } from '../../types'
import { COLLECTIONS } from './collections'

export { present }
export { hash, keyedRng } from './hash'

/** Current sandbox time as ISO text. */
export const iso = (ctx: SandboxContext): string => ctx.now().toISOString()

/** A row of `collection` the caller may see, or a 404. */
export function visible(
  ctx: SandboxContext,
  req: SandboxRequest,
  collection: string,
  id: string,
): Row {
  const spec = COLLECTIONS[collection]
  const row = findVisible(ctx, req, collection, id)
  if (!row) ctx.notFound(`${spec.type} ${id}`)
  return row
}

/** A row of `collection` the caller may see, or undefined (one lookup, not a scan). */
export function findVisible(
  ctx: SandboxContext,
  req: SandboxRequest,
  collection: string,
  id: string,
): Row | undefined {
  const row = ctx.db.get(collection, id)
  return row && inScope(COLLECTIONS[collection], row, req) ? row : undefined
}

/** Rows of `collection` the caller may see. */
export function visibleRows(ctx: SandboxContext, req: SandboxRequest, collection: string): Row[] {
  const spec = COLLECTIONS[collection]
  return ctx.db.list(collection).filter((row) => inScope(spec, row, req))
}

/** The generic list over `collection`, optionally restricted to rows whose `field` equals a path parameter. */
export function listOf(
  ctx: SandboxContext,
  req: SandboxRequest,
  collection: string,
  parent?: { param: string; field: string },
): SandboxResponse {
  return runGeneric({ kind: 'list', collection, parent }, COLLECTIONS[collection], req, ctx)
}

/** `{data: row}` with the operation's success status. */
export function one(req: SandboxRequest, row: Row, status?: number): SandboxResponse {
  return { status: status ?? req.op.successStatus, body: { data: present(row) } }
}

/** `{data: [rows]}` without pagination (dashboard panels). */
export function many(req: SandboxRequest, rows: Row[]): SandboxResponse {
  return { status: req.op.successStatus, body: { data: rows.map(present) } }
}

/** The organization new rows of this caller belong to. */
export function orgOf(req: SandboxRequest): string {
  return req.caller?.organizationId ?? 'org-001'
}

/** Inserts a row with the next id of `collection`'s prefix and the given organization. */
export function insertRow(
  ctx: SandboxContext,
  collection: string,
  organizationId: string,
  attributes: Record<string, unknown>,
  internal: Record<string, unknown> = {},
): Row {
  const spec = COLLECTIONS[collection]
  const now = iso(ctx)
  return ctx.db.insert(collection, {
    id: ctx.db.nextId(spec.prefix),
    type: spec.type,
    attributes: { ...attributes, created_at: attributes.created_at ?? now, updated_at: now },
    internal: { ...internal, organization_id: organizationId },
  })
}

/** Shallow-merges attributes and stamps updated_at. */
export function touch(
  ctx: SandboxContext,
  collection: string,
  id: string,
  attributes: Record<string, unknown>,
  internal?: Record<string, unknown>,
): Row {
  return ctx.db.update(collection, id, { ...attributes, updated_at: iso(ctx) }, internal)
}
