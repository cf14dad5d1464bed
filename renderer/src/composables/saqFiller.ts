import { computed, reactive, ref, watch } from 'vue'
import type { SaqEvidenceFile } from '@contract/catalog/saq'
import type { AppError } from '@contract/errors'
import {
  answerProblems,
  approvalBlockers,
  complianceOf,
  offeredResponses,
  saqAnswers,
  saqAttestation,
  type AnswerProblem,
  type SaqResponse,
} from '@contract/saq'
import { progressOf, summaryTable } from '@contract/saq-progress'
import { answered } from '@/data/envelope'
import { useDraft } from '@/data/useDraft'
import { useOperationCall } from '@/data/useOperationCall'
import {
  answersForService,
  answersFromService,
  answersMap,
  plainDraft,
  saqDraft,
  summaryForService,
  summaryFromService,
  templateFromService,
  type DraftAnswer,
  type SaqDraft,
} from '@/composables/saqDraft'

function summaryAttestation(value: unknown): SaqDraft['attestation'] {
  const v = (value ?? {}) as Record<string, unknown>
  const text = (x: unknown) => (typeof x === 'string' ? x : undefined)
  return {
    signer_name: text(v.signer_name),
    signer_title: text(v.signer_title),
    date: text(v.date),
  }
}

/** Which requirements the list shows. */
export type RequirementFilter = 'all' | 'unanswered' | 'needs-more' | 'rejected'

/** A service SAQ the filler starts from when this computer has no draft of it yet. */
export interface ServiceSaq {
  id: string
  attributes: Record<string, unknown>
}

/**
 * One SAQ being filled: its draft on this computer (every change saved at once, one transaction
 * per change), what the rules derive from it, and the two writes that need the service (submit
 * = create, approve). A refusal of the service keeps the draft and points at the requirements.
 */
export function useSaqFiller(
  key: string,
  service?: () => ServiceSaq | undefined,
  options: { readonly?: boolean } = {},
) {
  const draft = useDraft('saq', saqDraft, key)
  const { run } = useOperationCall()
  /** The draft being edited (a reactive copy of the stored one). */
  const state = ref<SaqDraft | null>(null)
  const building = ref(false)
  const buildError = ref<AppError | null>(null)
  /** Problems the service (or the schema, before sending) found, by requirement number. */
  const rejected = reactive(new Map<string, string[]>())
  const otherErrors = ref<string[]>([])
  /** The service refused the template version the draft was answered against. */
  const templateOutdated = ref(false)

  // The stored draft arrives once per account: from then on the screen's copy is the truth.
  watch(
    () => [draft.loaded.value, draft.value.value, service?.()] as const,
    ([loaded, stored, saq]) => {
      if (!loaded || state.value) return
      // An approved SAQ is shown as the service has it: a draft left under its id is not used.
      if (stored && !options.readonly) state.value = plainDraft(stored)
      else if (saq && !buildError.value) void buildFromService()
    },
    { immediate: true },
  )

  /** A draft made from the service's SAQ and its type's template (once; then kept here). */
  async function buildFromService(): Promise<void> {
    const saq = service?.()
    if (!saq || building.value) return
    building.value = true
    buildError.value = null
    const a = saq.attributes
    const typeRef = String(a.saq_type_id ?? a.saq_type ?? '')
    const template = await run('saq.type_template', { path: { id: typeRef } })
    building.value = false
    if (!template.ok) {
      buildError.value = template.error
      return
    }
    const next: SaqDraft = {
      version: 1,
      saqId: saq.id,
      name: String(a.name ?? saq.id),
      description: typeof a.description === 'string' ? a.description : undefined,
      templateId: null,
      template: templateFromService(answered(template.data)),
      answers: answersFromService(a.answers),
      summary: summaryFromService(a.executive_summary),
      attestation: summaryAttestation(a.attestation),
      current: null,
    }
    state.value = next
    if (!options.readonly) await draft.save(plainDraft(next))
  }

  /** Saves the screen's copy now (the drafts store keeps the newest while one is on its way). */
  function persist(): void {
    if (state.value && !options.readonly) void draft.save(plainDraft(state.value))
  }

  /** Changes the draft and saves it. */
  function change(mutate: (d: SaqDraft) => void): void {
    if (!state.value) return
    mutate(state.value)
    persist()
  }

  const answers = computed(() => (state.value ? answersMap(state.value) : new Map()))
  const offered = computed<SaqResponse[]>(() =>
    state.value ? offeredResponses(state.value.template) : [],
  )
  const progress = computed(() =>
    state.value ? progressOf(state.value.template, answers.value) : null,
  )
  const summary = computed(() =>
    state.value ? summaryTable(state.value.template, answers.value) : [],
  )
  const compliance = computed(() => complianceOf(answers.value.values()))
  const blockers = computed(() =>
    state.value
      ? approvalBlockers(state.value.template, answers.value, state.value.attestation)
      : null,
  )

  /** What one requirement's answer still needs (rules and the service's refusals). */
  function problemsOf(number: string): AnswerProblem[] {
    const a = state.value?.answers[number]
    const own = a ? answerProblems(a as Parameters<typeof answerProblems>[0], offered.value) : []
    const refused = (rejected.get(number) ?? [])
      .filter((m) => !own.some((p) => p.message === m))
      .map((message) => ({ field: 'response' as const, message }))
    return [...own, ...refused]
  }

  /** Sets the answer choice of a requirement (other fields of the answer are kept). */
  function setResponse(number: string, response: SaqResponse): void {
    change((d) => {
      const old = d.answers[number]
      d.answers[number] = { ...(old ?? {}), requirement: number, response }
      d.current = number
    })
    rejected.delete(number)
  }

  /** Changes other fields of an answer. */
  function patchAnswer(number: string, patch: Partial<DraftAnswer>): void {
    change((d) => {
      const old = d.answers[number]
      if (!old) return
      d.answers[number] = { ...old, ...patch }
    })
    rejected.delete(number)
  }

  /** Removes an answer. */
  function clearAnswer(number: string): void {
    change((d) => {
      delete d.answers[number]
    })
    rejected.delete(number)
  }

  /**
   * Answers every unanswered required requirement of a section In Place (the usual starting
   * point); the optional ones it leaves unanswered are named in `optionalLeft`.
   */
  function answerRestInPlace(section: string): { answered: number; optionalLeft: string[] } {
    let answered = 0
    const optionalLeft: string[] = []
    change((d) => {
      const s = d.template.sections.find((x) => x.number === section)
      for (const r of s?.requirements ?? [])
        if (d.answers[r.number]) continue
        else if (!r.required) optionalLeft.push(r.number)
        else {
          d.answers[r.number] = { requirement: r.number, response: 'in_place' }
          answered++
        }
    })
    return { answered, optionalLeft }
  }

  /** Requirements shown under a filter. */
  function matches(number: string, required: boolean, filter: RequirementFilter): boolean {
    const a = state.value?.answers[number]
    if (filter === 'unanswered') return !a && required
    if (filter === 'needs-more') return !!a && problemsOf(number).length > 0
    if (filter === 'rejected') return rejected.has(number)
    return true
  }

  /**
   * Records the service's field errors under their requirements: `answers.<number>` (the
   * service's own checks) or `answers.<position>.<field>` (its schema check, by the position in
   * the list that was sent); the rest is shown aside.
   */
  function takeRefusal(error: AppError, sent: readonly { requirement: string }[]): void {
    rejected.clear()
    const rest: string[] = []
    const known = new Set(sent.map((a) => a.requirement))
    for (const [field, messages] of Object.entries(error.fieldErrors ?? {})) {
      const m = /^answers\.(.+)$/.exec(field)
      const byPosition = m ? /^(\d+)(?:\.(.+))?$/.exec(m[1]) : null
      const number = !m
        ? null
        : known.has(m[1]) || !byPosition
          ? m[1]
          : (sent[Number(byPosition[1])]?.requirement ?? null)
      const where =
        byPosition?.[2] && !known.has(m![1]) ? `${byPosition[2].replace(/_/g, ' ')}: ` : ''
      if (number)
        rejected.set(number, [...(rejected.get(number) ?? []), ...messages.map((x) => where + x)])
      else rest.push(...messages.map((x) => `${field.replace(/_/g, ' ')}: ${x}`))
    }
    otherErrors.value = rest
    templateOutdated.value = 'template_version' in (error.fieldErrors ?? {})
  }

  /**
   * Moves the draft to the type's current template: answers to requirements it still has, with
   * choices it still offers, are kept; the others are listed (nothing is dropped silently).
   */
  async function moveToCurrentTemplate(): Promise<{ dropped: string[] } | { error: AppError }> {
    const d = state.value
    if (!d) return { dropped: [] }
    const answer = await run('saq.type_template', { path: { id: d.template.typeId } })
    if (!answer.ok) return { error: answer.error }
    const next = templateFromService(answered(answer.data))
    const numbers = new Set(next.sections.flatMap((s) => s.requirements.map((r) => r.number)))
    const offeredNow = offeredResponses(next)
    const dropped = Object.values(d.answers)
      .filter((a) => !numbers.has(a.requirement) || !offeredNow.includes(a.response))
      .map((a) => a.requirement)
    change((x) => {
      x.template = next
      for (const n of dropped) delete x.answers[n]
    })
    templateOutdated.value = false
    otherErrors.value = []
    rejected.clear()
    return { dropped }
  }

  /** Checks the answers as the service will before sending; false (and marks) when they fail. */
  function checkBeforeSending(): boolean {
    if (!state.value) return false
    rejected.clear()
    otherErrors.value = []
    const list = answersForService(state.value)
    const parsed = saqAnswers.safeParse(list)
    if (parsed.success) return true
    for (const issue of parsed.error.issues) {
      const index = issue.path[0]
      const number = typeof index === 'number' ? list[index]?.requirement : undefined
      if (!number) otherErrors.value.push(issue.message)
      else rejected.set(number, [...(rejected.get(number) ?? []), issue.message])
    }
    return false
  }

  /** Creates the SAQ on the service from a draft that exists only here; its new id, or null. */
  async function submit(): Promise<{ id: string } | { error: AppError } | null> {
    const d = state.value
    if (!d || d.saqId) return null
    if (!checkBeforeSending()) return null
    const answers = answersForService(d)
    const result = await run('saq.create', {
      body: {
        saq_type: d.template.code,
        name: d.name,
        ...(d.description?.trim() ? { description: d.description.trim() } : {}),
        ...(d.templateId ? { template_id: d.templateId } : {}),
        ...(d.template.template_version ? { template_version: d.template.template_version } : {}),
        answers,
        executive_summary: summaryForService(d.summary),
      },
    })
    if (!result.ok) {
      takeRefusal(result.error, answers)
      return { error: result.error }
    }
    return { id: answered(result.data).id }
  }

  /**
   * Approves a submitted SAQ with the draft's final answers and attestation, the evidence files it
   * rests on (listed in the approved PDF) and a note (what the approver confirmed).
   */
  async function approve(
    extra: { evidence?: SaqEvidenceFile[]; note?: string | null } = {},
  ): Promise<{ ok: true } | { error: AppError } | null> {
    const d = state.value
    if (!d?.saqId) return null
    if (!checkBeforeSending()) return null
    const attestation = saqAttestation.safeParse(d.attestation)
    if (!attestation.success) return null
    const answers = answersForService(d)
    const result = await run('saq.approve', {
      path: { id: d.saqId },
      body: {
        answers,
        executive_summary: summaryForService(d.summary),
        attestation: attestation.data,
        ...(extra.evidence?.length ? { evidence: extra.evidence } : {}),
        ...(extra.note ? { note: extra.note } : {}),
      },
    })
    if (!result.ok) {
      takeRefusal(result.error, answers)
      return { error: result.error }
    }
    return { ok: true }
  }

  return {
    draft,
    state,
    building,
    buildError,
    buildFromService,
    rejected,
    otherErrors,
    templateOutdated,
    moveToCurrentTemplate,
    answers,
    offered,
    progress,
    summary,
    compliance,
    blockers,
    problemsOf,
    setResponse,
    patchAnswer,
    clearAnswer,
    answerRestInPlace,
    matches,
    change,
    submit,
    approve,
  }
}
