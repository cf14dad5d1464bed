import { Readable } from 'node:stream'
import type { Caller, Handlers, Row, SandboxContext, SandboxRequest } from '../../../types'
import { emitWebhookEvent, recordAudit } from '../activity'
import { saqPdf } from '../saq-document'
import { requirementsFor, templateFor } from '../saq-templates'
import { callerOf, flag, listAnswer, nowIso, ownedRows, requireOwned, singleAnswer } from '../util'

/** One stored answer. */
export interface StoredAnswer {
  requirement: string
  response: string
  note: string | null
  answered_at: string
}

interface AnswerInput {
  requirement: string
  response: string
  note?: string
}

/** The SAQ type row for an id (sqt-…) or a code (case-insensitive), or undefined. */
export function findSaqType(ctx: SandboxContext, idOrCode: string): Row | undefined {
  const wanted = idOrCode.toLowerCase()
  return (
    ctx.db.get('saq_types', idOrCode) ??
    ctx.db.list('saq_types').find((t) => String(t.attributes.code).toLowerCase() === wanted)
  )
}

/** Answered and required counts of a set of answers against the type's template. */
export function progressOf(
  code: string,
  answers: StoredAnswer[],
): { answered: number; required: number } {
  const required = requirementsFor(code).filter((r) => r.required)
  const given = new Set(answers.map((a) => a.requirement))
  return { answered: required.filter((r) => given.has(r.number)).length, required: required.length }
}

/** Requirement numbers that are required and not answered, in template order. */
export function missingRequirements(code: string, answers: StoredAnswer[]): string[] {
  const given = new Set(answers.map((a) => a.requirement))
  return requirementsFor(code)
    .filter((r) => r.required && !given.has(r.number))
    .map((r) => r.number)
}

/** Merges new answers over old ones (by requirement), refusing numbers the type does not have. */
export function mergeAnswers(
  ctx: SandboxContext,
  code: string,
  base: StoredAnswer[],
  input: AnswerInput[] | undefined,
): StoredAnswer[] {
  if (!input?.length) return base
  const known = new Set(requirementsFor(code).map((r) => r.number))
  const unknown = input.filter((a) => !known.has(a.requirement)).map((a) => a.requirement)
  if (unknown.length)
    ctx.invalid({
      answers: unknown.map((n) => `${n} is not a requirement of SAQ ${code}`),
    })
  const byNumber = new Map(base.map((a) => [a.requirement, a]))
  const at = nowIso(ctx)
  for (const a of input)
    byNumber.set(a.requirement, {
      requirement: a.requirement,
      response: a.response,
      note: a.note ?? null,
      answered_at: at,
    })
  const order = requirementsFor(code).map((r) => r.number)
  return [...byNumber.values()].sort(
    (x, y) => order.indexOf(x.requirement) - order.indexOf(y.requirement),
  )
}

function answersOf(row: Row): StoredAnswer[] {
  return (row.attributes.answers as StoredAnswer[] | undefined) ?? []
}

/** Inserts a new draft SAQ. */
export function insertSaq(
  ctx: SandboxContext,
  caller: Pick<Caller, 'organizationId' | 'userId'>,
  type: Row,
  fields: {
    name: string
    description?: string | null
    answers: StoredAnswer[]
    cloned_from?: string
  },
): Row {
  const code = String(type.attributes.code)
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
      answers: fields.answers,
      progress: progressOf(code, fields.answers),
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
    return {
      status: 200,
      body: {
        data: {
          id: type.id,
          type: 'saq_template',
          attributes: { ...type.attributes, sections: templateFor(String(type.attributes.code)) },
        },
      },
    }
  },
  'saq.create': (req, ctx) => {
    const caller = callerOf(req, ctx)
    const body = req.body
    const type = findSaqType(ctx, body.saq_type)
    if (!type) return ctx.invalid({ saq_type: ['is not a known SAQ type'] })
    let base: StoredAnswer[] = []
    if (body.template_id) {
      const template = ctx.db.get('saqs', body.template_id)
      if (
        !template ||
        template.internal?.organization_id !== caller.organizationId ||
        template.attributes.is_template !== true ||
        template.attributes.saq_type !== type.attributes.code
      )
        return ctx.invalid({
          template_id: ['must be an SAQ of the same type that is set as a template'],
        })
      base = answersOf(template)
    }
    const answers = mergeAnswers(ctx, String(type.attributes.code), base, body.answers)
    const row = insertSaq(ctx, caller, type, {
      name: body.name,
      description: body.description,
      answers,
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
    const answers = mergeAnswers(
      ctx,
      String(type.attributes.code),
      answersOf(source),
      body?.answers,
    )
    const row = insertSaq(ctx, caller, type, {
      name: body?.name ?? `${String(source.attributes.name)} (copy)`,
      description: source.attributes.description as string | null,
      answers,
      cloned_from: source.id,
    })
    audit(ctx, req, 'saq.clone', row.id)
    return singleAnswer(row, 201)
  },
  'saq.approve': (req, ctx) => {
    const caller = callerOf(req, ctx)
    if (caller.role === 'customer') ctx.error(403, 'Customers cannot approve an SAQ')
    const row = requireOwned(ctx, req, 'saqs', req.path.id)
    if (row.attributes.status === 'approved') ctx.error(409, 'This SAQ is already approved')
    const code = String(row.attributes.saq_type)
    const body = req.body
    const answers = mergeAnswers(ctx, code, answersOf(row), body?.answers)
    const missing = missingRequirements(code, answers)
    if (missing.length)
      ctx.invalid(
        { answers: missing.map((n) => `${n} is not answered`) },
        `Cannot approve: ${missing.length} required answers are missing (${missing.join(', ')})`,
      )
    const now = nowIso(ctx)
    const updated = ctx.db.update('saqs', row.id, {
      answers,
      progress: progressOf(code, answers),
      status: 'approved',
      compliance: answers.some((a) => a.response === 'no') ? 'non_compliant' : 'compliant',
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
