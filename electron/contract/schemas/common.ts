import { z } from 'zod'

/** What every id is, sent (a path parameter) or received (an answer's `id`, `…_id`, `…_ids`). */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/

/**
 * A path parameter id: letters, digits, '_' and '-', 1–64 characters. Refuses '/', '..',
 * absolute URLs, spaces and anything else that could change the request's path.
 */
export const idParam = z.string().regex(ID_PATTERN, 'must be 1–64 letters, digits, "_" or "-"')

/** Path parameters of an operation on one resource: `{id}`. */
export const byId = z.strictObject({ id: idParam })

/** ISO 8601 date-time as the service sends it. */
export const dateTime = z.string().min(1)

/** Pagination block of a collection (meta.pagination); fields decided here, all tolerated as optional. */
export const pagination = z.looseObject({
  current_page: z.number().int().optional(),
  per_page: z.number().int().optional(),
  total_pages: z.number().int().optional(),
  total_count: z.number().int().optional(),
})

/** Meta block of a collection. */
export const meta = z.looseObject({ pagination: pagination.optional() })

/** Query accepted by every list operation (decided here): page, per_page (≤ 500), sort, search. */
export const listQueryShape = {
  page: z.coerce.number().int().min(1).max(1_000_000).optional(),
  per_page: z.coerce.number().int().min(1).max(500).optional(),
  sort: z
    .string()
    .regex(/^-?[a-z_]{1,40}$/, 'must be a field name, optionally prefixed with "-"')
    .optional(),
  search: z.string().max(200).optional(),
}

/** List query with extra filters. */
export function listQuery<S extends z.ZodRawShape>(filters: S) {
  return z.strictObject({ ...listQueryShape, ...filters })
}

/** Most ids one `ids` filter names (decided here): a page of at most 100 rows' references. */
export const MAX_IDS_FILTER = 100

/**
 * The `ids` filter of a list (decided here): 1–100 comma-separated ids (each like a path id), so a
 * page's references are named in one request per kind. A service that ignores it answers its
 * first page instead; the client keeps only the rows whose ids it asked for.
 */
export const idsFilter = z
  .string()
  .regex(
    new RegExp(`^[A-Za-z0-9_-]{1,64}(,[A-Za-z0-9_-]{1,64}){0,${MAX_IDS_FILTER - 1}}$`),
    `must be 1–${MAX_IDS_FILTER} ids separated by commas`,
  )

/** The `ids` filter as a list query field (spread into the filters of `listQuery`). */
export const byIdsFilter = { ids: idsFilter.optional() }

/** Plain list query (no filters). */
export const plainListQuery = z.strictObject(listQueryShape)

/** A resource object: {id, type, attributes}. */
export function resource<A extends z.ZodType>(attributes: A) {
  return z.looseObject({ id: z.string(), type: z.string(), attributes })
}

/** Single envelope (SingleResponseBase): {data: resource}. */
export function single<A extends z.ZodType>(attributes: A) {
  return z.looseObject({ data: resource(attributes) })
}

/** Collection envelope (CollectionResponseBase): {data: [resource], meta: {pagination}}. */
export function collection<A extends z.ZodType>(attributes: A) {
  return z.looseObject({ data: z.array(resource(attributes)), meta: meta.optional() })
}

/** Body of every bulk delete (decided here): the ids to delete, 1–500 of them. */
export const bulkIdsBody = z.strictObject({ ids: z.array(idParam).min(1).max(500) })

/** Answer of a bulk delete (decided here). */
export const bulkDeleteResponse = z.looseObject({
  data: z.looseObject({ deleted: z.array(z.string()), not_found: z.array(z.string()).optional() }),
})

/** Answer of an operation that reports success only (decided here): {data: {success: true}}. */
export const okResponse = z.looseObject({ data: z.looseObject({ success: z.boolean() }) })

/** Answer of a delete (decided here): the id that was deleted. */
export const deletedResponse = z.looseObject({
  data: z.looseObject({ id: z.string(), deleted: z.literal(true) }),
})

/** Any JSON object (for answers the interface describes only as "an object"). */
export const anyObject = z.looseObject({})

/** Error body (ErrorResponse) as the sandbox sends it; the client tolerates other shapes too. */
export const errorBody = z.looseObject({
  errors: z
    .array(
      z.looseObject({
        status: z.string().optional(),
        title: z.string().optional(),
        detail: z.string().optional(),
        source: z.looseObject({ pointer: z.string().optional() }).optional(),
      }),
    )
    .optional(),
  error: z.string().optional(),
  message: z.string().optional(),
})

/** Severity names used across vulnerabilities, hosts and scans (decided here). */
export const severity = z.enum(['critical', 'high', 'medium', 'low', 'info'])

/** A short display name: 1–200 characters. */
export const name = z.string().trim().min(1, 'is required').max(200)

/** A longer description: at most 2,000 characters. */
export const description = z.string().max(2000)
