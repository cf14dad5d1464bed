import type { SandboxSpec } from '@contract/catalog/types'
import {
  SandboxHttpError,
  type CollectionSpec,
  type Row,
  type SandboxContext,
  type SandboxRequest,
  type SandboxResponse,
} from '../types'
import { keepIds } from './ids'

type GenericSpec = Exclude<SandboxSpec, { kind: 'custom' }>

/** The organization whose administrators see every organization's rows. */
export const ROOT_ORGANIZATION = 'org-001'

const RESERVED_QUERY = new Set(['page', 'per_page', 'sort', 'search', 'ids'])

/** A row as the API shows it. */
export function present(row: Row): {
  id: string
  type: string
  attributes: Record<string, unknown>
} {
  return { id: row.id, type: row.type, attributes: row.attributes }
}

/** True when the caller may see `row` of a collection (org scoping). */
export function inScope(spec: CollectionSpec, row: Row, req: SandboxRequest): boolean {
  if (!spec.orgScoped || !req.caller) return true
  const caller = req.caller
  const root = caller.role === 'administrator' && caller.organizationId === ROOT_ORGANIZATION
  if (root && !spec.ownOrganizationOnly) return true
  return row.internal?.organization_id === caller.organizationId
}

function matchesParent(g: GenericSpec, row: Row, req: SandboxRequest): boolean {
  if (!g.parent) return true
  return String(row.attributes[g.parent.field]) === req.path[g.parent.param]
}

function equalsFilter(value: unknown, wanted: unknown): boolean {
  if (Array.isArray(value)) return value.some((v) => String(v) === String(wanted))
  return String(value) === String(wanted)
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0
  if (a === undefined || a === null) return 1
  if (b === undefined || b === null) return -1
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (typeof a === 'boolean' && typeof b === 'boolean') return a ? 1 : -1
  const sa = String(a)
  const sb = String(b)
  return sa < sb ? -1 : sa > sb ? 1 : 0
}

function visibleRow(
  g: GenericSpec,
  spec: CollectionSpec,
  req: SandboxRequest,
  ctx: SandboxContext,
): Row {
  const row = ctx.db.get(g.collection, req.path.id)
  if (!row || !inScope(spec, row, req) || !matchesParent(g, row, req)) {
    throw new SandboxHttpError(404, `Couldn't find ${spec.type} with id ${req.path.id}`)
  }
  return row
}

function list(
  g: GenericSpec,
  spec: CollectionSpec,
  req: SandboxRequest,
  ctx: SandboxContext,
): SandboxResponse {
  const q = req.query
  const hidden = g.parent || q.ids !== undefined ? undefined : spec.onlyUnderParent
  let rows = keepIds(
    ctx.db
      .list(g.collection)
      .filter((r) => inScope(spec, r, req) && matchesParent(g, r, req) && !hidden?.(r)),
    q,
  )

  // Whether any row has an attribute: usually answered by the first row (large collections).
  const scoped = rows
  const known = (name: string) => scoped.some((r) => Object.hasOwn(r.attributes, name))
  for (const [key, wanted] of Object.entries(q)) {
    if (RESERVED_QUERY.has(key) || wanted === undefined) continue
    // `<number attribute>_min` / `_max`: an inclusive range (cvss_score_min=7).
    const range = /^(.+)_(min|max)$/.exec(key)
    if (range && !known(key) && known(range[1])) {
      const bound = Number(wanted)
      const [, attr, side] = range
      rows = rows.filter((r) => {
        const v = r.attributes[attr]
        return typeof v === 'number' && (side === 'min' ? v >= bound : v <= bound)
      })
      continue
    }
    // `<x>_before` / `<x>_after` on a time attribute `<x>_at`: before is exclusive, after
    // inclusive (first_seen_before=2026-01-01T00:00:00Z); a bare date is its start, UTC.
    const span = /^(.+)_(before|after)$/.exec(key)
    if (span && !known(key) && known(`${span[1]}_at`)) {
      const text = String(wanted)
      const bound = Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text)
      const attr = `${span[1]}_at`
      rows = rows.filter((r) => {
        const v = r.attributes[attr]
        const t = typeof v === 'string' ? Date.parse(v) : NaN
        return !Number.isNaN(t) && (span[2] === 'before' ? t < bound : t >= bound)
      })
      continue
    }
    // `tag=x` also filters an array attribute `tags`.
    const attr = known(key) ? key : known(`${key}s`) ? `${key}s` : null
    if (attr) rows = rows.filter((r) => equalsFilter(r.attributes[attr], wanted))
  }

  if (typeof q.search === 'string' && q.search.trim() !== '') {
    const needle = q.search.trim().toLowerCase()
    rows = rows.filter((r) => {
      const fields = spec.searchFields ?? Object.keys(r.attributes)
      return fields.some((f) => {
        const v = r.attributes[f]
        return typeof v === 'string' && v.toLowerCase().includes(needle)
      })
    })
  }

  if (typeof q.sort === 'string' && q.sort !== '') {
    const desc = q.sort.startsWith('-')
    const field = desc ? q.sort.slice(1) : q.sort
    // Array.prototype.sort is stable: equal values keep the collection's order.
    rows = [...rows].sort((a, b) => {
      const c = compare(a.attributes[field], b.attributes[field])
      return desc ? -c : c
    })
  }

  const perPage = Number(q.per_page ?? 25)
  const page = Number(q.page ?? 1)
  const total = rows.length
  const slice = rows.slice((page - 1) * perPage, page * perPage)
  return {
    status: req.op.successStatus,
    body: {
      data: slice.map(present),
      meta: {
        pagination: {
          current_page: page,
          per_page: perPage,
          total_pages: Math.ceil(total / perPage),
          total_count: total,
        },
      },
    },
  }
}

function create(
  g: GenericSpec,
  spec: CollectionSpec,
  req: SandboxRequest,
  ctx: SandboxContext,
): SandboxResponse {
  const now = ctx.now().toISOString()
  const body = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {}
  const attributes: Record<string, unknown> = {
    ...(spec.defaults?.(req, ctx) ?? {}),
    ...body,
    ...(g.parent ? { [g.parent.field]: req.path[g.parent.param] } : {}),
    created_at: now,
    updated_at: now,
  }
  const row = ctx.db.insert(g.collection, {
    id: ctx.db.nextId(spec.prefix),
    type: spec.type,
    attributes,
    internal: req.caller ? { organization_id: req.caller.organizationId } : {},
  })
  return { status: req.op.successStatus, body: { data: present(row) } }
}

/** Runs a generic kind against the collection its catalog entry names. */
export function runGeneric(
  g: GenericSpec,
  spec: CollectionSpec,
  req: SandboxRequest,
  ctx: SandboxContext,
): SandboxResponse {
  const ok = req.op.successStatus
  switch (g.kind) {
    case 'list':
      return list(g, spec, req, ctx)
    case 'show':
      return { status: ok, body: { data: present(visibleRow(g, spec, req, ctx)) } }
    case 'create':
      return create(g, spec, req, ctx)
    case 'update': {
      const row = visibleRow(g, spec, req, ctx)
      const body = req.body && typeof req.body === 'object' ? req.body : {}
      const updated = ctx.db.update(g.collection, row.id, {
        ...body,
        updated_at: ctx.now().toISOString(),
      })
      return { status: ok, body: { data: present(updated) } }
    }
    case 'delete': {
      const row = visibleRow(g, spec, req, ctx)
      ctx.db.remove(g.collection, row.id)
      return { status: ok, body: { data: { id: row.id, deleted: true } } }
    }
    case 'bulk_delete': {
      const ids = ((req.body as { ids?: unknown } | undefined)?.ids ?? []) as string[]
      const deleted: string[] = []
      const notFound: string[] = []
      for (const id of ids) {
        const row = ctx.db.get(g.collection, id)
        if (row && inScope(spec, row, req) && matchesParent(g, row, req)) {
          ctx.db.remove(g.collection, id)
          deleted.push(id)
        } else if (!deleted.includes(id)) {
          notFound.push(id)
        }
      }
      return { status: ok, body: { data: { deleted, not_found: notFound } } }
    }
  }
}
