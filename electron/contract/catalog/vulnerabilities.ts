import { z } from 'zod'
import { ALL_RELEASES, SINCE_5_5 } from '../releases'
import {
  byIdsFilter,
  byId,
  collection,
  dateTime,
  idParam,
  listQuery,
  plainListQuery,
  severity,
  single,
} from '../schemas/common'
import { dateOrDateTime } from './audit'
import { defineGroup, defineOperation } from './types'

/** A CVE identifier such as CVE-2023-48795. */
export const cveId = z.string().regex(/^CVE-\d{4}-\d{4,7}$/)

/** Vulnerability attributes (vulnerabilityData; fields decided here): one finding on one host. */
export const vulnerabilityAttributes = z.looseObject({
  title: z.string(),
  severity,
  cvss_score: z.number().min(0).max(10),
  cvss_vector: z.string().nullish(),
  cve_ids: z.array(z.string()),
  pci_compliant: z.boolean(),
  host_id: z.string(),
  scan_id: z.string(),
  host_ip: z.string().nullish(),
  port: z.number().int().nullish(),
  protocol: z.string().nullish(),
  solution: z.string().nullish(),
  description: z.string().nullish(),
  first_seen_at: dateTime,
  last_seen_at: dateTime,
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
})

/** Query of the vulnerabilities list: list parameters plus the analyst's filters. */
/** A CVSS bound of the list's range filter (decided here): a score from 0 to 10. */
const cvssBound = z.coerce.number().min(0, 'must be 0 or more').max(10, 'must be 10 or less')

export const vulnerabilityListQuery = listQuery({
  ...byIdsFilter,
  severity: severity.optional(),
  /** Lowest CVSS score shown (inclusive). */
  cvss_score_min: cvssBound.optional(),
  /** Highest CVSS score shown (inclusive). */
  cvss_score_max: cvssBound.optional(),
  pci_compliant: z.enum(['true', 'false']).optional(),
  scan_id: idParam.optional(),
  host_id: idParam.optional(),
  /** Only vulnerabilities with this CVE identifier. */
  cve_id: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^CVE-\d{4}-\d{4,7}$/, 'must be a CVE identifier like CVE-2024-12345')
    .optional(),
  /**
   * First seen strictly before this instant (decided here; a bare date is its start, UTC): with
   * `first_seen_after`, the range ScanDesk's overdue and due-soon filters ask for.
   */
  first_seen_before: dateOrDateTime.optional(),
  /** First seen at or after this instant (decided here; a bare date is its start, UTC). */
  first_seen_after: dateOrDateTime.optional(),
})

/** Widget filters (decided here): restrict the counts to one scan or one host. */
const widgetQuery = z.strictObject({ scan_id: idParam.optional(), host_id: idParam.optional() })

/** Answer of the total widget: counts by severity and their sum. */
export const totalWidgetResponse = z.looseObject({
  data: z.looseObject({
    total: z.number().int(),
    critical: z.number().int(),
    high: z.number().int(),
    medium: z.number().int(),
    low: z.number().int(),
    info: z.number().int(),
  }),
})

/** Answer of the PCI-compliant widget: findings that pass and fail PCI DSS, and the verdict. */
export const pciWidgetResponse = z.looseObject({
  data: z.looseObject({
    pass: z.number().int(),
    fail: z.number().int(),
    total: z.number().int(),
    /** True when no finding fails PCI DSS. */
    compliant: z.boolean(),
  }),
})

/** One question about a vulnerability and the service's answer (decided here). */
export const chatMessageAttributes = z.looseObject({
  vulnerability_id: z.string(),
  question: z.string(),
  answer: z.string(),
  user_id: z.string().nullish(),
  created_at: dateTime,
})

/** Body of a prompt: the question to ask about the vulnerability. */
export const promptBody = z.strictObject({
  question: z.string().trim().min(1, 'is required').max(2000),
})

const g = 'vulnerabilities' as const
const vulns = { kind: 'list', collection: 'vulnerabilities' } as const

/** Vulnerabilities: list, details, dashboard widgets, prompt and chat history. */
export const vulnerabilitiesOperations = defineGroup([
  defineOperation({
    id: 'vulnerabilities.list',
    group: g,
    method: 'GET',
    path: '/v2/vulnerabilities',
    query: vulnerabilityListQuery,
    response: collection(vulnerabilityAttributes),
    releases: ALL_RELEASES,
    summary:
      'List vulnerabilities, filtered by severity, CVSS range, PCI status, scan, host, CVE, first-seen range or text',
    source: 'decided',
    sandbox: vulns,
    example: { query: { severity: 'high', per_page: 50 } },
  }),
  defineOperation({
    id: 'vulnerabilities.details',
    group: g,
    method: 'GET',
    path: '/v2/vulnerabilities/{id}',
    pathParams: byId,
    response: single(vulnerabilityAttributes),
    releases: ALL_RELEASES,
    summary: 'Show one vulnerability',
    source: 'decided',
    sandbox: { kind: 'show', collection: 'vulnerabilities' },
    example: { path: { id: 'vul-001' } },
  }),
  defineOperation({
    id: 'vulnerabilities.total_widget',
    group: g,
    method: 'GET',
    path: '/v2/vulnerabilities/total_widget',
    query: widgetQuery,
    response: totalWidgetResponse,
    releases: ALL_RELEASES,
    summary: 'Dashboard widget: number of vulnerabilities by severity',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: {},
  }),
  defineOperation({
    id: 'vulnerabilities.top_widget',
    group: g,
    method: 'GET',
    path: '/v2/vulnerabilities/top_widget',
    query: z.strictObject({
      limit: z.coerce.number().int().min(1).max(100).optional(),
      scan_id: idParam.optional(),
    }),
    response: collection(vulnerabilityAttributes),
    releases: ALL_RELEASES,
    summary: 'Dashboard widget: the vulnerabilities with the highest CVSS score (default 10)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { query: { limit: 5 } },
  }),
  defineOperation({
    id: 'vulnerabilities.pci_compliant_widget',
    group: g,
    method: 'GET',
    path: '/v2/vulnerabilities/pci_compliant_widget',
    query: widgetQuery,
    response: pciWidgetResponse,
    releases: ALL_RELEASES,
    summary: 'Dashboard widget: vulnerabilities that pass and fail PCI DSS',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { query: { scan_id: 'scn-001' } },
  }),
  defineOperation({
    id: 'vulnerabilities.prompt',
    group: g,
    method: 'POST',
    path: '/v2/vulnerabilities/{id}/prompt',
    pathParams: byId,
    body: promptBody,
    response: single(chatMessageAttributes),
    releases: SINCE_5_5,
    summary: 'Ask a question about a vulnerability and get an analysis',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'vul-001' }, body: { question: 'How do I fix this?' } },
  }),
  defineOperation({
    id: 'vulnerabilities.chat_history',
    group: g,
    method: 'GET',
    path: '/v2/vulnerabilities/{id}/chat_history',
    pathParams: byId,
    query: plainListQuery,
    response: collection(chatMessageAttributes),
    releases: SINCE_5_5,
    summary: 'List the questions asked about a vulnerability and their answers, oldest first',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'vul-001' } },
  }),
])
