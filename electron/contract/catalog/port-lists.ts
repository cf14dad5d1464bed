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
  plainListQuery,
  single,
} from '../schemas/common'
import { portRangeProblem } from '../ports'
import { appType } from './scanners'
import { defineGroup, defineOperation } from './types'

/** Transport protocol of a port range. */
export const portProtocol = z.enum(['tcp', 'udp'])

const port = z.number().int().min(1).max(65535)

/**
 * A port range as sent in a request: start ≤ end, both 1–65535 (`../ports` checks it, as the
 * range editor does with the T:/U: text before sending; a refused range gets its sentence).
 */
export const portRangeInput = z
  .strictObject({ start: port, end: port, protocol: portProtocol })
  .superRefine((r, ctx) => {
    const problem = portRangeProblem(r.start, r.end)
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['end'] })
  })

/** A stored port range with its id. */
export const portRange = z.looseObject({
  id: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  protocol: portProtocol,
})

/** Port list attributes (decided here). */
export const portListAttributes = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  app_type: appType,
  activated: z.boolean(),
  ranges: z.array(portRange),
  /** Number of distinct ports covered (TCP and UDP counted separately). */
  port_count: z.number().int(),
  synced_at: dateTime.nullish(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
})

/** Body of port list create. Overlapping ranges of one protocol are refused. */
export const portListCreateBody = z.strictObject({
  name,
  description: description.optional(),
  app_type: appType,
  ranges: z.array(portRangeInput).max(200).optional(),
})

/** Body of port list update: name and description (ranges and app type have their own operations). */
export const portListUpdateBody = z.strictObject({
  name: name.optional(),
  description: description.optional(),
})

const g = 'port_lists' as const

/** Port lists: CRUD, activation, ranges, app type and sync. */
export const portListsOperations = defineGroup([
  defineOperation({
    id: 'port_lists.list',
    group: g,
    method: 'GET',
    path: '/v2/port_lists',
    query: listQuery({ ...byIdsFilter, app_type: appType.optional() }),
    response: collection(portListAttributes),
    releases: SINCE_5_3,
    summary: 'List port lists',
    source: 'decided',
    sandbox: { kind: 'list', collection: 'port_lists' },
    example: {},
  }),
  defineOperation({
    id: 'port_lists.create',
    group: g,
    method: 'POST',
    path: '/v2/port_lists',
    body: portListCreateBody,
    response: single(portListAttributes),
    releases: SINCE_5_3,
    summary: 'Create a port list',
    source: 'decided',
    successStatus: 201,
    sandbox: { kind: 'custom' },
    example: {
      body: {
        name: 'Mail servers',
        app_type: 'external_scan',
        ranges: [
          { start: 25, end: 25, protocol: 'tcp' },
          { start: 587, end: 587, protocol: 'tcp' },
        ],
      },
    },
  }),
  defineOperation({
    id: 'port_lists.show',
    group: g,
    method: 'GET',
    path: '/v2/port_lists/{id}',
    pathParams: byId,
    response: single(portListAttributes),
    releases: SINCE_5_3,
    summary: 'Show one port list with its ranges',
    source: 'decided',
    sandbox: { kind: 'show', collection: 'port_lists' },
    example: { path: { id: 'prt-001' } },
  }),
  defineOperation({
    id: 'port_lists.update',
    group: g,
    method: 'PUT',
    path: '/v2/port_lists/{id}',
    pathParams: byId,
    body: portListUpdateBody,
    response: single(portListAttributes),
    releases: SINCE_5_3,
    summary: 'Rename or describe a port list',
    source: 'decided',
    sandbox: { kind: 'update', collection: 'port_lists' },
    example: { path: { id: 'prt-003' }, body: { description: 'Ports in PCI DSS scope' } },
  }),
  defineOperation({
    id: 'port_lists.delete',
    group: g,
    method: 'DELETE',
    path: '/v2/port_lists/{id}',
    pathParams: byId,
    response: deletedResponse,
    releases: SINCE_5_3,
    summary: 'Delete a port list',
    source: 'decided',
    sandbox: { kind: 'delete', collection: 'port_lists' },
    example: { path: { id: 'prt-004' } },
  }),
  defineOperation({
    id: 'port_lists.activated',
    group: g,
    method: 'GET',
    path: '/v2/port_lists/activated',
    query: plainListQuery,
    response: collection(portListAttributes),
    releases: SINCE_5_3,
    summary: 'List the activated port lists',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: {},
  }),
  defineOperation({
    id: 'port_lists.add_range',
    group: g,
    method: 'POST',
    path: '/v2/port_lists/{id}/ranges',
    pathParams: byId,
    body: portRangeInput,
    response: single(portListAttributes),
    releases: SINCE_5_3,
    summary: 'Add a port range to a port list (overlaps are refused)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'prt-003' }, body: { start: 8443, end: 8443, protocol: 'tcp' } },
  }),
  defineOperation({
    id: 'port_lists.delete_range',
    group: g,
    method: 'DELETE',
    path: '/v2/port_lists/{id}/ranges/{range_id}',
    pathParams: z.strictObject({ id: idParam, range_id: idParam }),
    response: single(portListAttributes),
    releases: SINCE_5_3,
    summary: 'Remove a port range from a port list',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'prt-002', range_id: 'rng-003' } },
  }),
  defineOperation({
    id: 'port_lists.activate',
    group: g,
    method: 'PUT',
    path: '/v2/port_lists/{id}/activate',
    pathParams: byId,
    response: single(portListAttributes),
    releases: SINCE_5_3,
    summary: 'Activate a port list',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'prt-004' } },
  }),
  defineOperation({
    id: 'port_lists.deactivate',
    group: g,
    method: 'PUT',
    path: '/v2/port_lists/{id}/deactivate',
    pathParams: byId,
    response: single(portListAttributes),
    releases: SINCE_5_3,
    summary: 'Deactivate a port list',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'prt-002' } },
  }),
  defineOperation({
    id: 'port_lists.update_app_type',
    group: g,
    method: 'PUT',
    path: '/v2/port_lists/{id}/update_app_type',
    pathParams: byId,
    body: z.strictObject({ app_type: appType }),
    response: single(portListAttributes),
    releases: SINCE_5_3,
    summary: 'Change the product a port list serves',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'prt-002' }, body: { app_type: 'internal_scan' } },
  }),
  defineOperation({
    id: 'port_lists.sync',
    group: g,
    method: 'PUT',
    path: '/v2/port_lists/{id}/sync',
    pathParams: byId,
    response: single(portListAttributes),
    releases: SINCE_5_3,
    summary: 'Push a port list to the scanners that serve its product',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'prt-001' } },
  }),
])
