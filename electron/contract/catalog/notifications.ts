import { z } from 'zod'
import { ALL_RELEASES } from '../releases'
import {
  byIdsFilter,
  byId,
  collection,
  dateTime,
  deletedResponse,
  listQuery,
  meta,
  single,
} from '../schemas/common'
import { defineGroup, defineOperation } from './types'

/** Kinds of notification (decided here). */
export const NOTIFICATION_KINDS = [
  'scan_completed',
  'scan_failed',
  'report_ready',
  'vulnerability_found',
  'exception_expiring',
  'saq_status',
  'system',
] as const

/** A boolean query flag as it travels in a URL: 'true' or 'false'. */
export const queryFlag = z.enum(['true', 'false'])

/** Notification attributes (decided here): one message to the current user. */
export const notificationAttributes = z.looseObject({
  title: z.string(),
  body: z.string().nullish(),
  kind: z.string(),
  level: z.enum(['info', 'warning', 'critical']).optional(),
  read: z.boolean(),
  seen: z.boolean(),
  read_at: dateTime.nullish(),
  seen_at: dateTime.nullish(),
  resource_type: z.string().nullish(),
  resource_id: z.string().nullish(),
  created_at: dateTime,
})

/** Answer of the notifications list: a collection whose meta also counts unread and unseen. */
export const notificationListResponse = collection(notificationAttributes).extend({
  meta: meta
    .extend({
      unread_count: z.number().int().optional(),
      unseen_count: z.number().int().optional(),
    })
    .optional(),
})

/** Answer of mark-all operations (decided here): how many notifications changed. */
export const markAllResponse = z.looseObject({
  data: z.looseObject({ success: z.boolean(), updated: z.number().int().nonnegative() }),
})

const g = 'notifications' as const

/** Notifications of the current user: list, show, delete; mark one or all read / seen. */
export const notificationsOperations = defineGroup([
  defineOperation({
    id: 'notifications.list',
    group: g,
    method: 'GET',
    path: '/v2/notifications',
    query: listQuery({
      ...byIdsFilter,
      read: queryFlag.optional(),
      seen: queryFlag.optional(),
      kind: z.enum(NOTIFICATION_KINDS).optional(),
    }),
    response: notificationListResponse,
    releases: ALL_RELEASES,
    summary: "List the current user's notifications, newest first",
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { query: { read: 'false' } },
  }),
  defineOperation({
    id: 'notifications.show',
    group: g,
    method: 'GET',
    path: '/v2/notifications/{id}',
    pathParams: byId,
    response: single(notificationAttributes),
    releases: ALL_RELEASES,
    summary: 'Show one notification',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'ntf-001' } },
  }),
  defineOperation({
    id: 'notifications.delete',
    group: g,
    method: 'DELETE',
    path: '/v2/notifications/{id}',
    pathParams: byId,
    response: deletedResponse,
    releases: ALL_RELEASES,
    summary: 'Delete a notification',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'ntf-020' } },
  }),
  defineOperation({
    id: 'notifications.mark_read',
    group: g,
    method: 'PUT',
    path: '/v2/notifications/{id}/mark_read',
    pathParams: byId,
    response: single(notificationAttributes),
    releases: ALL_RELEASES,
    idempotent: true,
    offline: 'queue',
    summary: 'Mark a notification as read (also marks it seen)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'ntf-002' } },
  }),
  defineOperation({
    id: 'notifications.mark_all_read',
    group: g,
    method: 'PUT',
    path: '/v2/notifications/mark_all_read',
    response: markAllResponse,
    releases: ALL_RELEASES,
    idempotent: true,
    offline: 'queue',
    summary: "Mark all the current user's notifications as read",
    source: 'decided',
    sandbox: { kind: 'custom' },
  }),
  defineOperation({
    id: 'notifications.mark_seen',
    group: g,
    method: 'PUT',
    path: '/v2/notifications/{id}/mark_seen',
    pathParams: byId,
    response: single(notificationAttributes),
    releases: ALL_RELEASES,
    idempotent: true,
    offline: 'queue',
    summary: 'Mark a notification as seen (shown, not necessarily read)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'ntf-003' } },
  }),
  defineOperation({
    id: 'notifications.mark_all_seen',
    group: g,
    method: 'PUT',
    path: '/v2/notifications/mark_all_seen',
    response: markAllResponse,
    releases: ALL_RELEASES,
    idempotent: true,
    offline: 'queue',
    summary: "Mark all the current user's notifications as seen",
    source: 'decided',
    sandbox: { kind: 'custom' },
  }),
])
