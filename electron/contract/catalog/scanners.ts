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
import { targetAddress } from './targets'
import { defineGroup, defineOperation } from './types'

/** The product a scanner or port list serves (decided here; matches product codes). */
export const appType = z.enum(['external_scan', 'internal_scan', 'pci_scan'])

/** Result of the last verification of a scanner (decided here). */
export const scannerVerification = z.enum(['unverified', 'verified', 'failed'])

/** Scanner attributes (decided here). */
export const scannerAttributes = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  host: z.string(),
  port: z.number().int(),
  app_type: appType,
  activated: z.boolean(),
  version: z.string().nullish(),
  verification_status: scannerVerification,
  verification_message: z.string().nullish(),
  last_verified_at: dateTime.nullish(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
})

/** Body of scanner create. */
export const scannerCreateBody = z.strictObject({
  name,
  description: description.optional(),
  host: targetAddress,
  port: z.number().int().min(1).max(65535).optional(),
  app_type: appType,
})

/** Body of scanner update (the app type has its own operation). */
export const scannerUpdateBody = scannerCreateBody.omit({ app_type: true }).partial()

const g = 'scanners' as const

/** Scanners: CRUD, activation, app type, organization assignment, verification. */
export const scannersOperations = defineGroup([
  defineOperation({
    id: 'scanners.list',
    group: g,
    method: 'GET',
    path: '/v2/scanners',
    query: listQuery({ ...byIdsFilter, app_type: appType.optional() }),
    response: collection(scannerAttributes),
    releases: SINCE_5_3,
    summary: 'List scanners',
    source: 'decided',
    sandbox: { kind: 'list', collection: 'scanners' },
    example: {},
  }),
  defineOperation({
    id: 'scanners.create',
    group: g,
    method: 'POST',
    path: '/v2/scanners',
    body: scannerCreateBody,
    response: single(scannerAttributes),
    releases: SINCE_5_3,
    summary: 'Register a scanner (deactivated and unverified until checked)',
    source: 'decided',
    sandbox: { kind: 'create', collection: 'scanners' },
    example: {
      body: { name: 'DMZ scanner', host: 'scanner-dmz.example.com', app_type: 'internal_scan' },
    },
  }),
  defineOperation({
    id: 'scanners.show',
    group: g,
    method: 'GET',
    path: '/v2/scanners/{id}',
    pathParams: byId,
    response: single(scannerAttributes),
    releases: SINCE_5_3,
    summary: 'Show one scanner',
    source: 'decided',
    sandbox: { kind: 'show', collection: 'scanners' },
    example: { path: { id: 'scr-001' } },
  }),
  defineOperation({
    id: 'scanners.update',
    group: g,
    method: 'PUT',
    path: '/v2/scanners/{id}',
    pathParams: byId,
    body: scannerUpdateBody,
    response: single(scannerAttributes),
    releases: SINCE_5_3,
    summary: 'Update a scanner (a new host or port needs a new verification)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'scr-002' }, body: { description: 'Rack 4, datacenter Frankfurt' } },
  }),
  defineOperation({
    id: 'scanners.delete',
    group: g,
    method: 'DELETE',
    path: '/v2/scanners/{id}',
    pathParams: byId,
    response: deletedResponse,
    releases: SINCE_5_3,
    summary: 'Delete a scanner',
    source: 'decided',
    sandbox: { kind: 'delete', collection: 'scanners' },
    example: { path: { id: 'scr-004' } },
  }),
  defineOperation({
    id: 'scanners.activated',
    group: g,
    method: 'GET',
    path: '/v2/scanners/activated',
    query: plainListQuery,
    response: collection(scannerAttributes),
    releases: SINCE_5_3,
    summary: 'List the activated scanners',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: {},
  }),
  defineOperation({
    id: 'scanners.activate',
    group: g,
    method: 'PUT',
    path: '/v2/scanners/{id}/activate',
    pathParams: byId,
    response: single(scannerAttributes),
    releases: SINCE_5_3,
    summary: 'Activate a scanner',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'scr-003' } },
  }),
  defineOperation({
    id: 'scanners.deactivate',
    group: g,
    method: 'PUT',
    path: '/v2/scanners/{id}/deactivate',
    pathParams: byId,
    response: single(scannerAttributes),
    releases: SINCE_5_3,
    summary: 'Deactivate a scanner',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'scr-002' } },
  }),
  defineOperation({
    id: 'scanners.update_app_type',
    group: g,
    method: 'PUT',
    path: '/v2/scanners/{id}/update_app_type',
    pathParams: byId,
    body: z.strictObject({ app_type: appType }),
    response: single(scannerAttributes),
    releases: SINCE_5_3,
    summary: 'Change the product a scanner serves',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'scr-002' }, body: { app_type: 'pci_scan' } },
  }),
  defineOperation({
    id: 'scanners.assign_organization',
    group: g,
    method: 'PUT',
    path: '/v2/scanners/{id}/assign_organization',
    pathParams: byId,
    body: z.strictObject({ organization_id: idParam }),
    response: single(scannerAttributes),
    releases: SINCE_5_3,
    summary: 'Move a scanner to another organization (administrators only)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'scr-004' }, body: { organization_id: 'org-002' } },
  }),
  defineOperation({
    id: 'scanners.verify',
    group: g,
    method: 'PUT',
    path: '/v2/scanners/{id}/verify',
    pathParams: byId,
    response: single(scannerAttributes),
    releases: SINCE_5_3,
    summary: 'Check that the service can reach and use a scanner',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'scr-001' } },
  }),
])
