import type { ApprovalConcern } from '@contract/pci/approval-check'
import { emptySummaryFields, SAQ_SUMMARY_FIELDS } from '@contract/saq'
import type { ConfirmRequest } from '@/stores/confirm'
import type { SaqDraft } from './saqDraft'

/** A part of the executive summary that may be left empty. */
export type SummaryField = keyof typeof SAQ_SUMMARY_FIELDS

const many = (n: number, one: string, more: string) => `${n} ${n === 1 ? one : more}`

/**
 * The question before approving: who attests, how many evidence files the approved PDF lists,
 * and — when answers contradict ScanDesk's evidence or leave an explanation empty (`concerns`), or
 * parts of the executive summary are empty (the PDF would print "Not stated" or "None listed") —
 * each one by name, with "Approve anyway" or "Go back to them". `empty` lists those summary parts
 * in the filler's order.
 */
export function approvalQuestion(
  d: SaqDraft,
  concerns: readonly ApprovalConcern[] = [],
  evidence = 0,
): { request: ConfirmRequest; empty: SummaryField[] } {
  const empty = emptySummaryFields(d.summary)
  const files = evidence
    ? ` The approved PDF lists its ${many(evidence, 'evidence file', 'evidence files')} (name, SHA-256, origin).`
    : ''
  const recorded = concerns.length
    ? " Approving anyway records these answers in the approval's note, which the PDF prints."
    : ''
  const attests = `${d.attestation.signer_name ?? ''} (${d.attestation.signer_title ?? ''}) attests the answers on ${d.attestation.date ?? ''}.${files}${recorded} An approved questionnaire cannot be edited; clone it to revise.`
  const base = {
    title: 'Approve questionnaire',
    detail: attests,
    danger: false,
    testId: 'saq-approve-confirm',
  }
  const saq = `“${d.name}” (SAQ ${d.template.code})`
  if (!empty.length && !concerns.length)
    return {
      empty,
      request: { ...base, message: `Approve ${saq}?`, confirmLabel: 'Approve' },
    }
  if (!concerns.length)
    return {
      empty,
      request: {
        ...base,
        message: `The executive summary of ${saq} leaves ${empty.length === 1 ? 'this part' : 'these parts'} empty; the approved PDF will say “Not stated” or “None listed” there:`,
        items: empty.map((f) => SAQ_SUMMARY_FIELDS[f]),
        confirmLabel: 'Approve anyway',
        cancelLabel: 'Go back to fill them',
      },
    }
  const contradictions = concerns.filter((c) => c.kind === 'contradiction').length
  const explanations = concerns.filter((c) => c.kind === 'empty_explanation').length
  const unchecked = concerns.filter((c) => c.kind === 'unchecked').length
  const what = [
    contradictions
      ? `${many(contradictions, 'answer contradicts', 'answers contradict')} the service's data ScanDesk shows beside ${contradictions === 1 ? 'it' : 'them'}`
      : '',
    explanations
      ? `${many(explanations, 'explanation the answer calls for is', 'explanations the answers call for are')} empty`
      : '',
    unchecked ? `${many(unchecked, 'answer', 'answers')} could not be checked` : '',
    empty.length ? `the executive summary leaves ${many(empty.length, 'part', 'parts')} empty` : '',
  ].filter(Boolean)
  return {
    empty,
    request: {
      ...base,
      message: `Before approving ${saq}: ${what.join('; ')}.`,
      items: [
        ...concerns.map((c) => c.text),
        ...empty.map((f) => `Executive summary: ${SAQ_SUMMARY_FIELDS[f]} is empty.`),
      ],
      confirmLabel: 'Approve anyway',
      cancelLabel: 'Go back to them',
    },
  }
}

/** Where the caret goes for an empty part of the executive summary (inside its panel). */
export const SUMMARY_FIELD_SELECTORS: Record<SummaryField, string> = {
  payment_channels: '[data-testid="saq-channels"] input',
  environment: '#saq-environment',
  service_providers: '[data-testid="saq-add-provider"]',
}
