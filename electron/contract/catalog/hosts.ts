import { z } from 'zod'
import { ALL_RELEASES } from '../releases'
import {
  byIdsFilter,
  byId,
  collection,
  dateTime,
  idParam,
  listQuery,
  severity,
  single,
} from '../schemas/common'
import { defineGroup, defineOperation } from './types'

/** Counts of findings per severity (decided here); used by scans, hosts and widgets. */
export const severityCounts = z.looseObject({
  critical: z.number().int(),
  high: z.number().int(),
  medium: z.number().int(),
  low: z.number().int(),
  info: z.number().int(),
})

/** One open service found on a host (decided here). */
export const hostService = z.looseObject({
  port: z.number().int(),
  protocol: z.string(),
  service: z.string().nullish(),
})

/** Host attributes (decided here): one host found by one scan. */
export const hostAttributes = z.looseObject({
  ip: z.string(),
  hostname: z.string().nullish(),
  os: z.string().nullish(),
  open_ports: z.array(z.number().int()),
  services: z.array(hostService).optional(),
  vulnerabilities_count: z.number().int(),
  severity_counts: severityCounts.optional(),
  /** Highest severity among the host's findings; null when it has none. */
  max_severity: severity.nullish(),
  /** 0–100, higher is worse (decided here: weighted sum of the findings' CVSS scores). */
  risk_score: z.number().min(0).max(100),
  scan_id: z.string().nullish(),
  target_id: z.string().nullish(),
  first_seen_at: dateTime.nullish(),
  last_seen_at: dateTime.nullish(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
})

/** Query of the hosts list: list parameters plus scan, target and severity filters. */
export const hostListQuery = listQuery({
  ...byIdsFilter,
  scan_id: idParam.optional(),
  target_id: idParam.optional(),
  max_severity: severity.optional(),
})

const g = 'hosts' as const
const hosts = { kind: 'list', collection: 'hosts' } as const

/** Hosts: list, details, most vulnerable. */
export const hostsOperations = defineGroup([
  defineOperation({
    id: 'hosts.list',
    group: g,
    method: 'GET',
    path: '/v2/hosts',
    query: hostListQuery,
    response: collection(hostAttributes),
    releases: ALL_RELEASES,
    summary: 'List hosts found by scans',
    source: 'decided',
    sandbox: hosts,
    example: { query: { scan_id: 'scn-001' } },
  }),
  defineOperation({
    id: 'hosts.details',
    group: g,
    method: 'GET',
    path: '/v2/hosts/{id}',
    pathParams: byId,
    response: single(hostAttributes),
    releases: ALL_RELEASES,
    summary: "Show one host with its services and findings' severities",
    source: 'decided',
    sandbox: { kind: 'show', collection: 'hosts' },
    example: { path: { id: 'hst-001' } },
  }),
  defineOperation({
    id: 'hosts.most_vulnerable',
    group: g,
    method: 'GET',
    path: '/v2/hosts/most_vulnerable',
    query: z.strictObject({ limit: z.coerce.number().int().min(1).max(100).optional() }),
    response: collection(hostAttributes),
    releases: ALL_RELEASES,
    summary: 'List the hosts with the highest risk score (default 10)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { query: { limit: 5 } },
  }),
])
