import { z } from 'zod'
import { ALL_RELEASES } from '../releases'
import { defineGroup, defineOperation } from './types'

/** Upcoming scan item (interface §2), exactly as tabulated. */
export const upcomingScanItem = z.looseObject({
  id: z.string(),
  type: z.string(),
  attributes: z.looseObject({
    name: z.string(),
    description: z.string(),
    next_scheduled_at: z.string(),
    in_timezone: z.string(),
  }),
})

/** Answer of upcoming scans (interface §4): {data: [upcoming scan item]}. */
export const upcomingScansResponse = z.looseObject({ data: z.array(upcomingScanItem) })

const g = 'scans' as const

/** Scans (TODO: the other 17 operations are added by the catalog work). */
export const scanOperations = defineGroup([
  defineOperation({
    id: 'scans.upcoming',
    group: g,
    method: 'GET',
    path: '/v2/scans/upcoming_scans',
    query: z.strictObject({ limit: z.coerce.number().int().min(1).max(1000).optional() }),
    response: upcomingScansResponse,
    releases: ALL_RELEASES,
    summary: 'List upcoming scans, ordered by schedule_next_time ascending',
    source: 'interface',
    errors: [401],
    sandbox: { kind: 'custom' },
  }),
])
