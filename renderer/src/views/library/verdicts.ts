import type { Verdict } from '@contract/files'

/** How each ledger verdict reads: verified green, mismatch/changed red, missing grey, unverified amber. */
export const VERDICT_VIEW: Record<
  Verdict,
  { label: string; type: 'success' | 'danger' | 'info' | 'warning' }
> = {
  verified: { label: 'Verified', type: 'success' },
  mismatch: { label: 'Mismatch', type: 'danger' },
  changed: { label: 'Changed on disk', type: 'danger' },
  missing: { label: 'Missing', type: 'info' },
  unverified: { label: 'Unverified', type: 'warning' },
}
