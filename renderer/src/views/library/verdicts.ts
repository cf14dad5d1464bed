import type { LedgerEntry, LedgerKind, Verdict } from '@contract/files'

/**
 * How each ledger verdict reads: verified green, mismatch/changed red, missing and recorded grey,
 * unverified amber. `hint` is the tag's tooltip where the label needs one.
 */
export const VERDICT_VIEW: Record<
  Verdict,
  { label: string; type: 'success' | 'danger' | 'info' | 'warning'; hint?: string }
> = {
  verified: { label: 'Verified', type: 'success' },
  recorded: {
    label: 'Recorded at download',
    type: 'info',
    hint: 'The service offers no hash check for SAQ files: ScanDesk recorded the SHA-256 when the file arrived and re-verifies against that record.',
  },
  mismatch: { label: 'Mismatch', type: 'danger' },
  changed: { label: 'Changed on disk', type: 'danger' },
  missing: { label: 'Missing', type: 'info' },
  unverified: { label: 'Unverified', type: 'warning' },
}

/** Verdicts whose detail is a warning (shown in the danger colour). */
export const BAD_VERDICTS: readonly Verdict[] = ['mismatch', 'changed', 'missing', 'unverified']

/** How each kind of ledger entry is named. */
export const KIND_LABEL: Record<LedgerKind, string> = {
  report: 'Report',
  advanced_report: 'Advanced report',
  saq: 'SAQ',
  saq_evidence: 'SAQ evidence',
}

/** The SAQ facts of a row ("SAQ · type A · approved", evidence with its requirement); null for reports. */
export function saqLine(entry: Pick<LedgerEntry, 'kind' | 'saq'>): string | null {
  if (!entry.saq)
    return entry.kind === 'saq' || entry.kind === 'saq_evidence' ? KIND_LABEL[entry.kind] : null
  const parts = [KIND_LABEL[entry.kind]]
  if (entry.saq.saqType) parts.push(`type ${entry.saq.saqType}`)
  if (entry.saq.status) parts.push(entry.saq.status)
  if (entry.saq.requirement) parts.push(`requirement ${entry.saq.requirement}`)
  return parts.join(' · ')
}
