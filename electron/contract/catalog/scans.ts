import { z } from 'zod'
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
  idParam,
  listQuery,
  name,
  plainListQuery,
  severity,
  single,
} from '../schemas/common'
import { hostAttributes, severityCounts } from './hosts'
import { scheduleRule, timeZone } from './schedules'
import { targetAddress } from './targets'
import { defineGroup, defineOperation } from './types'
import { vulnerabilityAttributes } from './vulnerabilities'

/**
 * States of a scan (decided here). start: queued/scheduled/stopped/failed/completed → running;
 * stop: running → stopped; a finished run → completed (or failed); any other move answers 409.
 */
export const scanStatus = z.enum([
  'queued',
  'scheduled',
  'running',
  'stopping',
  'stopped',
  'completed',
  'failed',
])

/** One scan state. */
export type ScanStatus = z.infer<typeof scanStatus>

/** States a scan may be started from. */
export const STARTABLE_SCAN_STATES: readonly ScanStatus[] = [
  'queued',
  'scheduled',
  'stopped',
  'failed',
  'completed',
]

/** Code of a scan profile such as `full_and_fast` (decided here). */
export const scanProfileCode = z
  .string()
  .regex(/^[a-z0-9_]{1,64}$/, 'must be a scan profile code such as full_and_fast')

/** Scan attributes (fields decided here; the interface names the schema only). */
export const scanAttributes = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  status: scanStatus,
  /** 0–100. */
  progress: z.number().int().min(0).max(100),
  target_ids: z.array(z.string()),
  scan_profile: z.string(),
  scanner_id: z.string().nullish(),
  port_list_id: z.string().nullish(),
  credential_ids: z.array(z.string()).optional(),
  schedule_id: z.string().nullish(),
  started_at: dateTime.nullish(),
  finished_at: dateTime.nullish(),
  schedule_next_time: dateTime.nullish(),
  in_timezone: z.string().nullish(),
  hosts_count: z.number().int(),
  vulnerabilities_count: z.number().int(),
  severity_counts: severityCounts,
  failure_reason: z.string().nullish(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
})

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

/** One past run of a scan (decided here). */
export const scanRunAttributes = z.looseObject({
  scan_id: z.string(),
  status: scanStatus,
  started_at: dateTime,
  finished_at: dateTime.nullish(),
  duration_seconds: z.number().int().nullish(),
  hosts_count: z.number().int(),
  vulnerabilities_count: z.number().int(),
  severity_counts: severityCounts,
})

/** A scan profile: which checks a scan runs (decided here). */
export const scanProfileAttributes = z.looseObject({
  name: z.string(),
  code: z.string(),
  description: z.string().nullish(),
  activated: z.boolean(),
  checks_count: z.number().int().optional(),
})

/** Answer of scan statistics (decided here). */
export const scanStatisticsResponse = z.looseObject({
  data: z.looseObject({
    scan_id: z.string(),
    status: scanStatus,
    hosts_count: z.number().int(),
    vulnerabilities_count: z.number().int(),
    severity_counts: severityCounts,
    duration_seconds: z.number().int().nullable(),
    runs_count: z.number().int(),
    pci_compliant: z.boolean(),
  }),
})

const scanSettings = {
  target_ids: z.array(idParam).min(1, 'choose at least one target').max(100),
  scan_profile: scanProfileCode,
  scanner_id: idParam.nullish(),
  port_list_id: idParam.nullish(),
  credential_ids: z.array(idParam).max(20).optional(),
  schedule_id: idParam.nullish(),
  in_timezone: timeZone.optional(),
}

/** Body of scan create (decided here): with a schedule_id the scan is scheduled, else queued. */
export const scanCreateBody = z.strictObject({
  name,
  description: description.optional(),
  ...scanSettings,
})

/** Body of scan update: any subset of the create fields. */
export const scanUpdateBody = scanCreateBody.partial()

/**
 * Body of the scan wizard (decided here): existing targets and/or new addresses, a scan profile,
 * and optionally a repetition rule (creates a schedule) and an immediate start.
 */
export const scanWizardBody = z
  .strictObject({
    name,
    description: description.optional(),
    target_ids: z.array(idParam).max(100).optional(),
    new_targets: z
      .array(z.strictObject({ name: name.optional(), address: targetAddress }))
      .max(100)
      .optional(),
    scan_profile: scanProfileCode,
    scanner_id: idParam.optional(),
    port_list_id: idParam.optional(),
    credential_ids: z.array(idParam).max(20).optional(),
    schedule: scheduleRule.optional(),
    start_now: z.boolean().optional(),
  })
  .refine((b) => (b.target_ids?.length ?? 0) + (b.new_targets?.length ?? 0) > 0, {
    message: 'choose at least one target or add an address',
    path: ['target_ids'],
  })

const g = 'scans' as const
const scans = { kind: 'list', collection: 'scans' } as const
const limitQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(1000).optional() })

/** Scans: CRUD, start/stop, dashboards, wizard, per-scan results and scan profiles. */
export const scanOperations = defineGroup([
  defineOperation({
    id: 'scans.list',
    group: g,
    method: 'GET',
    path: '/v2/scans',
    query: listQuery({
      ...byIdsFilter,
      status: scanStatus.optional(),
      target_id: idParam.optional(),
    }),
    response: collection(scanAttributes),
    releases: ALL_RELEASES,
    summary: 'List scans, optionally by status or target',
    source: 'decided',
    sandbox: scans,
    example: { query: { status: 'completed' } },
  }),
  defineOperation({
    id: 'scans.create',
    group: g,
    method: 'POST',
    path: '/v2/scans',
    body: scanCreateBody,
    response: single(scanAttributes),
    releases: ALL_RELEASES,
    summary: 'Create a scan (queued, or scheduled when it has a schedule)',
    source: 'decided',
    successStatus: 201,
    sandbox: { kind: 'custom' },
    example: {
      body: { name: 'Perimeter check', target_ids: ['tgt-001'], scan_profile: 'full_and_fast' },
    },
  }),
  defineOperation({
    id: 'scans.show',
    group: g,
    method: 'GET',
    path: '/v2/scans/{id}',
    pathParams: byId,
    response: single(scanAttributes),
    releases: ALL_RELEASES,
    summary: 'Show one scan with its state and progress',
    source: 'decided',
    sandbox: { kind: 'show', collection: 'scans' },
    example: { path: { id: 'scn-001' } },
  }),
  defineOperation({
    id: 'scans.update',
    group: g,
    method: 'PUT',
    path: '/v2/scans/{id}',
    pathParams: byId,
    body: scanUpdateBody,
    response: single(scanAttributes),
    releases: ALL_RELEASES,
    summary: 'Update a scan (settings only while it is not running)',
    source: 'decided',
    errors: [401, 403, 404, 409, 422],
    sandbox: { kind: 'custom' },
    example: { path: { id: 'scn-001' }, body: { description: 'Quarterly external scan' } },
  }),
  defineOperation({
    id: 'scans.delete',
    group: g,
    method: 'DELETE',
    path: '/v2/scans/{id}',
    pathParams: byId,
    response: deletedResponse,
    releases: ALL_RELEASES,
    summary: 'Delete a scan with its results (not while it runs)',
    source: 'decided',
    errors: [401, 403, 404, 409],
    sandbox: { kind: 'custom' },
    example: { path: { id: 'scn-027' } },
  }),
  defineOperation({
    id: 'scans.bulk_delete',
    group: g,
    method: 'POST',
    path: '/v2/scans/bulk_delete',
    body: bulkIdsBody,
    response: bulkDeleteResponse,
    releases: ALL_RELEASES,
    idempotent: true,
    summary: 'Delete several scans with their results (none of them may be running)',
    source: 'decided',
    errors: [401, 403, 409, 422],
    sandbox: { kind: 'custom' },
    example: { body: { ids: ['scn-027', 'scn-028'] } },
  }),
  defineOperation({
    id: 'scans.start',
    group: g,
    method: 'PUT',
    path: '/v2/scans/{id}/start',
    pathParams: byId,
    response: single(scanAttributes),
    releases: ALL_RELEASES,
    idempotent: false,
    summary: 'Start a scan (from queued, scheduled, stopped, failed or completed)',
    source: 'decided',
    errors: [401, 403, 404, 409],
    sandbox: { kind: 'custom' },
    example: { path: { id: 'scn-017' } },
  }),
  defineOperation({
    id: 'scans.stop',
    group: g,
    method: 'PUT',
    path: '/v2/scans/{id}/stop',
    pathParams: byId,
    response: single(scanAttributes),
    releases: ALL_RELEASES,
    idempotent: false,
    summary: 'Stop a running scan',
    source: 'decided',
    errors: [401, 403, 404, 409],
    sandbox: { kind: 'custom' },
    example: { path: { id: 'scn-016' } },
  }),
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
    example: { query: { limit: 5 } },
  }),
  defineOperation({
    id: 'scans.recently_completed',
    group: g,
    method: 'GET',
    path: '/v2/scans/recently_completed',
    query: limitQuery,
    response: collection(scanAttributes),
    releases: ALL_RELEASES,
    summary: 'List completed scans, newest first (default 10)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { query: { limit: 5 } },
  }),
  defineOperation({
    id: 'scans.running',
    group: g,
    method: 'GET',
    path: '/v2/scans/running',
    response: collection(scanAttributes),
    releases: ALL_RELEASES,
    summary: 'List running (and stopping) scans with their progress',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: {},
  }),
  defineOperation({
    id: 'scans.create_from_wizard',
    group: g,
    method: 'POST',
    path: '/v2/scans/wizard',
    body: scanWizardBody,
    response: single(scanAttributes),
    releases: ALL_RELEASES,
    summary: 'Create targets, a schedule and a scan in one step',
    source: 'decided',
    successStatus: 201,
    sandbox: { kind: 'custom' },
    example: {
      body: {
        name: 'New office network',
        target_ids: ['tgt-002'],
        new_targets: [{ name: 'Office gateway', address: '198.51.100.7' }],
        scan_profile: 'full_and_fast',
        schedule: { frequency: 'weekly', start_at: '2030-01-07T02:00', time_zone: 'Europe/Berlin' },
      },
    },
  }),
  defineOperation({
    id: 'scans.history',
    group: g,
    method: 'GET',
    path: '/v2/scans/{id}/history',
    pathParams: byId,
    query: plainListQuery,
    response: collection(scanRunAttributes),
    releases: ALL_RELEASES,
    summary: 'List the past runs of a scan, newest first',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'scn-001' } },
  }),
  defineOperation({
    id: 'scans.hosts',
    group: g,
    method: 'GET',
    path: '/v2/scans/{id}/hosts',
    pathParams: byId,
    query: plainListQuery,
    response: collection(hostAttributes),
    releases: ALL_RELEASES,
    summary: 'List the hosts a scan found',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'scn-001' } },
  }),
  defineOperation({
    id: 'scans.vulnerabilities',
    group: g,
    method: 'GET',
    path: '/v2/scans/{id}/vulnerabilities',
    pathParams: byId,
    query: listQuery({ severity: severity.optional() }),
    response: collection(vulnerabilityAttributes),
    releases: ALL_RELEASES,
    summary: 'List the vulnerabilities a scan found',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'scn-001' } },
  }),
  defineOperation({
    id: 'scans.vulnerability_details',
    group: g,
    method: 'GET',
    path: '/v2/scans/{id}/vulnerabilities/{vulnerability_id}',
    pathParams: z.strictObject({ id: idParam, vulnerability_id: idParam }),
    response: single(vulnerabilityAttributes),
    releases: ALL_RELEASES,
    summary: 'Show one vulnerability found by a scan',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'scn-001', vulnerability_id: 'vul-001' } },
  }),
  defineOperation({
    id: 'scans.statistics',
    group: g,
    method: 'GET',
    path: '/v2/scans/{id}/statistics',
    pathParams: byId,
    response: scanStatisticsResponse,
    releases: ALL_RELEASES,
    summary: 'Severity counts, hosts and duration of a scan',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'scn-001' } },
  }),
  defineOperation({
    id: 'scans.scan_profiles',
    group: g,
    method: 'GET',
    path: '/v2/scans/scan_profiles',
    query: plainListQuery,
    response: collection(scanProfileAttributes),
    releases: LATEST_ONLY,
    summary: 'List the activated scan profiles',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: {},
  }),
])
