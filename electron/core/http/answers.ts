// Reading the service's answers: a 2xx answer checked against the operation's schema, an error
// answer turned into a ServiceFailure. Both are read as text and parsed here, so an empty body, a
// web page, a body not labelled JSON and malformed JSON are told apart (BAD_RESPONSE).
import type { AxiosResponse } from 'axios'
import type { OperationDef } from '@contract/catalog/types'
import { MAX_JSON_DEPTH, textNestsDeeper } from '@contract/json-depth'
import { badIdPath } from './answer-ids'
import { ServiceFailure, statusFailure, type Redact } from './errors'
import { readTolerantly } from './tolerant'

/** A web page (a proxy's login or error page, a wrong address): by its type or its first tag. */
export function looksHtml(text: string, contentType: unknown): boolean {
  return (
    (typeof contentType === 'string' && /html/i.test(contentType)) ||
    /^\s*<(!doctype|html|head|body)/i.test(text)
  )
}

/**
 * True when a Content-Type says JSON: `application/json` or a structured `application/…+json`
 * type (`application/vnd.api+json`), parameters such as the charset aside.
 */
export function saysJson(contentType: unknown): boolean {
  if (typeof contentType !== 'string') return false
  const essence = contentType.split(';')[0].trim().toLowerCase()
  return /^application\/(?:[a-z0-9!#$&^_.-]+\+)?json$/.test(essence)
}

/**
 * The JSON of a body: not read (`deep`) when it nests deeper than MAX_JSON_DEPTH, which every
 * recursive step after parsing (the schema check, the copy) could not take.
 */
function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; deep?: true } {
  if (textNestsDeeper(text)) return { ok: false, deep: true }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

function badResponse(message: string, status: number): ServiceFailure {
  return new ServiceFailure({ code: 'BAD_RESPONSE', message, status })
}

/** A checked answer, and what a tolerant reading had to do to it. */
export interface Answer {
  data: unknown
  warnings: string[]
  /** Fields read tolerantly (names only), for the log. */
  tolerated: string[]
}

/**
 * Checks a 2xx answer: not empty, not a web page (by its type or its first tag), labelled JSON by
 * its Content-Type, valid JSON, and in the shape the catalog expects (or, tolerant, readable).
 * Error answers are read by `errorFromResponse`, which keeps reading JSON whatever the label.
 */
export function readAnswer(
  op: OperationDef,
  response: AxiosResponse<string>,
  tolerant = false,
): Answer {
  const text = typeof response.data === 'string' ? response.data : ''
  const status = response.status
  if (text.trim() === '')
    throw badResponse('The service sent an empty answer where data was expected.', status)
  if (looksHtml(text, response.headers['content-type']))
    throw badResponse(
      'The service answered with a web page instead of data. Check the account’s address; a proxy or login page may be in the way.',
      status,
    )
  if (!saysJson(response.headers['content-type']))
    throw badResponse(
      'The service’s answer is not labelled as JSON data (its Content-Type is missing or names another type). Check the account’s address; a proxy may be in the way.',
      status,
    )
  const parsed = parseJsonText(text)
  if (!parsed.ok)
    throw badResponse(
      parsed.deep
        ? `The service sent an answer nested more than ${MAX_JSON_DEPTH} levels deep; ScanDesk does not read it.`
        : 'The service sent an answer that is not valid JSON.',
      status,
    )
  const badId = badIdPath(parsed.value)
  if (badId)
    throw badResponse(
      `The service’s answer holds an id ScanDesk does not accept (at ${badId}): ids are 1–64 letters, digits, “_” or “-”.`,
      status,
    )
  const checked = op.response.safeParse(parsed.value)
  if (!checked.success) {
    const read = tolerant ? readTolerantly(op.response, parsed.value) : null
    if (read) return { data: read.data, warnings: read.warnings, tolerated: read.fields }
    const where = [
      ...new Set(checked.error.issues.map((i) => i.path.map(String).join('.') || '(top)')),
    ]
      .slice(0, 3)
      .join(', ')
    throw badResponse(
      `The service’s answer does not have the expected shape (at ${where}).`,
      status,
    )
  }
  return { data: checked.data, warnings: [], tolerated: [] }
}

export function errorFromResponse(
  response: AxiosResponse<string>,
  redact: Redact,
  retryCeilingMs: number,
): ServiceFailure {
  const text = typeof response.data === 'string' ? response.data : ''
  const html = looksHtml(text, response.headers['content-type'])
  const parsed = !html && text.trim() ? parseJsonText(text) : { ok: false as const }
  return statusFailure(
    {
      status: response.status,
      json: parsed.ok ? parsed.value : undefined,
      html,
      retryAfter: response.headers['retry-after'],
      retryCeilingMs,
    },
    redact,
  )
}
