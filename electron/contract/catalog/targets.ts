import { z } from 'zod'
import { MAX_HOST_LINES, parseHostEntry } from '../hosts'
import { ALL_RELEASES, LATEST_ONLY } from '../releases'
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

/**
 * A scan target's address (decided here): one entry of the host syntax in `../hosts` — an IPv4
 * address, a CIDR block (/16 or longer), a dash range, a host name, an IPv6 address or prefix
 * (/112 or longer). A refused entry gets the parser's sentence saying why.
 */
export const targetAddress = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(253)
  .superRefine((value, ctx) => {
    if (value === '') return // "is required" says it
    const parsed = parseHostEntry(value)
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.problem })
  })

/** TargetAttributes (fields decided here; the interface names the schema only). */
export const targetAttributes = z.looseObject({
  name: z.string(),
  address: z.string(),
  description: z.string().nullish(),
  tags: z.array(z.string()).optional(),
  organization_id: z.string().nullish(),
  hosts_count: z.number().int().nullish(),
  last_scanned_at: dateTime.nullish(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
})

/** Body of target create (decided here). */
export const targetCreateBody = z.strictObject({
  name,
  address: targetAddress,
  description: description.optional(),
  tags: z.array(z.string().max(50)).max(20).optional(),
})

/** Body of target update (decided here): any subset of the create fields. */
export const targetUpdateBody = targetCreateBody.partial()

const g = 'targets' as const
const targets = { kind: 'list', collection: 'targets' } as const

/** Targets: create, list, show, update, delete, bulk delete, calculate hosts. */
export const targetOperations = defineGroup([
  defineOperation({
    id: 'targets.list',
    group: g,
    method: 'GET',
    path: '/v2/targets',
    query: listQuery({ ...byIdsFilter, tag: z.string().max(50).optional() }),
    response: collection(targetAttributes),
    releases: ALL_RELEASES,
    summary: 'List scan targets',
    source: 'decided',
    sandbox: targets,
    example: { query: { tag: 'production' } },
  }),
  defineOperation({
    id: 'targets.create',
    group: g,
    method: 'POST',
    path: '/v2/targets',
    body: targetCreateBody,
    response: single(targetAttributes),
    releases: ALL_RELEASES,
    summary: 'Create a scan target',
    source: 'decided',
    sandbox: { kind: 'create', collection: 'targets' },
    example: { body: { name: 'Payment gateway', address: '203.0.113.10', tags: ['pci'] } },
  }),
  defineOperation({
    id: 'targets.show',
    group: g,
    method: 'GET',
    path: '/v2/targets/{id}',
    pathParams: byId,
    response: single(targetAttributes),
    releases: ALL_RELEASES,
    summary: 'Show one scan target',
    source: 'decided',
    sandbox: { kind: 'show', collection: 'targets' },
    example: { path: { id: 'tgt-001' } },
  }),
  defineOperation({
    id: 'targets.update',
    group: g,
    method: 'PUT',
    path: '/v2/targets/{id}',
    pathParams: byId,
    body: targetUpdateBody,
    response: single(targetAttributes),
    releases: ALL_RELEASES,
    summary: 'Update a scan target',
    source: 'decided',
    sandbox: { kind: 'update', collection: 'targets' },
    example: { path: { id: 'tgt-001' }, body: { description: 'Primary web front end' } },
  }),
  defineOperation({
    id: 'targets.delete',
    group: g,
    method: 'DELETE',
    path: '/v2/targets/{id}',
    pathParams: byId,
    response: deletedResponse,
    releases: ALL_RELEASES,
    summary: 'Delete a scan target',
    source: 'decided',
    sandbox: { kind: 'delete', collection: 'targets' },
    example: { path: { id: 'tgt-040' } },
  }),
  defineOperation({
    id: 'targets.bulk_delete',
    group: g,
    method: 'POST',
    path: '/v2/targets/bulk_delete',
    body: bulkIdsBody,
    response: bulkDeleteResponse,
    releases: ALL_RELEASES,
    idempotent: true,
    summary: 'Delete several scan targets',
    source: 'decided',
    sandbox: { kind: 'bulk_delete', collection: 'targets' },
    example: { body: { ids: ['tgt-041', 'tgt-042'] } },
  }),
  defineOperation({
    id: 'targets.calculate_hosts',
    group: g,
    method: 'POST',
    path: '/v2/targets/calculate_hosts',
    body: z.strictObject({
      address: targetAddress,
      /** Entries whose hosts are left out of the count (decided here; the host syntax, contract/hosts). */
      exclusions: z
        .array(targetAddress)
        .max(MAX_HOST_LINES, `holds at most ${MAX_HOST_LINES.toLocaleString('en-US')} entries`)
        .optional(),
    }),
    response: z.looseObject({
      data: z.looseObject({
        address: z.string(),
        hosts_count: z.number().int(),
        /** Hosts of the address the exclusions removed (when the body has exclusions). */
        excluded_count: z.number().int().optional(),
      }),
    }),
    releases: LATEST_ONLY,
    idempotent: true,
    computeOnly: true,
    summary: 'Calculate how many hosts an address or range covers',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { body: { address: '192.0.2.0/28' } },
  }),
])
