import { z } from 'zod'
import { ALL_RELEASES } from '../releases'
import {
  byIdsFilter,
  anyObject,
  bulkDeleteResponse,
  bulkIdsBody,
  byId,
  collection,
  dateTime,
  deletedResponse,
  idParam,
  listQuery,
  single,
} from '../schemas/common'
import { defineGroup, defineOperation } from './types'

/** File formats a report (and an advanced report) can be generated in (decided here). */
export const REPORT_FORMATS = ['pdf', 'csv'] as const

/** One report file format. */
export const reportFormat = z.enum(REPORT_FORMATS)

/** A SHA-256 digest as 64 lowercase hexadecimal characters (decided here). */
export const sha256Hex = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hexadecimal characters')

/** State of one generated file: 'generating' until the service has built it, then 'ready'. */
export const reportFileInfo = z.looseObject({
  status: z.enum(['generating', 'ready', 'failed']),
  size: z.number().int().nonnegative().optional(),
  sha256: z.string().optional(),
  requested_at: dateTime.nullish(),
  generated_at: dateTime.nullish(),
})

/** The files of a report, per format; a format is absent until it was first generated. */
export const reportFiles = z.looseObject({
  pdf: reportFileInfo.optional(),
  csv: reportFileInfo.optional(),
})

/** Overall report state (decided here): pending (no file yet), generating, ready or failed. */
export const reportStatus = z.enum(['pending', 'generating', 'ready', 'failed'])

/** Report attributes (decided here): a report built from one scan's findings. */
export const reportAttributes = z.looseObject({
  name: z.string(),
  report_type: z.string(),
  scan_id: z.string().nullish(),
  target_id: z.string().nullish(),
  status: z.string(),
  findings_count: z.number().int().optional(),
  files: reportFiles.optional(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
})

/** Query naming the file format of a download or existence check. */
export const fileFormatQuery = z.strictObject({ format: reportFormat })

/** Body of a generate request: the format to build. */
export const generateFileBody = z.strictObject({ format: reportFormat })

/**
 * Answer of a generate request (decided here; always 202 Accepted): 'generating' while the service
 * builds the file, 'ready' when the current file already exists and nothing had to be done.
 */
export const generateFileResponse = z.looseObject({
  data: z.looseObject({
    id: z.string(),
    format: reportFormat,
    status: z.enum(['generating', 'ready']),
  }),
})

/** Answer of the file existence check (decided here). */
export const fileExistsResponse = z.looseObject({
  data: z.looseObject({
    exists: z.boolean(),
    format: reportFormat,
    status: z.enum(['not_generated', 'generating', 'ready', 'failed']),
    size: z.number().int().nonnegative().optional(),
    sha256: z.string().optional(),
    generated_at: dateTime.nullish(),
  }),
})

/** Body of the hash comparison: the format and the SHA-256 the client computed. */
export const verifyHashBody = z.strictObject({ format: reportFormat, sha256: sha256Hex })

/**
 * Answer of the hash comparison (decided here). `expected_sha256` is revealed because the same
 * digest is already part of the report's attributes (`files.<format>.sha256`); the client decides
 * on `match` alone.
 */
export const verifyHashResponse = z.looseObject({
  data: z.looseObject({
    match: z.boolean(),
    format: reportFormat,
    sha256: z.string(),
    expected_sha256: z.string().optional(),
    verified_at: dateTime.optional(),
  }),
})

/** Query of the reports list: list parameters plus scan, status and type filters. */
export const reportListQuery = listQuery({
  ...byIdsFilter,
  scan_id: idParam.optional(),
  status: reportStatus.optional(),
  report_type: z
    .string()
    .regex(/^[a-z_]{1,40}$/)
    .optional(),
})

const g = 'reports' as const

/** Reports: list, show, delete (single and bulk); generate, download, check and verify files. */
export const reportsOperations = defineGroup([
  defineOperation({
    id: 'reports.list',
    group: g,
    method: 'GET',
    path: '/v2/reports',
    query: reportListQuery,
    response: collection(reportAttributes),
    releases: ALL_RELEASES,
    summary: 'List reports',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { query: { status: 'ready', per_page: 10 } },
  }),
  defineOperation({
    id: 'reports.show',
    group: g,
    method: 'GET',
    path: '/v2/reports/{id}',
    pathParams: byId,
    response: single(reportAttributes),
    releases: ALL_RELEASES,
    summary: 'Show one report with the state of its files',
    source: 'decided',
    sandbox: { kind: 'show', collection: 'reports' },
    example: { path: { id: 'rpt-001' } },
  }),
  defineOperation({
    id: 'reports.delete',
    group: g,
    method: 'DELETE',
    path: '/v2/reports/{id}',
    pathParams: byId,
    response: deletedResponse,
    releases: ALL_RELEASES,
    summary: 'Delete a report and its files',
    source: 'decided',
    sandbox: { kind: 'delete', collection: 'reports' },
    example: { path: { id: 'rpt-014' } },
  }),
  defineOperation({
    id: 'reports.bulk_delete',
    group: g,
    method: 'POST',
    path: '/v2/reports/bulk_delete',
    body: bulkIdsBody,
    response: bulkDeleteResponse,
    releases: ALL_RELEASES,
    idempotent: true,
    summary: 'Delete several reports',
    source: 'decided',
    sandbox: { kind: 'bulk_delete', collection: 'reports' },
    example: { body: { ids: ['rpt-015', 'rpt-016'] } },
  }),
  defineOperation({
    id: 'reports.generate',
    group: g,
    method: 'PUT',
    path: '/v2/reports/{id}/generate',
    pathParams: byId,
    body: generateFileBody,
    response: generateFileResponse,
    releases: ALL_RELEASES,
    idempotent: false,
    successStatus: 202,
    summary: 'Start generating the report file in a format (PDF or CSV)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'rpt-011' }, body: { format: 'pdf' } },
  }),
  defineOperation({
    id: 'reports.download',
    group: g,
    method: 'GET',
    path: '/v2/reports/{id}/download',
    pathParams: byId,
    query: fileFormatQuery,
    response: anyObject,
    responseKind: 'file',
    releases: ALL_RELEASES,
    offline: 'online-only',
    summary: 'Download the generated report file (404 until it is generated)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'rpt-001' }, query: { format: 'pdf' } },
  }),
  defineOperation({
    id: 'reports.file_exists',
    group: g,
    method: 'GET',
    path: '/v2/reports/{id}/file_exists',
    pathParams: byId,
    query: fileFormatQuery,
    response: fileExistsResponse,
    releases: ALL_RELEASES,
    offline: 'online-only',
    summary: 'Check whether the report file exists in a format, with its size and SHA-256',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'rpt-001' }, query: { format: 'csv' } },
  }),
  defineOperation({
    id: 'reports.verify_hash',
    group: g,
    method: 'POST',
    path: '/v2/reports/{id}/verify_hash',
    pathParams: byId,
    body: verifyHashBody,
    response: verifyHashResponse,
    releases: ALL_RELEASES,
    idempotent: true,
    summary: "Compare a file's SHA-256 with the service's digest of the report file",
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: {
      path: { id: 'rpt-001' },
      body: {
        format: 'pdf',
        sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      },
    },
  }),
])
