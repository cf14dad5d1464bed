import type { z } from 'zod'
import type { OperationDef } from '@contract/catalog/types'
import { fail, type FieldErrors } from '@contract/errors'

/** The path, query and body of one call, as the renderer or core code gives them. */
export interface CallInput {
  path?: unknown
  query?: unknown
  body?: unknown
}

/** The query of a call's input as a record (for `answersFile`). */
export function queryOf(input: CallInput): Record<string, unknown> | undefined {
  const q = input.query
  return typeof q === 'object' && q !== null ? (q as Record<string, unknown>) : undefined
}

/** A request ready for axios: a relative URL and checked query and body. */
export interface PreparedRequest {
  url: string
  params: Record<string, unknown> | undefined
  data: unknown
}

const PLACEHOLDER = /\{([A-Za-z0-9_]+)\}/g

/**
 * Problems a path parameter value could cause even when its schema let it through: an absolute
 * URL, a path traversal, a slash or a backslash. Returns a message, or null when it is safe.
 */
export function unsafePathValue(value: string): string | null {
  if (value.length === 0) return 'must not be empty'
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) || value.startsWith('//'))
    return 'must not be an absolute URL'
  if (value === '.' || value === '..' || value.includes('../') || value.includes('..\\'))
    return 'must not contain ".."'
  if (/[/\\]/.test(value)) return 'must not contain "/" or "\\"'
  return null
}

function collect(error: z.ZodError, out: FieldErrors): void {
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_'
    ;(out[key] ??= []).push(issue.message)
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/**
 * Checks `input` against the operation's path, query and body schemas and builds the request.
 * Field errors are keyed by the field name as the service would key them (`id`, `limit`,
 * `name`); a problem with a whole part is keyed `path`, `query` or `body`. Throws VALIDATION
 * before anything is sent.
 */
export function prepareRequest(op: OperationDef, input: CallInput = {}): PreparedRequest {
  const errors: FieldErrors = {}
  const path = op.pathParams.safeParse(input.path ?? {})
  if (!path.success) collect(path.error, errors)
  const query = op.query.safeParse(input.query ?? {})
  if (!query.success) collect(query.error, errors)
  let data: unknown = undefined
  if (op.body === null) {
    if (input.body !== undefined) errors.body = ['is not accepted by this operation']
  } else {
    const body = op.body.safeParse(input.body ?? {})
    if (body.success) data = body.data
    else collect(body.error, errors)
  }
  let url = op.path
  if (path.success) {
    const values = isObject(path.data) ? path.data : {}
    url = op.path.replace(PLACEHOLDER, (_m, name: string) => {
      const raw = values[name]
      const value = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : ''
      const problem = unsafePathValue(value)
      if (problem) {
        ;(errors[name] ??= []).push(problem)
        return ''
      }
      return encodeURIComponent(value)
    })
  }
  if (Object.keys(errors).length > 0)
    fail('VALIDATION', 'Some values are not valid; nothing was sent.', { fieldErrors: errors })
  const params = query.success && isObject(query.data) ? dropUndefined(query.data) : undefined
  return { url, params, data }
}

function dropUndefined(obj: Record<string, unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) out[k] = v
  return Object.keys(out).length ? out : undefined
}
