import { Readable } from 'node:stream'
import {
  answerProblems,
  approvalBlockers,
  complianceOf,
  describeBlockers,
  offeredResponses,
} from '@contract/saq'
import { progressOf as contractProgress } from '@contract/saq-progress'
import type { FieldErrors } from '@contract/errors'
import { can } from '../../identity/permissions'
import type { Caller, Handlers, Row, SandboxContext, SandboxRequest } from '../../../types'
import { emitWebhookEvent, recordAudit } from '../activity'
import { saqPdf } from '../saq-document'
import {
  answerMap,
  answersOf,
  storedAnswer,
  templateOfRow,
  type AnswerInput,
  type StoredAnswer,
} from '../saq-answers'
import { saqTemplate, type SaqTemplate } from '../saq-templates'
import { callerOf, flag, listAnswer, nowIso, ownedRows, requireOwned, singleAnswer } from '../util'

export { answerMap, answersOf, storedAnswer, templateOfRow, type AnswerInput, type StoredAnswer }

/** The SAQ type row for an id (sqt-…) or a code (case-insensitive), or undefined. */
export function findSaqType(ctx: SandboxContext, idOrCode: string): Row | undefined {
  const wanted = idOrCode.toLowerCase()
  return (
    ctx.db.get('saq_types', idOrCode) ??
    ctx.db.list('saq_types').find((t) => String(t.attributes.code).toLowerCase() === wanted)
  )
}

/**
 * Progress against a template: required requirements answered, required in all, and answers
 * that still need something (explanation, worksheet, a choice the template offers).
 */
export function progressOf(
  template: SaqTemplate,
  answers: StoredAnswer[],
): { answered: number; required: number; incomplete: number } {
  const given = new Set(answers.map((a) => a.requirement))
  const required = template.sections.flatMap((s) => s.requirements).filter((r) => r.required)
  return {
    answered: required.filter((r) => given.has(r.number)).length,
    required: required.length,
    incomplete: contractProgress(template, answerMap(answers)).overall.incomplete,
  }
}

/** Adds messages under a key (no duplicates). */
function addField(fields: FieldErrors, key: string, messages: string[]): void {
  const list = (fields[key] ??= [])
  for (const m of messages) if (!list.includes(m)) list.push(m)
}

/** The template name used in messages ("SAQ A (template 4.0.1)"). */
function templateName(template: SaqTemplate): string {
  return `SAQ ${template.code} (template ${template.version})`
}

/**
 * Merges new answers over old ones (by requirement, in template order) and collects what is
 * wrong with the new ones, keyed `answers.<requirement number>`: numbers the template does not
 * have, and every problem `answerProblems` finds with the template's offered choices.
 */
export function collectAnswers(
  template: SaqTemplate,
  base: StoredAnswer[],
  input: AnswerInput[] | undefined,
  at: string,
): { answers: StoredAnswer[]; fields: FieldErrors } {
  const fields: FieldErrors = {}
  if (!input?.length) return { answers: base, fields }
  const order = template.sections.flatMap((s) => s.requirements.map((r) => r.number))
  const known = new Set(order)
  const offered = offeredResponses(template)
  const byNumber = new Map(base.map((a) => [a.requirement, a]))
  for (const a of input) {
    const key = `answers.${a.requirement}`
    if (!known.has(a.requirement)) {
      addField(fields, key, [`is not a requirement of ${templateName(template)}`])
      continue
    }
    const problems = answerProblems(a, offered)
    if (problems.length)
      addField(
        fields,
        key,
        problems.map((p) => p.message),
      )
    byNumber.set(a.requirement, storedAnswer(a, at))
  }
  const rank = (n: string) => {
    const i = order.indexOf(n)
    return i < 0 ? order.length : i
  }
  return {
    answers: [...byNumber.values()].sort((x, y) => rank(x.requirement) - rank(y.requirement)),
    fields,
  }
}

/**
 * Merges new answers over old ones; refuses (422, nothing saved) when any new answer names a
 * requirement the template does not have or has a problem (keys `answers.<number>`).
 */
export function mergeAnswers(
  ctx: SandboxContext,
  template: SaqTemplate,
  base: StoredAnswer[],
  input: AnswerInput[] | undefined,
): StoredAnswer[] {
  const { answers, fields } = collectAnswers(template, base, input, nowIso(ctx))
  const refused = Object.keys(fields)
  if (refused.length)
    ctx.invalid(
      fields,
      `${refused.length === 1 ? '1 answer was' : `${refused.length} answers were`} refused: ${refused
        .map((k) => k.slice('answers.'.length))
        .join(', ')}`,
    )
  return answers
}

/**
 * Answers of an older SAQ that fit `template`: drops requirement numbers the template does not
 * have and choices it does not offer.
 */
export function carryOver(template: SaqTemplate, answers: StoredAnswer[]): StoredAnswer[] {
  const known = new Set(template.sections.flatMap((s) => s.requirements.map((r) => r.number)))
  const offered = offeredResponses(template)
  return answers.filter((a) => known.has(a.requirement) && offered.includes(a.response))
}

function organizationName(ctx: SandboxContext, organizationId: string): string | null {
  const name = ctx.db.get('organizations', organizationId)?.attributes.name
  return typeof name === 'string' ? name : null
}

/** Inserts a new draft SAQ on the type's current template. */
export function insertSaq(
  ctx: SandboxContext,
  caller: Pick<Caller, 'organizationId' | 'userId'>,
  type: Row,
  fields: {
    name: string
    description?: string | null
    answers: StoredAnswer[]
    executive_summary?: Record<string, unknown> | null
    cloned_from?: string
    template_version?: string
  },
): Row {
  const code = String(type.attributes.code)
  const template = saqTemplate(code, fields.template_version)
  const now = nowIso(ctx)
  return ctx.db.insert('saqs', {
    id: ctx.db.nextId('saq'),
    type: 'saq',
    attributes: {
      name: fields.name,
      description: fields.description ?? null,
      saq_type: code,
      saq_type_id: type.id,
      status: 'draft',
      is_template: false,
      template_version: template.version,
      organization_name: organizationName(ctx, caller.organizationId),
      answers: fields.answers,
      executive_summary: fields.executive_summary ?? null,
      attestation: null,
      progress: progressOf(template, fields.answers),
      compliance: null,
      approved_at: null,
      approved_by: null,
      cloned_from: fields.cloned_from ?? null,
      created_at: now,
      updated_at: now,
    },
    internal: { organization_id: caller.organizationId, created_by: caller.userId },
  })
}

function audit(ctx: SandboxContext, req: SandboxRequest, action: string, id: string) {
  const caller = callerOf(req, ctx)
  recordAudit(ctx, {
    organizationId: caller.organizationId,
    action,
    actorId: caller.userId,
    resourceType: 'saq',
    resourceId: id,
  })
}

/** What blocks approving `answers` against `template`, as field errors `answers.<n>`. */
export function approvalFields(
  template: SaqTemplate,
  answers: StoredAnswer[],
  attestation: Parameters<typeof approvalBlockers>[2],
): { fields: FieldErrors; message: string; blocked: boolean } {
  const blockers = approvalBlockers(template, answerMap(answers), attestation)
  const fields: FieldErrors = {}
  for (const n of blockers.unanswered) addField(fields, `answers.${n}`, ['is not answered'])
  for (const i of blockers.incomplete)
    addField(
      fields,
      `answers.${i.requirement}`,
      i.problems.map((p) => p.message),
    )
  if (blockers.attestation.length)
    addField(
      fields,
      'attestation',
      blockers.attestation.map((w) => `needs the ${w}`),
    )
  return {
    fields,
    message: describeBlockers(blockers),
    blocked: Object.keys(fields).length > 0,
  }
}

/** Handlers of the SAQ group (types list and delete are generic). */
export const saqHandlers: Handlers = {
  'saq.list': (req, ctx) => {
    const q = req.query
    const template = flag(req.query.is_template)
    const rows = ownedRows(ctx, req, 'saqs').filter(
      (r) =>
        (!q.status || r.attributes.status === q.status) &&
        (!q.saq_type || String(r.attributes.saq_type).toLowerCase() === q.saq_type.toLowerCase()) &&
        (template === undefined || r.attributes.is_template === template),
    )
    return listAnswer(req, rows, { defaultSort: '-updated_at', searchFields: ['name'] })
  },
  'saq.show': (req, ctx) => {
    const row = requireOwned(ctx, req, 'saqs', req.path.id)
    if (req.query.format !== 'pdf') return singleAnswer(row)
    const bytes = saqPdf(row)
    audit(ctx, req, 'saq.download', row.id)
    return {
      status: 200,
      file: {
        contentType: 'application/pdf',
        filename: `saq-${row.id}.pdf`,
        size: bytes.length,
        body: () => Readable.from([bytes], { objectMode: false }),
      },
    }
  },
  'saq.type_template': (req, ctx) => {
    const type = findSaqType(ctx, req.path.id)
    if (!type) return ctx.notFound('SAQ type')
    const template = saqTemplate(String(type.attributes.code))
    return {
      status: 200,
      body: {
        data: {
          id: type.id,
          type: 'saq_template',
          attributes: {
            ...type.attributes,
            template_version: template.version,
            responses: template.responses,
            sections: template.sections,
          },
        },
      },
    }
  },
  'saq.create': (req, ctx) => {
    const caller = callerOf(req, ctx)
    const body = req.body
    const type = findSaqType(ctx, body.saq_type)
    if (!type) return ctx.invalid({ saq_type: ['is not a known SAQ type'] })
    const code = String(type.attributes.code)
    const template = saqTemplate(code)
    if (body.template_version && body.template_version !== template.version)
      ctx.invalid(
        {
          template_version: [
            `answered against template ${body.template_version}; SAQ ${code} is now on ${template.version}. Start a new draft on ${template.version} (or clone an SAQ, which moves its answers to ${template.version})`,
          ],
        },
        `SAQ ${code} is on template ${template.version}, not ${body.template_version}`,
      )
    let base: StoredAnswer[] = []
    let summary: Record<string, unknown> | null = null
    if (body.template_id) {
      const source = ctx.db.get('saqs', body.template_id)
      if (
        !source ||
        source.internal?.organization_id !== caller.organizationId ||
        source.attributes.is_template !== true ||
        source.attributes.saq_type !== code
      )
        return ctx.invalid({
          template_id: ['must be an SAQ of the same type that is set as a template'],
        })
      base = carryOver(template, answersOf(source))
      summary = (source.attributes.executive_summary as Record<string, unknown> | null) ?? null
    }
    const answers = mergeAnswers(ctx, template, base, body.answers)
    const row = insertSaq(ctx, caller, type, {
      name: body.name,
      description: body.description,
      answers,
      executive_summary: body.executive_summary ?? summary,
    })
    audit(ctx, req, 'saq.create', row.id)
    return singleAnswer(row, 201)
  },
  'saq.clone': (req, ctx) => {
    const caller = callerOf(req, ctx)
    const source = requireOwned(ctx, req, 'saqs', req.path.id)
    const body = req.body
    const type = findSaqType(
      ctx,
      String(source.attributes.saq_type_id ?? source.attributes.saq_type),
    )
    if (!type) return ctx.notFound('SAQ type')
    const template = saqTemplate(String(type.attributes.code))
    const answers = mergeAnswers(
      ctx,
      template,
      carryOver(template, answersOf(source)),
      body?.answers,
    )
    const row = insertSaq(ctx, caller, type, {
      name: body?.name ?? `${String(source.attributes.name)} (copy)`,
      description: source.attributes.description as string | null,
      answers,
      executive_summary:
        body?.executive_summary ??
        (source.attributes.executive_summary as Record<string, unknown> | null),
      cloned_from: source.id,
    })
    audit(ctx, req, 'saq.clone', row.id)
    return singleAnswer(row, 201)
  },
  'saq.approve': (req, ctx) => {
    // The permission GET /v2/user/permissions shows (managers and administrators have it).
    const caller = callerOf(req, ctx)
    if (!can(caller.role, 'saq.approve'))
      ctx.error(403, `Your role (${caller.role}) does not have the permission saq.approve`)
    const row = requireOwned(ctx, req, 'saqs', req.path.id)
    if (row.attributes.status === 'approved') ctx.error(409, 'This SAQ is already approved')
    const code = String(row.attributes.saq_type)
    const template = templateOfRow(row)
    const body = req.body
    const merged = collectAnswers(template, answersOf(row), body.answers, nowIso(ctx))
    const check = approvalFields(template, merged.answers, body.attestation)
    if (check.blocked || Object.keys(merged.fields).length) {
      const fields: FieldErrors = { ...merged.fields }
      for (const [k, v] of Object.entries(check.fields)) addField(fields, k, v)
      ctx.invalid(
        fields,
        check.blocked
          ? check.message
          : `Cannot approve yet: ${Object.keys(fields).length} answers were refused.`,
      )
    }
    const now = nowIso(ctx)
    const answers = merged.answers
    const updated = ctx.db.update('saqs', row.id, {
      answers,
      executive_summary: body.executive_summary ?? row.attributes.executive_summary ?? null,
      attestation: body.attestation,
      approval_note: body.note ?? null,
      evidence: body.evidence ?? [],
      progress: progressOf(template, answers),
      status: 'approved',
      compliance: complianceOf(answerMap(answers).values()),
      approved_at: now,
      approved_by: caller.userId,
      updated_at: now,
    })
    audit(ctx, req, 'saq.approve', row.id)
    emitWebhookEvent(ctx, caller.organizationId, 'saq.approved', { saq_id: row.id, saq_type: code })
    return singleAnswer(updated)
  },
  'saq.set_template': (req, ctx) => {
    const row = requireOwned(ctx, req, 'saqs', req.path.id)
    if (row.attributes.is_template === true) return singleAnswer(row)
    const updated = ctx.db.update('saqs', row.id, { is_template: true, updated_at: nowIso(ctx) })
    audit(ctx, req, 'saq.set_template', row.id)
    return singleAnswer(updated)
  },
}
