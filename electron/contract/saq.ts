import { z } from 'zod'
import type { SaqCompliance } from './saq-compliance'

/*
 * Self-assessment questionnaires (SAQ): the answer vocabulary, what each answer needs, and the
 * facts derived from a set of answers (progress, per-requirement summary, compliance status,
 * what still blocks approval). The interface does not show any of it (§4 lists methods only), so
 * it is decided here, once, and used by the client (filler, drafts, approval) and by the sandbox
 * (the service's own checks) alike. docs/decisions.md explains the choices.
 */

/** A requirement number such as 8.3.1 or A1.1.1 (decided here). */
export const requirementNumber = z
  .string()
  .regex(/^[A-Z]?\d{1,2}(\.\d{1,2}){1,3}$/, 'must be a requirement number such as 8.3.1')

/** The answers a requirement can get, in the order a form offers them. */
export const SAQ_RESPONSES = [
  'in_place',
  'in_place_ccw',
  'in_place_remediation',
  'not_applicable',
  'not_tested',
  'not_in_place',
] as const
/** One answer choice. */
export type SaqResponse = (typeof SAQ_RESPONSES)[number]

/** How each answer choice is written on screen and in the PDF. */
export const SAQ_RESPONSE_LABELS: Record<SaqResponse, string> = {
  in_place: 'In Place',
  in_place_ccw: 'In Place with CCW',
  in_place_remediation: 'In Place with Remediation',
  not_applicable: 'Not Applicable',
  not_tested: 'Not Tested',
  not_in_place: 'Not in Place',
}

/**
 * Choices every template offers. `not_tested` is offered only by types whose template lists it,
 * `in_place_remediation` only by template versions that list it (the template's `responses`).
 */
export const SAQ_BASE_RESPONSES: readonly SaqResponse[] = [
  'in_place',
  'in_place_ccw',
  'not_applicable',
  'not_in_place',
]

/** Answers that must carry an explanation. */
export const SAQ_RESPONSES_NEEDING_EXPLANATION: readonly SaqResponse[] = [
  'not_applicable',
  'not_tested',
]

/** The longest explanation, worksheet field or action (characters). */
export const SAQ_TEXT_MAX = 4000

/** Free text of an answer: trimmed, at most SAQ_TEXT_MAX characters. */
const answerText = z
  .string()
  .trim()
  .max(SAQ_TEXT_MAX, `must be at most ${SAQ_TEXT_MAX.toLocaleString('en-US')} characters`)

/** A calendar date as YYYY-MM-DD. */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)')
  .refine((v) => {
    const day = new Date(`${v}T00:00:00Z`)
    return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === v
  }, 'is not a real date')

/** The compensating-control worksheet of an "In Place with CCW" answer (every field required). */
export const SAQ_CCW_FIELDS = [
  ['constraints', 'Constraints that prevent meeting the requirement as written'],
  ['objective', 'Objective of the original control'],
  ['identified_risk', 'Risk that the missing control leaves'],
  ['definition', 'Compensating controls in place'],
  ['validation', 'How the compensating controls were validated'],
  ['maintenance', 'How the compensating controls are maintained'],
] as const
/** One worksheet field. */
export type SaqCcwField = (typeof SAQ_CCW_FIELDS)[number][0]

const ccwShape = Object.fromEntries(
  SAQ_CCW_FIELDS.map(([key]) => [key, answerText.optional()]),
) as Record<SaqCcwField, z.ZodOptional<typeof answerText>>

/** A worksheet as stored and sent (fields may be missing while being filled). */
export const saqCcwWorksheet = z.strictObject(ccwShape)

/** The action plan entry a "Not in Place" answer may carry. */
export const saqActionPlan = z.strictObject({
  action: answerText.optional(),
  owner: z.string().trim().max(200).optional(),
  due_date: isoDate.optional(),
})

/** One answer as a draft keeps it and the client sends it (rules: `answerProblems`). */
export const saqAnswerShape = z.strictObject({
  requirement: requirementNumber,
  response: z.enum(SAQ_RESPONSES),
  explanation: answerText.optional(),
  ccw: saqCcwWorksheet.optional(),
  action_plan: saqActionPlan.optional(),
  /** A "Not in Place" answer caused by a legal restriction (needs the explanation). */
  legal_exception: z.boolean().optional(),
})
/** One answer. */
export type SaqAnswer = z.infer<typeof saqAnswerShape>

/** A problem of one answer: which field, what is wrong. */
export interface AnswerProblem {
  field: 'response' | 'explanation' | `ccw.${SaqCcwField}` | 'action_plan'
  message: string
}

const filled = (v: string | undefined) => !!v && v.trim().length > 0

/**
 * What an answer still needs, given the choices its template offers (all of SAQ_RESPONSES when
 * `offered` is omitted): an explanation for Not Applicable, Not Tested and a legal exception,
 * every worksheet field for CCW, a choice the template offers.
 */
export function answerProblems(
  answer: Pick<SaqAnswer, 'response' | 'explanation' | 'ccw' | 'legal_exception'>,
  offered: readonly string[] = SAQ_RESPONSES,
): AnswerProblem[] {
  const problems: AnswerProblem[] = []
  const label = SAQ_RESPONSE_LABELS[answer.response]
  const limit = `must be at most ${SAQ_TEXT_MAX.toLocaleString('en-US')} characters`
  if ((answer.explanation?.length ?? 0) > SAQ_TEXT_MAX)
    problems.push({ field: 'explanation', message: `The explanation ${limit}` })
  for (const [key] of SAQ_CCW_FIELDS)
    if ((answer.ccw?.[key]?.length ?? 0) > SAQ_TEXT_MAX)
      problems.push({ field: `ccw.${key}`, message: `This worksheet field ${limit}` })
  if (!offered.includes(answer.response))
    problems.push({ field: 'response', message: `${label} is not offered by this questionnaire` })
  if (SAQ_RESPONSES_NEEDING_EXPLANATION.includes(answer.response) && !filled(answer.explanation))
    problems.push({ field: 'explanation', message: `${label} needs an explanation` })
  if (answer.response === 'not_in_place' && answer.legal_exception && !filled(answer.explanation))
    problems.push({ field: 'explanation', message: 'A legal exception needs an explanation' })
  if (answer.response === 'in_place_ccw')
    for (const [key, title] of SAQ_CCW_FIELDS)
      if (!filled(answer.ccw?.[key]))
        problems.push({
          field: `ccw.${key}`,
          message: `The worksheet needs: ${title.toLowerCase()}`,
        })
  return problems
}

/**
 * One answer checked against the rules that need no template (what the service refuses). The
 * lengths are checked by the shape already; the rules add what a valid shape may still lack.
 */
export const saqAnswer = saqAnswerShape.superRefine((answer, ctx) => {
  for (const p of answerProblems(answer).filter((x) => !x.message.includes(' must be at most ')))
    ctx.addIssue({ code: 'custom', message: p.message, path: p.field.split('.') })
})

/** A set of answers: at most one per requirement. */
export const saqAnswers = z
  .array(saqAnswer)
  .max(1000)
  .refine(
    (list) => new Set(list.map((a) => a.requirement)).size === list.length,
    'must answer each requirement at most once',
  )

/** Ways a payment card reaches the organization (executive summary). */
export const SAQ_PAYMENT_CHANNELS = ['card_present', 'moto', 'ecommerce'] as const
/** Labels of the payment channels. */
export const SAQ_PAYMENT_CHANNEL_LABELS: Record<(typeof SAQ_PAYMENT_CHANNELS)[number], string> = {
  card_present: 'Card present',
  moto: 'Mail order / telephone order',
  ecommerce: 'E-commerce',
}

/** The executive summary: payment channels, the environment, third-party service providers. */
export const saqExecutiveSummary = z.strictObject({
  payment_channels: z.array(z.enum(SAQ_PAYMENT_CHANNELS)).max(3).optional(),
  environment: answerText.optional(),
  service_providers: z
    .array(
      z.strictObject({
        name: z.string().trim().min(1, 'is required').max(200),
        services: z.string().trim().max(500).optional(),
      }),
    )
    .max(50)
    .optional(),
})
/** An executive summary. */
export type SaqExecutiveSummary = z.infer<typeof saqExecutiveSummary>

/** The attestation signed at approval: who signs, in which role, on which date. */
export const saqAttestation = z.strictObject({
  signer_name: z.string().trim().min(1, 'is required').max(200),
  signer_title: z.string().trim().min(1, 'is required').max(200),
  date: isoDate,
})
/** An attestation. */
export type SaqAttestation = z.infer<typeof saqAttestation>

// The compliance vocabulary lives in a module without zod (the renderer's registry needs the labels
// on its first screen); it is part of this module's surface.
export { SAQ_COMPLIANCE, SAQ_COMPLIANCE_LABELS, type SaqCompliance } from './saq-compliance'

/** Ways a requirement is assessed. */
export const SAQ_TESTING_METHODS = ['examine', 'interview', 'observe', 'test'] as const

/** One requirement of a template. */
export interface SaqTemplateRequirement {
  number: string
  title: string
  required: boolean
  testing_methods?: readonly string[]
  guidance?: string | null
}

/** The parts of a template the rules read. */
export interface SaqTemplateLike {
  responses?: readonly string[]
  sections: readonly {
    number: string
    title: string
    requirements: readonly SaqTemplateRequirement[]
  }[]
}

/** The choices a template offers (the base four when it does not say). */
export function offeredResponses(template: Pick<SaqTemplateLike, 'responses'>): SaqResponse[] {
  const listed = (template.responses ?? SAQ_BASE_RESPONSES).filter((r): r is SaqResponse =>
    (SAQ_RESPONSES as readonly string[]).includes(r),
  )
  return SAQ_RESPONSES.filter((r) => listed.includes(r))
}

/**
 * The compliance status of a set of answers: any Not in Place without a legal exception →
 * Non-Compliant; Not in Place answers all under a legal exception → Compliant with legal
 * exception; otherwise Compliant.
 */
export function complianceOf(
  answers: Iterable<Pick<SaqAnswer, 'response' | 'legal_exception'>>,
): SaqCompliance {
  let exception = false
  for (const a of answers) {
    if (a.response !== 'not_in_place') continue
    if (!a.legal_exception) return 'non_compliant'
    exception = true
  }
  return exception ? 'compliant_legal_exception' : 'compliant'
}

/** What still stands between a questionnaire and its approval (empty = it can be approved). */
export interface ApprovalBlockers {
  unanswered: string[]
  incomplete: { requirement: string; problems: AnswerProblem[] }[]
  attestation: string[]
}

/** Missing answers, answers that still need something, and what the attestation lacks. */
export function approvalBlockers(
  template: SaqTemplateLike,
  answers: ReadonlyMap<string, SaqAnswer>,
  attestation: Partial<Record<keyof SaqAttestation, string | undefined>> | null | undefined,
): ApprovalBlockers {
  const offered = offeredResponses(template)
  const unanswered: string[] = []
  const incomplete: ApprovalBlockers['incomplete'] = []
  for (const section of template.sections)
    for (const r of section.requirements) {
      const a = answers.get(r.number)
      if (!a) {
        if (r.required) unanswered.push(r.number)
        continue
      }
      const problems = answerProblems(a, offered)
      if (problems.length) incomplete.push({ requirement: r.number, problems })
    }
  const missing: string[] = []
  const parsed = saqAttestation.safeParse({
    signer_name: attestation?.signer_name ?? '',
    signer_title: attestation?.signer_title ?? '',
    date: attestation?.date ?? '',
  })
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0])
      const what =
        key === 'signer_name' ? "signer's name" : key === 'signer_title' ? "signer's title" : 'date'
      if (!missing.includes(what)) missing.push(what)
    }
  return { unanswered, incomplete, attestation: missing }
}

/** True when nothing blocks approval. */
export function canApprove(b: ApprovalBlockers): boolean {
  return !b.unanswered.length && !b.incomplete.length && !b.attestation.length
}

/** The parts of the executive summary, as the filler and the PDF name them. */
export const SAQ_SUMMARY_FIELDS = {
  payment_channels: 'Payment channels in scope',
  environment: 'Cardholder data environment',
  service_providers: 'Third-party service providers',
} as const

/**
 * The parts of an executive summary left empty (the PDF prints "Not stated" or "None listed" for
 * them), in the filler's order; [] when every part says something.
 */
export function emptySummaryFields(
  summary: Partial<Record<keyof SaqExecutiveSummary, unknown>> | null | undefined,
): (keyof typeof SAQ_SUMMARY_FIELDS)[] {
  const s = summary ?? {}
  const channels = Array.isArray(s.payment_channels) ? s.payment_channels : []
  const environment = typeof s.environment === 'string' ? s.environment.trim() : ''
  const named = (p: unknown) => String((p as { name?: unknown } | null)?.name ?? '').trim() !== ''
  const providers = (Array.isArray(s.service_providers) ? s.service_providers : []).filter(named)
  const empty: (keyof typeof SAQ_SUMMARY_FIELDS)[] = []
  if (!channels.length) empty.push('payment_channels')
  if (!environment) empty.push('environment')
  if (!providers.length) empty.push('service_providers')
  return empty
}

/** One sentence saying what is missing ("12 unanswered, 2 need an explanation, signer's title"). */
export function describeBlockers(b: ApprovalBlockers): string {
  const parts: string[] = []
  const n = (count: number, one: string, many: string) =>
    `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`
  if (b.unanswered.length)
    parts.push(`${n(b.unanswered.length, 'requirement', 'requirements')} unanswered`)
  if (b.incomplete.length)
    parts.push(
      `${n(b.incomplete.length, 'answer needs', 'answers need')} more (explanation or worksheet)`,
    )
  if (b.attestation.length) parts.push(`the attestation lacks the ${b.attestation.join(', ')}`)
  return parts.length ? `Cannot approve yet: ${parts.join('; ')}.` : 'Ready to approve.'
}
