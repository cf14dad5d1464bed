import { emptySummaryFields, SAQ_SUMMARY_FIELDS } from '@contract/saq'
import type { ConfirmRequest } from '@/stores/confirm'
import type { SaqDraft } from './draft'

/** A part of the executive summary that may be left empty. */
export type SummaryField = keyof typeof SAQ_SUMMARY_FIELDS

/**
 * The question before approving: who attests, and — when parts of the executive summary are empty
 * (the PDF would print "Not stated" or "None listed") — which ones, with "Approve anyway" or "Go
 * back to fill them". `empty` lists those parts in the filler's order.
 */
export function approvalQuestion(d: SaqDraft): { request: ConfirmRequest; empty: SummaryField[] } {
  const empty = emptySummaryFields(d.summary)
  const attests = `${d.attestation.signer_name ?? ''} (${d.attestation.signer_title ?? ''}) attests the answers on ${d.attestation.date ?? ''}. An approved questionnaire cannot be edited; clone it to revise.`
  const base = {
    title: 'Approve questionnaire',
    detail: attests,
    danger: false,
    testId: 'saq-approve-confirm',
  }
  if (!empty.length)
    return {
      empty,
      request: {
        ...base,
        message: `Approve “${d.name}” (SAQ ${d.template.code})?`,
        confirmLabel: 'Approve',
      },
    }
  return {
    empty,
    request: {
      ...base,
      message: `The executive summary of “${d.name}” (SAQ ${d.template.code}) leaves ${empty.length === 1 ? 'this part' : 'these parts'} empty; the approved PDF will say “Not stated” or “None listed” there:`,
      items: empty.map((f) => SAQ_SUMMARY_FIELDS[f]),
      confirmLabel: 'Approve anyway',
      cancelLabel: 'Go back to fill them',
    },
  }
}

/** Where the caret goes for an empty part of the executive summary (inside its panel). */
export const SUMMARY_FIELD_SELECTORS: Record<SummaryField, string> = {
  payment_channels: '[data-testid="saq-channels"] input',
  environment: '#saq-environment',
  service_providers: '[data-testid="saq-add-provider"]',
}
