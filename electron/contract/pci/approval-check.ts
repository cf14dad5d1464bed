import { SAQ_RESPONSE_LABELS, type SaqAnswer, type SaqResponse, type SaqTemplateLike } from '../saq'
import { quarterlyRuns, rescansAfterFailures, runVerdict, type PciRun } from './quarters'
import { pciDataFor } from './requirements'

/*
 * What stands against approving, besides what blocks it (issue 36 §12): answers that contradict the
 * service's data ScanDesk shows beside them, and explanations an answer calls for that were left
 * empty. Neither blocks the approval (the analyst decides); the approval names each one and asks,
 * and a confirmed approval records them in its note. docs/decisions.md, "Approving against the
 * evidence".
 */

/** Answers that say the requirement is met. */
export const IN_PLACE_ANSWERS: readonly SaqResponse[] = [
  'in_place',
  'in_place_ccw',
  'in_place_remediation',
]

/** The service's data at the moment of approving; null where it could not be read (`unread`). */
export interface EvidenceFacts {
  now: Date
  /** 6.3.3: critical and high findings first seen before `before` (a calendar month back). */
  agedFindings: { total: number; before: string } | null
  /** The runs of the last twelve months behind 11.3.x. */
  runs: PciRun[] | null
  /** Why a part could not be read (shown instead of a verdict). */
  unread?: { findings?: string; runs?: string }
}

/**
 * One concern: an answer against the evidence (`contradiction`), an empty explanation the answer
 * calls for (`empty_explanation`), or evidence that could not be read to check the answer
 * (`unchecked`).
 */
export interface ApprovalConcern {
  requirement: string
  kind: 'contradiction' | 'empty_explanation' | 'unchecked'
  response: SaqResponse
  /** One sentence naming the requirement, its answer and what stands against it. */
  text: string
}

const n = (x: number) => x.toLocaleString('en-US')
const plural = (x: number, one: string, many: string) => `${n(x)} ${x === 1 ? one : many}`

/** What the evidence says against an In Place answer of a mapped requirement, or null. */
function against(requirement: string, facts: EvidenceFacts): string | null | undefined {
  const data = pciDataFor(requirement)
  if (!data) return null
  if (data.kind === 'aged_findings') {
    if (!facts.agedFindings) return undefined
    const { total, before } = facts.agedFindings
    return total > 0
      ? `the service lists ${plural(total, 'critical or high finding', 'critical and high findings')} (CVSS 7.0 or more) first seen more than a month ago, before ${before}`
      : null
  }
  if (!facts.runs) return undefined
  const scope = data.scope ?? 'external'
  if (data.kind === 'quarterly_runs') {
    const quarters = quarterlyRuns(facts.runs, scope, facts.now)
    const gaps = quarters.filter((q) => q.state === 'gap').map((q) => q.label)
    const listed = quarters.flatMap((q) => q.runs)
    const passed = listed.filter((r) => r.verdict === 'pass').length
    const parts: string[] = []
    if (gaps.length) parts.push(`no passing ${scope} scan run in ${gaps.join(', ')}`)
    if (listed.length && !passed)
      parts.push(
        listed.length === 1
          ? `the one ${scope} run of the last twelve months did not pass PCI`
          : `none of the ${n(listed.length)} ${scope} runs of the last twelve months passed PCI`,
      )
    return parts.length ? parts.join('; ') : null
  }
  const rescans = rescansAfterFailures(facts.runs, scope, facts.now)
  const missing = rescans.filter((x) => !x.rescan).length
  const failedAgain = rescans.filter((x) => x.rescan && runVerdict(x.rescan) !== 'pass').length
  const parts: string[] = []
  if (missing)
    parts.push(
      `${plural(missing, `failing ${scope} run was`, `failing ${scope} runs were`)} not rescanned`,
    )
  if (failedAgain) parts.push(`${plural(failedAgain, 'rescan', 'rescans')} failed PCI again`)
  return parts.length ? parts.join('; ') : null
}

const filled = (v: string | undefined) => !!v && v.trim().length > 0

/**
 * Every concern about the answers, in the template's order: each In Place answer of a mapped
 * requirement that the service's data contradicts (or that could not be checked), and each In
 * Place with Remediation answer without its account of what was remediated.
 */
export function approvalConcerns(
  template: SaqTemplateLike,
  answers: ReadonlyMap<string, Pick<SaqAnswer, 'response' | 'explanation'>>,
  facts: EvidenceFacts,
): ApprovalConcern[] {
  const out: ApprovalConcern[] = []
  for (const section of template.sections)
    for (const r of section.requirements) {
      const a = answers.get(r.number)
      if (!a) continue
      const label = `${r.number} ${SAQ_RESPONSE_LABELS[a.response]}`
      if (IN_PLACE_ANSWERS.includes(a.response)) {
        const says = against(r.number, facts)
        if (says)
          out.push({
            requirement: r.number,
            kind: 'contradiction',
            response: a.response,
            text: `${label}: ${says}.`,
          })
        else if (says === undefined) {
          const data = pciDataFor(r.number)!
          const why =
            (data.kind === 'aged_findings' ? facts.unread?.findings : facts.unread?.runs) ??
            'it could not be read'
          out.push({
            requirement: r.number,
            kind: 'unchecked',
            response: a.response,
            text: `${label}: not checked against the service's data (${why}).`,
          })
        }
      }
      if (a.response === 'in_place_remediation' && !filled(a.explanation))
        out.push({
          requirement: r.number,
          kind: 'empty_explanation',
          response: a.response,
          text: `${label}: what was remediated, and when, is left empty.`,
        })
    }
  return out
}

/** The longest approval note the service takes (the catalog's `description`). */
export const APPROVAL_NOTE_MAX = 2000

/**
 * The approval's note recording what the approver confirmed: each concern's sentence, as many as
 * fit in APPROVAL_NOTE_MAX characters ("and 3 more" when cut); null when there is none.
 */
export function approvalNote(concerns: readonly ApprovalConcern[], at: Date): string | null {
  if (!concerns.length) return null
  const contradictions = concerns.filter((c) => c.kind === 'contradiction').length
  const empty = concerns.filter((c) => c.kind === 'empty_explanation').length
  const unchecked = concerns.filter((c) => c.kind === 'unchecked').length
  const what = [
    contradictions
      ? plural(contradictions, 'answer that contradicts', 'answers that contradict') +
        " the service's data ScanDesk showed"
      : '',
    empty ? plural(empty, 'empty explanation', 'empty explanations') : '',
    unchecked ? plural(unchecked, 'answer', 'answers') + ' not checked' : '',
  ].filter(Boolean)
  const head = `Approved with ${what.join(', ')}, confirmed by the approver in ScanDesk at ${at.toISOString().slice(0, 16)}Z:`
  let note = head
  for (let i = 0; i < concerns.length; i++) {
    const rest = concerns.length - i - 1
    const next = `${note} ${concerns[i].text}`
    const room = rest ? ` And ${n(rest)} more.`.length : 0
    if (next.length + room > APPROVAL_NOTE_MAX) return `${note} And ${n(concerns.length - i)} more.`
    note = next
  }
  return note
}
