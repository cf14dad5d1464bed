import { z } from 'zod'
import { SINCE_5_4 } from '../releases'
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
import {
  requirementNumber,
  SAQ_COMPLIANCE,
  saqAnswers,
  saqAttestation,
  saqExecutiveSummary,
} from '../saq'
import { queryFlag } from './notifications'
import { defineGroup, defineOperation } from './types'

/*
 * How answers travel (decided here; the interface names no "update answers" operation):
 * - `saq.create` takes the draft's answers (and may start from an SAQ set as a template); the
 *   client drafts offline (the draft on this computer is what waits) and submits online only: the
 *   create answers the SAQ id the draft and its evidence move to, so it is not an outbox write;
 * - `saq.clone` copies an SAQ into a new draft and applies the answers it is given on top (how a
 *   submitted or approved SAQ is revised);
 * - `saq.approve` takes the final answers and the attestation (signer, title, date), merges the
 *   answers and approves only when every required requirement is answered and every answer has
 *   what it needs (else 422 listing the requirement numbers, nothing saved).
 * The answer vocabulary and its rules live in ../saq.ts (shared by the client and the sandbox).
 * One operation serves both "get as JSON" and "download as PDF": `GET /v2/saq/{id}` with
 * `format=json` (default; this entry's JSON answer) or `format=pdf` (PDF bytes). The client's file
 * path (electron/core/files) downloads the PDF through this same entry with `SAQ_PDF_QUERY`.
 */

/** One stored answer as the service sends it (read tolerantly; the rules are `saqAnswer`'s). */
export const saqAnswerAttributes = z.looseObject({
  requirement: z.string(),
  response: z.string(),
  explanation: z.string().nullish(),
  ccw: z.record(z.string(), z.string().nullish()).nullish(),
  action_plan: z.looseObject({}).nullish(),
  legal_exception: z.boolean().nullish(),
  answered_at: dateTime.nullish(),
})

/** SAQ attributes (decided here). */
export const saqAttributes = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  saq_type: z.string(),
  saq_type_id: z.string().nullish(),
  status: z.enum(['draft', 'approved']),
  is_template: z.boolean(),
  template_version: z.string().nullish(),
  organization_name: z.string().nullish(),
  answers: z.array(saqAnswerAttributes).optional(),
  executive_summary: z.looseObject({}).nullish(),
  attestation: z.looseObject({}).nullish(),
  progress: z.looseObject({ answered: z.number().int(), required: z.number().int() }).optional(),
  compliance: z.enum(SAQ_COMPLIANCE).nullish(),
  approved_at: dateTime.nullish(),
  approved_by: z.string().nullish(),
  approval_note: z.string().nullish(),
  /** The evidence files the approval listed (see saqEvidenceFile). */
  evidence: z.array(z.looseObject({ requirement: z.string(), name: z.string() })).nullish(),
  cloned_from: z.string().nullish(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
})

/** SAQ type attributes (decided here): a questionnaire kind such as A, A-EP or D-Merchant. */
export const saqTypeAttributes = z.looseObject({
  code: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  applies_to: z.string().nullish(),
  /** Every requirement of the type's template, optional ones included. */
  requirements_count: z.number().int(),
  /** How many of them are optional (decided here; a service that omits it is said as a total). */
  optional_requirements_count: z.number().int().nullish(),
  template_version: z.string().nullish(),
  /** Short checklist: a merchant fits the type when every line is true. */
  eligibility: z.array(z.string()).optional(),
})

/** One requirement of a template. */
export const saqTemplateRequirement = z.looseObject({
  number: z.string(),
  title: z.string().min(1),
  required: z.boolean(),
  testing_methods: z.array(z.string()).optional(),
  guidance: z.string().nullish(),
})

/** Template of an SAQ type: numbered sections of numbered requirements. */
export const saqTemplateAttributes = saqTypeAttributes.extend({
  /** Answer choices this template offers (see `offeredResponses`). */
  responses: z.array(z.string()).optional(),
  sections: z.array(
    z.looseObject({
      number: z.string(),
      title: z.string().min(1),
      requirements: z.array(saqTemplateRequirement),
    }),
  ),
})

/** Query of the SAQ get: `json` (default) answers JSON, `pdf` answers the PDF file. */
export const saqShowQuery = z.strictObject({ format: z.enum(['json', 'pdf']).optional() })

/** Query to send with `saq.show` to download the PDF through the file path. */
export const SAQ_PDF_QUERY = { format: 'pdf' } as const

/** Body of SAQ create (decided here). `saq_type` is a type's code (e.g. "A-EP") or id. */
export const saqCreateBody = z.strictObject({
  saq_type: z.string().trim().min(1, 'is required').max(40),
  name,
  description: description.optional(),
  template_id: idParam.optional(),
  /** The template version the answers were given against (refused when it is not the type's). */
  template_version: z.string().trim().max(40).optional(),
  answers: saqAnswers.optional(),
  executive_summary: saqExecutiveSummary.optional(),
})

/** Body of SAQ clone (decided here): a new name and answers to apply to the copy. */
export const saqCloneBody = z.strictObject({
  name: name.optional(),
  answers: saqAnswers.optional(),
  executive_summary: saqExecutiveSummary.optional(),
})

/**
 * Where an evidence file came from (decided here): the operation and record or query ScanDesk made
 * it from; absent for a file the assessor attached by hand.
 */
export const saqEvidenceOrigin = z.strictObject({
  operation: z.string().trim().min(1).max(80),
  resource_id: z.string().trim().max(80).nullish(),
  query: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullish(),
})

/**
 * One evidence file the approver had before them (decided here): the interface has no upload, so
 * the file stays on the assessor's computer and the approval carries its name, SHA-256, size and
 * origin, which the approved PDF lists (issue 36).
 */
export const saqEvidenceFile = z.strictObject({
  requirement: requirementNumber,
  name: z.string().trim().min(1).max(255),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in hex'),
  size: z.number().int().nonnegative(),
  origin: saqEvidenceOrigin.nullish(),
  attached_at: dateTime.optional(),
})
/** One evidence file of an approval. */
export type SaqEvidenceFile = z.infer<typeof saqEvidenceFile>

/**
 * Body of SAQ approve (decided here): final answers to merge before the completeness check, the
 * attestation, the evidence files the approval rests on, and a note (ScanDesk records there the
 * answers approved against its evidence, once the approver confirmed them).
 */
export const saqApproveBody = z.strictObject({
  answers: saqAnswers.optional(),
  executive_summary: saqExecutiveSummary.optional(),
  attestation: saqAttestation,
  evidence: z.array(saqEvidenceFile).max(500).optional(),
  note: description.optional(),
})

const g = 'saq' as const

/** Questionnaire (SAQ): the nine operations of interface §4. */
export const saqOperations = defineGroup([
  defineOperation({
    id: 'saq.list',
    group: g,
    method: 'GET',
    path: '/v2/saq',
    query: listQuery({
      ...byIdsFilter,
      status: z.enum(['draft', 'approved']).optional(),
      saq_type: z.string().trim().max(40).optional(),
      is_template: queryFlag.optional(),
    }),
    response: collection(saqAttributes),
    releases: SINCE_5_4,
    summary: 'List all SAQs',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { query: { status: 'draft' } },
  }),
  defineOperation({
    id: 'saq.show',
    group: g,
    method: 'GET',
    path: '/v2/saq/{id}',
    pathParams: byId,
    query: saqShowQuery,
    response: single(saqAttributes),
    releases: SINCE_5_4,
    summary: 'Get an SAQ as JSON, or download it as PDF with format=pdf',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'saq-001' }, query: { format: 'json' } },
  }),
  defineOperation({
    id: 'saq.types',
    group: g,
    method: 'GET',
    path: '/v2/saq/types',
    query: plainListQuery,
    response: collection(saqTypeAttributes),
    releases: SINCE_5_4,
    summary: 'List available SAQ types',
    source: 'decided',
    sandbox: { kind: 'list', collection: 'saq_types' },
    example: { query: { per_page: 20 } },
  }),
  defineOperation({
    id: 'saq.type_template',
    group: g,
    method: 'GET',
    path: '/v2/saq/types/{id}/template',
    pathParams: byId,
    response: single(saqTemplateAttributes),
    releases: SINCE_5_4,
    summary: 'Get the template of an SAQ type (sections and requirements); id or code',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'sqt-002' } },
  }),
  defineOperation({
    id: 'saq.create',
    group: g,
    method: 'POST',
    path: '/v2/saq',
    body: saqCreateBody,
    response: single(saqAttributes),
    releases: SINCE_5_4,
    offline: 'online-only',
    successStatus: 201,
    summary: 'Create a new SAQ draft of a type, with its answers so far',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: {
      body: {
        saq_type: 'A',
        name: 'Web shop SAQ A 2025',
        answers: [{ requirement: '8.3.1', response: 'in_place' }],
      },
    },
  }),
  defineOperation({
    id: 'saq.delete',
    group: g,
    method: 'DELETE',
    path: '/v2/saq/{id}',
    pathParams: byId,
    response: deletedResponse,
    releases: SINCE_5_4,
    summary: 'Delete an SAQ',
    source: 'decided',
    sandbox: { kind: 'delete', collection: 'saqs' },
    example: { path: { id: 'saq-006' } },
  }),
  defineOperation({
    id: 'saq.clone',
    group: g,
    method: 'PUT',
    path: '/v2/saq/{id}/clone',
    pathParams: byId,
    body: saqCloneBody,
    response: single(saqAttributes),
    releases: SINCE_5_4,
    idempotent: false,
    successStatus: 201,
    summary: 'Clone an SAQ into a new draft, applying the given answers',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'saq-001' }, body: { name: 'Web shop SAQ A (revision)' } },
  }),
  defineOperation({
    id: 'saq.approve',
    group: g,
    method: 'PUT',
    path: '/v2/saq/{id}/approve',
    pathParams: byId,
    body: saqApproveBody,
    response: single(saqAttributes),
    releases: SINCE_5_4,
    idempotent: false,
    errors: [401, 403, 404, 409, 422],
    summary: 'Approve an SAQ (422 with the missing requirement numbers when incomplete)',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: {
      path: { id: 'saq-002' },
      body: {
        attestation: { signer_name: 'Dana Reyes', signer_title: 'CISO', date: '2025-03-01' },
      },
    },
  }),
  defineOperation({
    id: 'saq.set_template',
    group: g,
    method: 'PUT',
    path: '/v2/saq/{id}/set_template',
    pathParams: byId,
    response: single(saqAttributes),
    releases: SINCE_5_4,
    idempotent: true,
    summary: 'Set an SAQ as a template for new SAQs of its type',
    source: 'decided',
    sandbox: { kind: 'custom' },
    example: { path: { id: 'saq-003' } },
  }),
])

/**
 * True when a request answers file bytes although its entry's responseKind is 'json': the one
 * "get an SAQ (JSON) or download it (PDF)" operation with `format=pdf`. The client's JSON path
 * should refuse such a request and its download path accept it.
 */
export function answersFile(opId: string, query?: Record<string, unknown>): boolean {
  return opId === 'saq.show' && query?.format === SAQ_PDF_QUERY.format
}
