import { z } from 'zod'
import { SAQ_RESPONSES, type SaqAnswer } from '@contract/saq'

/*
 * An SAQ being filled, as it is kept on this computer (drafts table, kind 'saq'): the template it
 * is answered against (cached when first opened, so the draft works offline), the answers, the
 * executive summary and the attestation. Read leniently: a draft holds work in progress, such as
 * an explanation longer than the service accepts, and must never be refused (the rules in
 * @contract/saq say what is still missing; nothing typed is thrown away).
 */

const text = z.string()

/** One answer as a draft keeps it (any length; the rules decide what is missing). */
export const draftAnswer = z.object({
  requirement: z.string().min(1),
  response: z.enum(SAQ_RESPONSES),
  explanation: text.optional(),
  ccw: z.record(z.string(), text).optional(),
  action_plan: z
    .object({ action: text.optional(), owner: text.optional(), due_date: text.optional() })
    .optional(),
  legal_exception: z.boolean().optional(),
})

/** One requirement of the cached template. */
export const draftRequirement = z.object({
  number: z.string(),
  title: z.string(),
  required: z.boolean(),
  testing_methods: z.array(z.string()).optional(),
  guidance: z.string().nullish(),
})

/** The template a draft is answered against (a copy of `saq.type_template`'s answer). */
export const draftTemplate = z.object({
  typeId: z.string(),
  code: z.string(),
  name: z.string(),
  template_version: z.string().nullish(),
  responses: z.array(z.string()).optional(),
  sections: z.array(
    z.object({
      number: z.string(),
      title: z.string(),
      requirements: z.array(draftRequirement),
    }),
  ),
})
/** A cached template. */
export type DraftTemplate = z.infer<typeof draftTemplate>

/** The executive summary while it is being written. */
export const draftSummary = z.object({
  payment_channels: z.array(z.string()).optional(),
  environment: text.optional(),
  service_providers: z.array(z.object({ name: text, services: text.optional() })).optional(),
})

/** The attestation while it is being written. */
export const draftAttestation = z.object({
  signer_name: text.optional(),
  signer_title: text.optional(),
  date: text.optional(),
})

/** One SAQ draft. */
export const saqDraft = z.object({
  version: z.literal(1),
  /** The service's id once submitted (create); null while the SAQ exists only here. */
  saqId: z.string().nullable(),
  name: z.string(),
  description: z.string().optional(),
  /** The SAQ set as a template it started from, sent with the create. */
  templateId: z.string().nullable().optional(),
  template: draftTemplate,
  answers: z.record(z.string(), draftAnswer),
  summary: draftSummary,
  attestation: draftAttestation,
  /** The requirement the user was on (reopening goes back there). */
  current: z.string().nullable().optional(),
})
/** One SAQ draft. */
export type SaqDraft = z.infer<typeof saqDraft>
/** One answer of a draft. */
export type DraftAnswer = z.infer<typeof draftAnswer>

/** The draft key of an SAQ that exists only on this computer: `local-` and a random part. */
export function newLocalKey(): string {
  return `local-${crypto.randomUUID().replace(/-/g, '')}`
}

/** True for keys of SAQs not submitted yet. */
export function isLocalKey(key: string): boolean {
  return key.startsWith('local-')
}

/** A draft's answers as the rules read them (by requirement number). */
export function answersMap(draft: Pick<SaqDraft, 'answers'>): Map<string, SaqAnswer> {
  return new Map(Object.entries(draft.answers).map(([n, a]) => [n, a as SaqAnswer]))
}

/** Answers as the service takes them: only fields that say something, trimmed. */
export function answersForService(draft: Pick<SaqDraft, 'answers' | 'template'>): SaqAnswer[] {
  const order = draft.template.sections.flatMap((s) => s.requirements.map((r) => r.number))
  const position = new Map(order.map((n, i) => [n, i]))
  return Object.values(draft.answers)
    .filter((a) => position.has(a.requirement))
    .sort((x, y) => position.get(x.requirement)! - position.get(y.requirement)!)
    .map((a) => {
      const out: SaqAnswer = { requirement: a.requirement, response: a.response }
      const explanation = a.explanation?.trim()
      if (explanation) out.explanation = explanation
      if (a.response === 'in_place_ccw' && a.ccw) {
        const ccw = Object.fromEntries(
          Object.entries(a.ccw)
            .map(([k, v]) => [k, v.trim()] as const)
            .filter(([, v]) => v),
        )
        if (Object.keys(ccw).length) out.ccw = ccw
      }
      if (a.response === 'not_in_place') {
        const plan = Object.fromEntries(
          Object.entries(a.action_plan ?? {})
            .map(([k, v]) => [k, (v ?? '').trim()] as const)
            .filter(([, v]) => v),
        )
        if (Object.keys(plan).length) out.action_plan = plan
        if (a.legal_exception) out.legal_exception = true
      }
      return out
    })
}

/** The executive summary as the service takes it (empty parts left out). */
export function summaryForService(summary: SaqDraft['summary']): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  if (summary.payment_channels?.length) out.payment_channels = summary.payment_channels
  if (summary.environment?.trim()) out.environment = summary.environment.trim()
  const providers = (summary.service_providers ?? [])
    .filter((p) => p.name.trim())
    .map((p) => ({
      name: p.name.trim(),
      ...(p.services?.trim() ? { services: p.services.trim() } : {}),
    }))
  if (providers.length) out.service_providers = providers
  return out
}

/** A template answer of `saq.type_template` as a draft keeps it. */
export function templateFromService(data: {
  id: string
  attributes: Record<string, unknown>
}): DraftTemplate {
  const a = data.attributes
  return draftTemplate.parse({
    typeId: data.id,
    code: a.code,
    name: a.name,
    template_version: a.template_version ?? null,
    responses: a.responses,
    sections: a.sections,
  })
}

/** A copy of a JSON value without null members (the service stores absent parts as null). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  )
}

/** Stored answers of `saq.show` as a draft keeps them (unknown choices left out). */
export function answersFromService(list: unknown): Record<string, DraftAnswer> {
  const out: Record<string, DraftAnswer> = {}
  if (!Array.isArray(list)) return out
  for (const item of list) {
    const source = withoutNulls(item) as Record<string, unknown>
    const parsed = draftAnswer.safeParse({
      requirement: source.requirement,
      response: source.response,
      explanation: source.explanation,
      ccw: source.ccw,
      action_plan: source.action_plan,
      legal_exception: source.legal_exception,
    })
    if (parsed.success) out[parsed.data.requirement] = parsed.data
  }
  return out
}

/** An executive summary of `saq.show` as a draft keeps it. */
export function summaryFromService(value: unknown): SaqDraft['summary'] {
  const parsed = draftSummary.safeParse(withoutNulls(value ?? {}))
  return parsed.success ? parsed.data : {}
}

/** A plain copy of a draft (the screen's copy is reactive: proxies cannot be cloned or sent). */
export function plainDraft(value: SaqDraft): SaqDraft {
  return JSON.parse(JSON.stringify(value)) as SaqDraft
}

/** A clone's suggested name: "Web shop SAQ A 2025" → "Web shop SAQ A 2026"; otherwise "(copy)". */
export function nextName(name: string): string {
  const m = /(19|20)\d{2}(?!.*(19|20)\d{2})/.exec(name)
  return m
    ? name.slice(0, m.index) + (Number(m[0]) + 1) + name.slice(m.index + 4)
    : `${name} (copy)`
}
