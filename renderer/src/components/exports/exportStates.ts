import type { AppError } from '@contract/errors'
import type { DocumentKind, ExportJob, ExportState } from '@contract/files'

type TagType = 'success' | 'warning' | 'info' | 'danger' | 'primary'

/** How each job state reads in the tray and in the report tables. */
export const EXPORT_STATE_VIEW: Record<ExportState, { label: string; type: TagType }> = {
  queued: { label: 'Queued', type: 'info' },
  generating: { label: 'Generating', type: 'primary' },
  ready: { label: 'Ready to download', type: 'warning' },
  downloading: { label: 'Downloading', type: 'primary' },
  verifying: { label: 'Verifying', type: 'primary' },
  verified: { label: 'Verified', type: 'success' },
  mismatch: { label: 'Hash mismatch', type: 'danger' },
  failed: { label: 'Failed', type: 'danger' },
  cancelled: { label: 'Cancelled', type: 'info' },
}

/** What a job that stopped for want of the service says while main waits to resume it. */
export const WAITING_TEXT = 'Waiting for the service — will continue when online'

/** True for a job that stopped because the service could not be reached: main resumes it. */
export function isWaiting(job: Pick<ExportJob, 'state' | 'error'>): boolean {
  return job.state === 'failed' && job.error?.code === 'OFFLINE'
}

/**
 * How a job's state reads for its kind: an SAQ PDF has no service-side check, so its finished
 * job says the hash was recorded rather than verified; a job stopped offline is waiting, not failed.
 */
export function exportStateView(state: ExportState, kind?: DocumentKind, error?: AppError | null) {
  if (isWaiting({ state, error: error ?? null }))
    return { label: 'Waiting for the service', type: 'info' as TagType }
  if (kind === 'saq' && state === 'verified')
    return { label: 'Saved, hash recorded', type: 'success' as TagType }
  if (kind === 'saq' && state === 'verifying')
    return { label: 'Recording hash', type: 'primary' as TagType }
  return EXPORT_STATE_VIEW[state]
}
