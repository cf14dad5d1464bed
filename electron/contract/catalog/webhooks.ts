import { z } from 'zod'
import { SINCE_5_3 } from '../releases'
import {
  byIdsFilter,
  byId,
  collection,
  dateTime,
  deletedResponse,
  description,
  idParam,
  listQuery,
  name,
  single,
} from '../schemas/common'
import { defineGroup, defineOperation } from './types'

/** Events a webhook can subscribe to (decided here; the interface does not list them). */
export const WEBHOOK_EVENTS = [
  'scan.started',
  'scan.completed',
  'scan.failed',
  'report.ready',
  'vulnerability.detected',
  'exception.expiring',
  'saq.approved',
  'target.created',
] as const

/** One webhook event name. */
export const webhookEvent = z.enum(WEBHOOK_EVENTS)

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** True for an https URL, or an http URL to the loopback interface; never with credentials. */
export function isAllowedWebhookUrl(value: string): boolean {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  if (url.username || url.password || !url.hostname) return false
  if (url.protocol === 'https:') return true
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)
}

/** A webhook endpoint URL: https, or http to 127.0.0.1 / localhost / ::1 (decided here). */
export const webhookUrl = z
  .string()
  .trim()
  .max(2048)
  .refine(isAllowedWebhookUrl, 'must be an https URL (http only to 127.0.0.1, ::1 or localhost)')

/** A signing secret: write-only, never part of an answer (`has_secret` tells whether one is set). */
export const webhookSecret = z.string().min(16, 'must be at least 16 characters').max(256)

const events = z
  .array(webhookEvent)
  .min(1, 'choose at least one event')
  .max(WEBHOOK_EVENTS.length)
  .refine((e) => new Set(e).size === e.length, 'must not repeat an event')

/** Body of webhook create (decided here). */
export const webhookCreateBody = z.strictObject({
  name,
  url: webhookUrl,
  events,
  description: description.optional(),
  secret: webhookSecret.optional(),
  active: z.boolean().optional(),
})

/** Body of webhook update (decided here): any subset; `secret: null` removes the secret. */
export const webhookUpdateBody = z.strictObject({
  name: name.optional(),
  url: webhookUrl.optional(),
  events: events.optional(),
  description: description.optional(),
  secret: webhookSecret.nullable().optional(),
})

/** Webhook attributes (decided here). The secret itself is never sent. */
export const webhookAttributes = z.looseObject({
  name: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  active: z.boolean(),
  has_secret: z.boolean(),
  description: z.string().nullish(),
  last_delivery_at: dateTime.nullish(),
  last_delivery_status: z.string().nullish(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
})

/** Delivery attributes (decided here): one attempt to POST an event to the webhook's URL. */
export const webhookDeliveryAttributes = z.looseObject({
  webhook_id: z.string(),
  event: z.string(),
  status: z.enum(['succeeded', 'failed']),
  response_status: z.number().int().nullish(),
  duration_ms: z.number().int().nullish(),
  attempt: z.number().int().optional(),
  request_headers: z.record(z.string(), z.string()).optional(),
  request_body: z.string(),
  response_body: z.string().nullish(),
  error: z.string().nullish(),
  delivered_at: dateTime,
})

/** Path parameters of one delivery of one webhook. */
export const deliveryPath = z.strictObject({ id: idParam, delivery_id: idParam })

const g = 'webhooks' as const

/** Webhooks: list, create, show, update, delete, activate, deactivate; deliveries. */
export const webhooksOperations = defineGroup([
  defineOperation({
    id: 'webhooks.list',
    group: g,
    method: 'GET',
    path: '/v2/webhooks',
    query: listQuery({ ...byIdsFilter }),
    response: collection(webhookAttributes),
    releases: SINCE_5_3,
    summary: 'List webhooks',
    source: 'decided',
    sandbox: { kind: 'list', collection: 'webhooks' },
    example: { query: { per_page: 10 } },
  }),
  defineOperation({
    id: 'webhooks.create',
    group: g,
    method: 'POST',
    path: '/v2/webhooks',
    body: webhookCreateBody,
    response: single(webhookAttributes),
    releases: SINCE_5_3,
    successStatus: 201,
    summary: 'Create a webhook (https endpoint, events, optional signing secret)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: {
      body: {
        name: 'SIEM intake',
        url: 'https://siem.example.com/hooks/scandesk',
        events: ['scan.completed', 'report.ready'],
        secret: 'whsec-example-0123456789',
      },
    },
  }),
  defineOperation({
    id: 'webhooks.show',
    group: g,
    method: 'GET',
    path: '/v2/webhooks/{id}',
    pathParams: byId,
    response: single(webhookAttributes),
    releases: SINCE_5_3,
    summary: 'Show one webhook',
    source: 'decided',
    sandbox: { kind: 'show', collection: 'webhooks' },
    example: { path: { id: 'whk-001' } },
  }),
  defineOperation({
    id: 'webhooks.update',
    group: g,
    method: 'PUT',
    path: '/v2/webhooks/{id}',
    pathParams: byId,
    body: webhookUpdateBody,
    response: single(webhookAttributes),
    releases: SINCE_5_3,
    summary: 'Update a webhook (a new secret replaces the old one; null removes it)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'whk-002' }, body: { events: ['scan.failed', 'saq.approved'] } },
  }),
  defineOperation({
    id: 'webhooks.delete',
    group: g,
    method: 'DELETE',
    path: '/v2/webhooks/{id}',
    pathParams: byId,
    response: deletedResponse,
    releases: SINCE_5_3,
    summary: 'Delete a webhook and its deliveries',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'whk-003' } },
  }),
  defineOperation({
    id: 'webhooks.activate',
    group: g,
    method: 'PUT',
    path: '/v2/webhooks/{id}/activate',
    pathParams: byId,
    response: single(webhookAttributes),
    releases: SINCE_5_3,
    idempotent: true,
    summary: 'Activate a webhook',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'whk-002' } },
  }),
  defineOperation({
    id: 'webhooks.deactivate',
    group: g,
    method: 'PUT',
    path: '/v2/webhooks/{id}/deactivate',
    pathParams: byId,
    response: single(webhookAttributes),
    releases: SINCE_5_3,
    idempotent: true,
    summary: 'Deactivate a webhook (no more deliveries until activated)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'whk-001' } },
  }),
  defineOperation({
    id: 'webhooks.deliveries',
    group: g,
    method: 'GET',
    path: '/v2/webhooks/{id}/deliveries',
    pathParams: byId,
    query: listQuery({
      status: z.enum(['succeeded', 'failed']).optional(),
      event: webhookEvent.optional(),
    }),
    response: collection(webhookDeliveryAttributes),
    releases: SINCE_5_3,
    summary: 'List the deliveries of a webhook, newest first',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'whk-001' }, query: { status: 'failed' } },
  }),
  defineOperation({
    id: 'webhooks.delivery',
    group: g,
    method: 'GET',
    path: '/v2/webhooks/{id}/deliveries/{delivery_id}',
    pathParams: deliveryPath,
    response: single(webhookDeliveryAttributes),
    releases: SINCE_5_3,
    summary: 'Show one delivery of a webhook with its request and response',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'whk-001', delivery_id: 'dlv-001' } },
  }),
])
