import { z } from 'zod'
import { ALL_RELEASES } from '../releases'
import {
  byIdsFilter,
  bulkDeleteResponse,
  bulkIdsBody,
  byId,
  collection,
  dateTime,
  deletedResponse,
  idParam,
  listQuery,
  resource,
  severity,
  single,
} from '../schemas/common'
import { defineGroup, defineOperation } from './types'

/** Why a finding is excepted (decided here). */
export const exceptionKind = z.enum(['accepted_risk', 'false_positive'])

/**
 * States of an exception (decided here): pending (created or reset, not in force), active (in
 * force until expires_at), expired (expires_at has passed).
 */
export const exceptionState = z.enum(['pending', 'active', 'expired'])

/** Exception attributes: a vulnerability accepted or marked false positive for a host until a date. */
export const exceptionAttributes = z.looseObject({
  vulnerability_id: z.string(),
  host_id: z.string(),
  scan_id: z.string().nullish(),
  kind: exceptionKind,
  reason: z.string(),
  state: exceptionState,
  expires_at: dateTime,
  activated_at: dateTime.nullish(),
  activated_by: z.string().nullish(),
  created_by: z.string().nullish(),
  vulnerability_title: z.string().nullish(),
  severity: severity.nullish(),
  host_ip: z.string().nullish(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
})

/** An instant with `Z` or an offset, e.g. 2030-01-31T00:00:00Z. */
const instant = z.iso.datetime({ offset: true })

/** Body of exception create (decided here); host_id defaults to the vulnerability's host. */
export const exceptionCreateBody = z.strictObject({
  vulnerability_id: idParam,
  host_id: idParam.optional(),
  kind: exceptionKind,
  reason: z.string().trim().min(1, 'is required').max(2000),
  expires_at: instant,
})

/** Body of exception update: kind, reason and expiry. */
export const exceptionUpdateBody = z.strictObject({
  kind: exceptionKind.optional(),
  reason: z.string().trim().min(1, 'is required').max(2000).optional(),
  expires_at: instant.optional(),
})

/** Details of an exception: its attributes plus the vulnerability and host it concerns. */
export const exceptionDetailsResponse = z.looseObject({
  data: resource(
    exceptionAttributes.extend({
      vulnerability: z.looseObject({
        id: z.string(),
        title: z.string(),
        severity,
        cvss_score: z.number(),
        cve_ids: z.array(z.string()),
      }),
      host: z.looseObject({ id: z.string(), ip: z.string(), hostname: z.string().nullish() }),
    }),
  ),
})

/** Answer of exception statistics (decided here). */
export const exceptionStatisticsResponse = z.looseObject({
  data: z.looseObject({
    total: z.number().int(),
    by_state: z.looseObject({
      pending: z.number().int(),
      active: z.number().int(),
      expired: z.number().int(),
    }),
    by_kind: z.looseObject({
      accepted_risk: z.number().int(),
      false_positive: z.number().int(),
    }),
    /** Active exceptions that expire within 30 days. */
    expiring_soon: z.number().int(),
  }),
})

const g = 'exceptions' as const

/** Exceptions: CRUD, bulk delete, details, activate, reset, statistics. */
export const exceptionsOperations = defineGroup([
  defineOperation({
    id: 'exceptions.list',
    group: g,
    method: 'GET',
    path: '/v2/exceptions',
    query: listQuery({
      ...byIdsFilter,
      state: exceptionState.optional(),
      kind: exceptionKind.optional(),
      vulnerability_id: idParam.optional(),
      host_id: idParam.optional(),
    }),
    response: collection(exceptionAttributes),
    releases: ALL_RELEASES,
    summary: 'List vulnerability exceptions',
    source: 'decided',
    sandbox: { kind: 'list', collection: 'exceptions' },
    example: { query: { state: 'active' } },
  }),
  defineOperation({
    id: 'exceptions.create',
    group: g,
    method: 'POST',
    path: '/v2/exceptions',
    body: exceptionCreateBody,
    response: single(exceptionAttributes),
    releases: ALL_RELEASES,
    summary: 'Create an exception for a vulnerability (pending until activated)',
    source: 'decided',
    successStatus: 201,
    errors: [401, 403, 404, 409, 422],
    sandbox: { kind: 'custom' },
    example: {
      body: {
        vulnerability_id: 'vul-002',
        kind: 'false_positive',
        reason: 'Service is behind a WAF rule that blocks the vector',
        expires_at: '2099-01-01T00:00:00Z',
      },
    },
  }),
  defineOperation({
    id: 'exceptions.update',
    group: g,
    method: 'PUT',
    path: '/v2/exceptions/{id}',
    pathParams: byId,
    body: exceptionUpdateBody,
    response: single(exceptionAttributes),
    releases: ALL_RELEASES,
    summary: 'Update the kind, reason or expiry of an exception',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'exc-001' }, body: { reason: 'Compensating control documented' } },
  }),
  defineOperation({
    id: 'exceptions.show',
    group: g,
    method: 'GET',
    path: '/v2/exceptions/{id}',
    pathParams: byId,
    response: single(exceptionAttributes),
    releases: ALL_RELEASES,
    summary: 'Show one exception',
    source: 'decided',
    sandbox: { kind: 'show', collection: 'exceptions' },
    example: { path: { id: 'exc-001' } },
  }),
  defineOperation({
    id: 'exceptions.delete',
    group: g,
    method: 'DELETE',
    path: '/v2/exceptions/{id}',
    pathParams: byId,
    response: deletedResponse,
    releases: ALL_RELEASES,
    summary: 'Delete an exception',
    source: 'decided',
    sandbox: { kind: 'delete', collection: 'exceptions' },
    example: { path: { id: 'exc-003' } },
  }),
  defineOperation({
    id: 'exceptions.bulk_delete',
    group: g,
    method: 'POST',
    path: '/v2/exceptions/bulk_delete',
    body: bulkIdsBody,
    response: bulkDeleteResponse,
    releases: ALL_RELEASES,
    idempotent: true,
    summary: 'Delete several exceptions',
    source: 'decided',
    sandbox: { kind: 'bulk_delete', collection: 'exceptions' },
    example: { body: { ids: ['exc-003', 'exc-004'] } },
  }),
  defineOperation({
    id: 'exceptions.details',
    group: g,
    method: 'GET',
    path: '/v2/exceptions/{id}/details',
    pathParams: byId,
    response: exceptionDetailsResponse,
    releases: ALL_RELEASES,
    summary: 'Show an exception with the vulnerability and host it concerns',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'exc-001' } },
  }),
  defineOperation({
    id: 'exceptions.activate',
    group: g,
    method: 'PUT',
    path: '/v2/exceptions/{id}/activate',
    pathParams: byId,
    response: single(exceptionAttributes),
    releases: ALL_RELEASES,
    summary: 'Put an exception in force until its expiry date',
    source: 'decided',
    errors: [401, 403, 404, 409],
    sandbox: { kind: 'custom' },
    example: { path: { id: 'exc-002' } },
  }),
  defineOperation({
    id: 'exceptions.reset',
    group: g,
    method: 'PUT',
    path: '/v2/exceptions/{id}/reset',
    pathParams: byId,
    response: single(exceptionAttributes),
    releases: ALL_RELEASES,
    summary: 'Take an exception out of force (back to pending)',
    source: 'decided',
    errors: [401, 403, 404],
    sandbox: { kind: 'custom' },
    example: { path: { id: 'exc-001' } },
  }),
  defineOperation({
    id: 'exceptions.statistics',
    group: g,
    method: 'GET',
    path: '/v2/exceptions/statistics',
    response: exceptionStatisticsResponse,
    releases: ALL_RELEASES,
    summary: 'Count exceptions by state and kind, and those expiring within 30 days',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: {},
  }),
])
