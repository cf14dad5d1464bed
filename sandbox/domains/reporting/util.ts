import { ROOT_ORGANIZATION } from '../../engine/generic'
import { keepIds } from '../../engine/ids'
import type { Caller, Row, SandboxContext, SandboxRequest, SandboxResponse } from '../../types'

/** The API view of a row: {id, type, attributes}; `internal` never leaves the sandbox. */
export function toResource(row: Row): {
  id: string
  type: string
  attributes: Record<string, unknown>
} {
  return { id: row.id, type: row.type, attributes: row.attributes }
}

/** A 200 (or other) answer with a single envelope. */
export function singleAnswer(row: Row, status = 200): SandboxResponse {
  return { status, body: { data: toResource(row) } }
}

/** The sandbox clock as an ISO string. */
export function nowIso(ctx: SandboxContext): string {
  return ctx.now().toISOString()
}

/** The authenticated caller, or a 401 (every operation of this domain needs a user). */
export function callerOf(req: SandboxRequest, ctx: SandboxContext): Caller {
  if (!req.caller) ctx.error(401, 'Unauthorized')
  return req.caller
}

/** Organization of a row (internal.organization_id). */
export function orgOf(row: Row): string | undefined {
  return row.internal?.organization_id as string | undefined
}

/**
 * True when the caller may see the row: same organization, or an administrator of the root
 * organization (the same rule as the engine's generic kinds).
 */
export function visibleTo(caller: Caller, row: Row): boolean {
  if (caller.role === 'administrator' && caller.organizationId === ROOT_ORGANIZATION) return true
  return orgOf(row) === caller.organizationId
}

/** The row when it exists and the caller may see it; 404 otherwise. */
export function requireOwned(
  ctx: SandboxContext,
  req: SandboxRequest,
  collection: string,
  id: string,
): Row {
  const caller = callerOf(req, ctx)
  const row = ctx.db.get(collection, id)
  if (!row || !visibleTo(caller, row)) return ctx.notFound(`${collection.replace(/s$/, '')} ${id}`)
  return row
}

/** Rows of a collection the caller may see. */
export function ownedRows(ctx: SandboxContext, req: SandboxRequest, collection: string): Row[] {
  const caller = callerOf(req, ctx)
  return ctx.db.list(collection).filter((r) => visibleTo(caller, r))
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0
  if (a === undefined || a === null) return 1
  if (b === undefined || b === null) return -1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  return String(a) < String(b) ? -1 : 1
}

/** Options of a hand-written list: the default sort and the attributes `search` matches. */
export interface ListOptions {
  defaultSort?: string
  searchFields?: string[]
  meta?: Record<string, unknown>
}

/** The paging, sort and search parameters of a list query (the catalog's list query shape). */
export interface ListQuery {
  ids?: string
  page?: number
  per_page?: number
  sort?: string
  search?: string
}

/**
 * Pages, sorts and searches rows the way the generic list does (page ≥ 1, per_page default 25,
 * sort `field` or `-field` on an attribute or the id, case-insensitive substring search, `ids`).
 */
export function listAnswer(
  req: { query: ListQuery },
  rows: Row[],
  options: ListOptions = {},
): SandboxResponse {
  const q = req.query
  let out = keepIds(rows, q)
  const search = typeof q.search === 'string' ? q.search.trim().toLowerCase() : ''
  if (search && options.searchFields?.length) {
    out = out.filter((r) =>
      options.searchFields!.some((f) =>
        String(r.attributes[f] ?? '')
          .toLowerCase()
          .includes(search),
      ),
    )
  }
  const sort = (typeof q.sort === 'string' && q.sort) || options.defaultSort || 'id'
  const desc = sort.startsWith('-')
  const field = desc ? sort.slice(1) : sort
  const value = (r: Row) => (field === 'id' ? r.id : r.attributes[field])
  out = [...out].sort((a, b) => {
    const c = compare(value(a), value(b))
    const ordered = desc ? -c : c
    return ordered !== 0 ? ordered : compare(a.id, b.id)
  })
  const perPage = Number(q.per_page ?? 25)
  const page = Number(q.page ?? 1)
  const total = out.length
  const slice = out.slice((page - 1) * perPage, page * perPage)
  return {
    status: 200,
    body: {
      data: slice.map(toResource),
      meta: {
        pagination: {
          current_page: page,
          per_page: perPage,
          total_pages: Math.max(1, Math.ceil(total / perPage)),
          total_count: total,
        },
        ...options.meta,
      },
    },
  }
}

/** True for the query flag 'true' (or a boolean true when the engine already coerced it). */
export function flag(value: unknown): boolean | undefined {
  if (value === undefined) return undefined
  return value === true || value === 'true'
}
