// The SAQ compliance statuses and their labels, free of zod so the renderer's first screen can
// name them without loading the schemas (../saq re-exports them).

/** Compliance status derived from the answers. */
export const SAQ_COMPLIANCE = ['compliant', 'non_compliant', 'compliant_legal_exception'] as const
/** One compliance status. */
export type SaqCompliance = (typeof SAQ_COMPLIANCE)[number]

/** Labels of the compliance statuses. */
export const SAQ_COMPLIANCE_LABELS: Record<SaqCompliance, string> = {
  compliant: 'Compliant',
  non_compliant: 'Non-Compliant',
  compliant_legal_exception: 'Compliant with legal exception',
}
