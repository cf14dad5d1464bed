import { z } from 'zod'
import { SINCE_5_4 } from '../releases'
import {
  byIdsFilter,
  anyObject,
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
  severity,
  single,
} from '../schemas/common'
import {
  fileFormatQuery,
  generateFileBody,
  generateFileResponse,
  reportFiles,
  reportStatus,
} from './reports'
import { defineGroup, defineOperation } from './types'

/** Kinds of advanced report (decided here). */
export const ADVANCED_REPORT_TYPES = [
  'executive_summary',
  'technical_detail',
  'pci_compliance',
  'trend_analysis',
] as const

/** Sections an advanced report can contain, in the order they are printed (decided here). */
export const ADVANCED_REPORT_SECTIONS = [
  'summary',
  'findings',
  'hosts',
  'remediation',
  'trends',
  'compliance',
] as const

/** A calendar date, YYYY-MM-DD. */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), 'is not a valid date')

/** Filters of an advanced report: severities, targets and a date range (all optional). */
export const advancedReportFilters = z
  .strictObject({
    severity: z.array(severity).min(1).max(5).optional(),
    target_ids: z.array(idParam).min(1).max(200).optional(),
    date_from: isoDate.optional(),
    date_to: isoDate.optional(),
  })
  .refine((f) => !f.date_from || !f.date_to || f.date_from <= f.date_to, {
    message: 'must not be after date_to',
    path: ['date_from'],
  })

const createShape = {
  name,
  description: description.optional(),
  report_type: z.enum(ADVANCED_REPORT_TYPES),
  filters: advancedReportFilters.optional(),
  sections: z
    .array(z.enum(ADVANCED_REPORT_SECTIONS))
    .min(1)
    .max(ADVANCED_REPORT_SECTIONS.length)
    .refine((s) => new Set(s).size === s.length, 'must not repeat a section'),
}

/** Body of advanced report create (decided here). */
export const advancedReportCreateBody = z.strictObject(createShape)

/** Body of advanced report update (decided here): any subset; changing it discards old files. */
export const advancedReportUpdateBody = advancedReportCreateBody.partial()

/** Advanced report attributes (decided here). */
export const advancedReportAttributes = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  report_type: z.string(),
  filters: z
    .looseObject({
      severity: z.array(z.string()).optional(),
      target_ids: z.array(z.string()).optional(),
      date_from: z.string().nullish(),
      date_to: z.string().nullish(),
    })
    .nullish(),
  sections: z.array(z.string()),
  status: z.string(),
  findings_count: z.number().int().nullish(),
  files: reportFiles.optional(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
})

const g = 'advanced_reports' as const

/** Advanced reports: list, create, show, update, delete (single and bulk); generate and download. */
export const advancedReportsOperations = defineGroup([
  defineOperation({
    id: 'advanced_reports.list',
    group: g,
    method: 'GET',
    path: '/v2/advanced_reports',
    query: listQuery({
      ...byIdsFilter,
      report_type: z.enum(ADVANCED_REPORT_TYPES).optional(),
      status: reportStatus.optional(),
    }),
    response: collection(advancedReportAttributes),
    releases: SINCE_5_4,
    summary: 'List advanced reports',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { query: { report_type: 'executive_summary' } },
  }),
  defineOperation({
    id: 'advanced_reports.create',
    group: g,
    method: 'POST',
    path: '/v2/advanced_reports',
    body: advancedReportCreateBody,
    response: single(advancedReportAttributes),
    releases: SINCE_5_4,
    successStatus: 201,
    summary: 'Create an advanced report (type, filters and sections)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: {
      body: {
        name: 'Critical and high findings, last quarter',
        report_type: 'technical_detail',
        filters: { severity: ['critical', 'high'], date_from: '2025-01-01' },
        sections: ['summary', 'findings', 'remediation'],
      },
    },
  }),
  defineOperation({
    id: 'advanced_reports.show',
    group: g,
    method: 'GET',
    path: '/v2/advanced_reports/{id}',
    pathParams: byId,
    response: single(advancedReportAttributes),
    releases: SINCE_5_4,
    summary: 'Show one advanced report with the state of its files',
    source: 'decided',
    sandbox: { kind: 'show', collection: 'advanced_reports' },
    example: { path: { id: 'adr-001' } },
  }),
  defineOperation({
    id: 'advanced_reports.update',
    group: g,
    method: 'PUT',
    path: '/v2/advanced_reports/{id}',
    pathParams: byId,
    body: advancedReportUpdateBody,
    response: single(advancedReportAttributes),
    releases: SINCE_5_4,
    summary: 'Update an advanced report (its generated files are discarded)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'adr-002' }, body: { name: 'Monthly technical detail (renamed)' } },
  }),
  defineOperation({
    id: 'advanced_reports.delete',
    group: g,
    method: 'DELETE',
    path: '/v2/advanced_reports/{id}',
    pathParams: byId,
    response: deletedResponse,
    releases: SINCE_5_4,
    summary: 'Delete an advanced report',
    source: 'decided',
    sandbox: { kind: 'delete', collection: 'advanced_reports' },
    example: { path: { id: 'adr-005' } },
  }),
  defineOperation({
    id: 'advanced_reports.bulk_delete',
    group: g,
    method: 'POST',
    path: '/v2/advanced_reports/bulk_delete',
    body: bulkIdsBody,
    response: bulkDeleteResponse,
    releases: SINCE_5_4,
    idempotent: true,
    summary: 'Delete several advanced reports',
    source: 'decided',
    sandbox: { kind: 'bulk_delete', collection: 'advanced_reports' },
    example: { body: { ids: ['adr-006'] } },
  }),
  defineOperation({
    id: 'advanced_reports.generate',
    group: g,
    method: 'PUT',
    path: '/v2/advanced_reports/{id}/generate',
    pathParams: byId,
    body: generateFileBody,
    response: generateFileResponse,
    releases: SINCE_5_4,
    idempotent: false,
    successStatus: 202,
    summary: 'Start generating the advanced report file in a format (PDF or CSV)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'adr-003' }, body: { format: 'csv' } },
  }),
  defineOperation({
    id: 'advanced_reports.download',
    group: g,
    method: 'GET',
    path: '/v2/advanced_reports/{id}/download',
    pathParams: byId,
    query: fileFormatQuery,
    response: anyObject,
    responseKind: 'file',
    releases: SINCE_5_4,
    offline: 'online-only',
    summary: 'Download the generated advanced report file (404 until it is generated)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'adr-001' }, query: { format: 'pdf' } },
  }),
])
