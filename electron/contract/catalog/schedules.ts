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
  description,
  listQuery,
  name,
  single,
} from '../schemas/common'
import { defineGroup, defineOperation } from './types'

/** How often a schedule repeats (decided here). */
export const scheduleFrequency = z.enum(['once', 'daily', 'weekly', 'monthly', 'quarterly'])

/** True when `tz` is an IANA time zone name this runtime knows (checked through Intl). */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz })
    return true
  } catch {
    return false
  }
}

/** An IANA time zone name such as Europe/Berlin. */
export const timeZone = z
  .string()
  .min(1, 'is required')
  .max(64)
  .refine(isTimeZone, 'must be an IANA time zone name such as Europe/Berlin')

/**
 * First run as a wall-clock time in the schedule's time zone, `YYYY-MM-DDTHH:mm[:ss]` (decided
 * here); an instant with `Z` or an offset is accepted too and read in that time zone.
 */
export const scheduleStart = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/,
    'must be a date and time such as 2025-03-31T09:00',
  )

/** A repetition rule: frequency, first run and time zone (body of the date calculations). */
export const scheduleRule = z.strictObject({
  frequency: scheduleFrequency,
  start_at: scheduleStart,
  time_zone: timeZone,
})

/** Schedule attributes (decided here). `next_run_at` is an instant (UTC), null when none is left. */
export const scheduleAttributes = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  frequency: scheduleFrequency,
  start_at: z.string(),
  time_zone: z.string(),
  next_run_at: dateTime.nullish(),
  scans_count: z.number().int().optional(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
})

/** Body of schedule create. */
export const scheduleCreateBody = z.strictObject({
  name,
  description: description.optional(),
  ...scheduleRule.shape,
})

/** Body of schedule update: any subset of the create fields. */
export const scheduleUpdateBody = scheduleCreateBody.partial()

/** One computed run: the instant (UTC) and the same moment as local time with its offset. */
export const scheduleDate = z.looseObject({ at: dateTime, local: z.string() })

/** Answer of the first-time calculation. */
export const firstScheduleDateResponse = z.looseObject({
  data: z.looseObject({ time_zone: z.string(), first: scheduleDate.nullable() }),
})

/** Answer of the next-dates calculation. */
export const nextScheduleDatesResponse = z.looseObject({
  data: z.looseObject({ time_zone: z.string(), dates: z.array(scheduleDate) }),
})

const g = 'schedules' as const
const schedules = { kind: 'list', collection: 'schedules' } as const
const weeklyBerlin = {
  frequency: 'weekly',
  start_at: '2030-03-25T09:00',
  time_zone: 'Europe/Berlin',
} as const

/** Schedules: CRUD, bulk delete, first-time and next run dates. */
export const schedulesOperations = defineGroup([
  defineOperation({
    id: 'schedules.list',
    group: g,
    method: 'GET',
    path: '/v2/schedules',
    query: listQuery({ ...byIdsFilter, frequency: scheduleFrequency.optional() }),
    response: collection(scheduleAttributes),
    releases: ALL_RELEASES,
    summary: 'List scan schedules',
    source: 'decided',
    sandbox: schedules,
    example: {},
  }),
  defineOperation({
    id: 'schedules.create',
    group: g,
    method: 'POST',
    path: '/v2/schedules',
    body: scheduleCreateBody,
    response: single(scheduleAttributes),
    releases: ALL_RELEASES,
    summary: 'Create a scan schedule',
    source: 'decided',
    successStatus: 201,
    sandbox: { kind: 'custom' },
    example: { body: { name: 'Weekly external sweep', ...weeklyBerlin } },
  }),
  defineOperation({
    id: 'schedules.update',
    group: g,
    method: 'PUT',
    path: '/v2/schedules/{id}',
    pathParams: byId,
    body: scheduleUpdateBody,
    response: single(scheduleAttributes),
    releases: ALL_RELEASES,
    summary: 'Update a scan schedule (its scans follow the new dates)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'sch-001' }, body: { frequency: 'daily' } },
  }),
  defineOperation({
    id: 'schedules.show',
    group: g,
    method: 'GET',
    path: '/v2/schedules/{id}',
    pathParams: byId,
    response: single(scheduleAttributes),
    releases: ALL_RELEASES,
    summary: 'Show one scan schedule',
    source: 'decided',
    sandbox: { kind: 'show', collection: 'schedules' },
    example: { path: { id: 'sch-001' } },
  }),
  defineOperation({
    id: 'schedules.delete',
    group: g,
    method: 'DELETE',
    path: '/v2/schedules/{id}',
    pathParams: byId,
    response: deletedResponse,
    releases: ALL_RELEASES,
    summary: 'Delete a scan schedule (its scans become unscheduled)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'sch-005' } },
  }),
  defineOperation({
    id: 'schedules.bulk_delete',
    group: g,
    method: 'POST',
    path: '/v2/schedules/bulk_delete',
    body: bulkIdsBody,
    response: bulkDeleteResponse,
    releases: ALL_RELEASES,
    idempotent: true,
    summary: 'Delete several scan schedules',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { body: { ids: ['sch-004', 'sch-005'] } },
  }),
  defineOperation({
    id: 'schedules.first_schedule_date',
    group: g,
    method: 'POST',
    path: '/v2/schedules/first_schedule_date',
    body: scheduleRule,
    response: firstScheduleDateResponse,
    releases: ALL_RELEASES,
    idempotent: true,
    computeOnly: true,
    summary: 'Calculate the first run of a schedule from now on (null when none is left)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { body: weeklyBerlin },
  }),
  defineOperation({
    id: 'schedules.next_schedule_dates',
    group: g,
    method: 'POST',
    path: '/v2/schedules/next_schedule_dates',
    body: z.strictObject({
      ...scheduleRule.shape,
      count: z.number().int().min(1).max(100).optional(),
      after: z.iso.datetime({ offset: true }).optional(),
    }),
    response: nextScheduleDatesResponse,
    releases: ALL_RELEASES,
    idempotent: true,
    computeOnly: true,
    summary: 'Calculate the next runs of a schedule (default 5, after now or a given instant)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { body: { ...weeklyBerlin, count: 3 } },
  }),
])
