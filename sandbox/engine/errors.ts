import type { z } from 'zod'
import type { FieldErrors } from '@contract/errors'

/** Titles of the error statuses the sandbox sends (404 and 422 use the interface's names). */
export const ERROR_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Record Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Parameter Error',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
}

/** Title for a status (falls back to a generic one). */
export function titleOf(status: number): string {
  return ERROR_TITLES[status] ?? (status >= 500 ? 'Server Error' : 'Error')
}

/** The error body: an errors array, the title in `error`, and for 422 a field → messages map. */
export function errorBody(status: number, detail: string, fields?: FieldErrors): unknown {
  const title = titleOf(status)
  if (fields && Object.keys(fields).length > 0) {
    const errors = Object.entries(fields).flatMap(([field, messages]) =>
      messages.map((message) => ({
        status: String(status),
        title,
        detail: `${field} ${message}`,
        source: { pointer: `/${field.split('.').join('/')}` },
      })),
    )
    return { errors, error: title, fields }
  }
  return { errors: [{ status: String(status), title, detail: detail || title }], error: title }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur = input
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined
    cur = (cur as Record<PropertyKey, unknown>)[key]
  }
  return cur
}

/**
 * Turns zod issues into field errors keyed by dotted path (`tags.0`); `base` for the whole value.
 * A missing required value says "is required"; an unknown key says "is not a known parameter".
 */
export function fieldErrorsOf(
  error: z.ZodError,
  input: unknown,
  unknownMessage = 'is not a known parameter',
): FieldErrors {
  const out: FieldErrors = {}
  const add = (path: readonly PropertyKey[], message: string) => {
    const key = path.length ? path.map(String).join('.') : 'base'
    ;(out[key] ??= []).push(message)
  }
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add([...issue.path, key], unknownMessage)
    } else if (
      issue.code === 'invalid_type' &&
      issue.path.length > 0 &&
      valueAt(input, issue.path) === undefined
    ) {
      add(issue.path, 'is required')
    } else {
      add(issue.path, issue.message)
    }
  }
  return out
}
