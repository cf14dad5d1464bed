import { z } from 'zod'
import { ALL_RELEASES } from '../releases'
import { byId, collection, dateTime, listQuery, single } from '../schemas/common'
import { defineGroup, defineOperation } from './types'

/**
 * A date (YYYY-MM-DD) or a date-time with a time zone (decided here). In audit filters a bare
 * date means the start of that day (UTC) for `from` and its end for `to`.
 */
export const dateOrDateTime = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/,
    'must be a date (YYYY-MM-DD) or a date-time with a time zone',
  )
  .refine((s) => !Number.isNaN(Date.parse(s.length === 10 ? `${s}T00:00:00Z` : s)), {
    message: 'is not a valid date',
  })

/** Audit event attributes (decided here): who did what to which resource, and when. */
export const auditEventAttributes = z.looseObject({
  action: z.string(),
  actor_id: z.string().nullish(),
  actor_email: z.string().nullish(),
  resource_type: z.string().nullish(),
  resource_id: z.string().nullish(),
  ip_address: z.string().nullish(),
  user_agent: z.string().nullish(),
  details: z.record(z.string(), z.unknown()).nullish(),
  occurred_at: dateTime,
})

/** Query of the audit log: list parameters plus actor, action, resource type and a date range. */
export const auditListQuery = listQuery({
  actor: z.string().trim().min(1).max(200).optional(),
  action: z
    .string()
    .regex(/^[a-z_.]{1,60}$/, 'must be an action name such as user.sign_in')
    .optional(),
  resource_type: z
    .string()
    .regex(/^[a-z_]{1,40}$/, 'must be a resource type such as scan')
    .optional(),
  from: dateOrDateTime.optional(),
  to: dateOrDateTime.optional(),
})

const g = 'audit' as const

/** Audit: all events (filtered, newest first) and one event. */
export const auditOperations = defineGroup([
  defineOperation({
    id: 'audit.list',
    group: g,
    method: 'GET',
    path: '/v2/audit',
    query: auditListQuery,
    response: collection(auditEventAttributes),
    releases: ALL_RELEASES,
    summary: 'Get all audit events (filter by actor, action, resource type and dates)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { query: { action: 'user.sign_in', per_page: 50 } },
  }),
  defineOperation({
    id: 'audit.show',
    group: g,
    method: 'GET',
    path: '/v2/audit/{id}',
    pathParams: byId,
    response: single(auditEventAttributes),
    releases: ALL_RELEASES,
    summary: 'Get one audit event',
    source: 'decided',
    sandbox: { kind: 'show', collection: 'audit_events' },
    example: { path: { id: 'aud-001' } },
  }),
])
