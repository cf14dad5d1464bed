import type { OperationDef } from '@contract/catalog/types'
import type { FieldErrors } from '@contract/errors'
import { SandboxHttpError } from '../types'
import { fieldErrorsOf } from './errors'

/** Parsed, validated input of one request. */
export interface ValidInput {
  path: Record<string, string>
  query: Record<string, unknown>
  body: unknown
}

/** Query string → record; a repeated key becomes an array (and is then refused by string schemas). */
export function queryRecord(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [key, value] of params) {
    const prev = out[key]
    if (prev === undefined) out[key] = value
    else out[key] = Array.isArray(prev) ? [...prev, value] : [prev, value]
  }
  return out
}

/** Parses a raw request body: empty → undefined; bad JSON → 400. */
export function parseJsonBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined
  const text = raw.toString('utf8')
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    throw new SandboxHttpError(400, 'The request body is not valid JSON')
  }
}

const isEmptyObject = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0

/**
 * Validates path parameters, query and body against the operation's schemas (all strict).
 * Field errors of all three are merged into one 422. A missing body is checked as `{}` so the
 * answer names the required fields; a body sent to an operation without one is refused
 * (an empty `{}` is tolerated).
 */
export function validateInput(
  op: OperationDef,
  rawPath: Record<string, string>,
  rawQuery: Record<string, string | string[]>,
  rawBody: unknown,
): ValidInput {
  const fields: FieldErrors = {}
  const merge = (errs: FieldErrors) => {
    for (const [k, v] of Object.entries(errs)) (fields[k] ??= []).push(...v)
  }

  const path = op.pathParams.safeParse(rawPath)
  if (!path.success) merge(fieldErrorsOf(path.error, rawPath))
  const query = op.query.safeParse(rawQuery)
  if (!query.success) merge(fieldErrorsOf(query.error, rawQuery))

  let body: unknown = undefined
  if (op.body) {
    const input = rawBody === undefined ? {} : rawBody
    const parsed = op.body.safeParse(input)
    if (parsed.success) body = parsed.data
    else merge(fieldErrorsOf(parsed.error, input, 'is not allowed'))
  } else if (rawBody !== undefined && !isEmptyObject(rawBody)) {
    merge({ base: ['this operation takes no request body'] })
  }

  if (Object.keys(fields).length > 0) {
    throw new SandboxHttpError(422, 'Parameter Error', fields)
  }
  return {
    path: path.data as Record<string, string>,
    query: query.data as Record<string, unknown>,
    body,
  }
}
