import {
  answerProblems,
  offeredResponses,
  SAQ_RESPONSES,
  type SaqAnswer,
  type SaqResponse,
  type SaqTemplateLike,
} from './saq'

/*
 * How far a questionnaire is and what its answers add up to (docs/decisions.md, "Self-assessment
 * questionnaires"): one count of requirements said everywhere — the required ones —, the optional
 * ones apart and named as such, and the per-section summary table. Used by the filler, the drafts
 * list and the sandbox alike.
 */

/**
 * Progress of one section or of the whole questionnaire. One count is said everywhere: the
 * required requirements (`total`, which answering an optional one never changes); the optional
 * ones are counted apart and named as such (issue 36: "0 of 139", later "141 of 141").
 */
export interface SaqProgress {
  /** Required requirements. */
  total: number
  /** Required requirements answered. */
  answered: number
  /** Optional requirements, and how many of them are answered. */
  optional: number
  optionalAnswered: number
  /** Answered (required or optional), but the answer still needs something (explanation, worksheet, allowed choice). */
  incomplete: number
}

/** Progress of every section and overall. */
export function progressOf(
  template: SaqTemplateLike,
  answers: ReadonlyMap<string, SaqAnswer>,
): { sections: Map<string, SaqProgress>; overall: SaqProgress } {
  const offered = offeredResponses(template)
  const sections = new Map<string, SaqProgress>()
  const empty = (): SaqProgress => ({
    total: 0,
    answered: 0,
    optional: 0,
    optionalAnswered: 0,
    incomplete: 0,
  })
  const overall = empty()
  for (const section of template.sections) {
    const p = empty()
    for (const r of section.requirements) {
      const a = answers.get(r.number)
      if (r.required) {
        p.total++
        if (a) p.answered++
      } else {
        p.optional++
        if (a) p.optionalAnswered++
      }
      if (a && answerProblems(a, offered).length) p.incomplete++
    }
    sections.set(section.number, p)
    for (const k of Object.keys(p) as (keyof SaqProgress)[]) overall[k] += p[k]
  }
  return { sections, overall }
}

/** The optional requirements of a template (numbers, in the template's order). */
export function optionalRequirements(template: SaqTemplateLike): string[] {
  return template.sections
    .flatMap((s) => s.requirements.filter((r) => !r.required))
    .map((r) => r.number)
}

/**
 * How a questionnaire's size is said everywhere: "139 required requirements and 2 optional" or
 * "30 requirements" when none is optional.
 */
export function describeSize(required: number, optional: number): string {
  const n = (x: number) => x.toLocaleString('en-US')
  if (!optional) return `${n(required)} ${required === 1 ? 'requirement' : 'requirements'}`
  return `${n(required)} required ${required === 1 ? 'requirement' : 'requirements'} and ${n(optional)} optional`
}

/** One row of the per-requirement summary table: a principal requirement's answers by choice. */
export interface SaqSummaryRow {
  section: string
  title: string
  counts: Record<SaqResponse, number>
  unanswered: number
}

/** The summary table: per section (principal requirement), how many of each answer. */
export function summaryTable(
  template: SaqTemplateLike,
  answers: ReadonlyMap<string, SaqAnswer>,
): SaqSummaryRow[] {
  return template.sections.map((section) => {
    const counts = Object.fromEntries(SAQ_RESPONSES.map((r) => [r, 0])) as Record<
      SaqResponse,
      number
    >
    let unanswered = 0
    for (const r of section.requirements) {
      const a = answers.get(r.number)
      if (a) counts[a.response]++
      else if (r.required) unanswered++
    }
    return { section: section.number, title: section.title, counts, unanswered }
  })
}
