import fs from 'node:fs'
import type { AppError } from '@contract/errors'
import type { ExportJobPatch, ExportJobRow } from '../store/export-jobs-repo'
import { record, recordFailedDownload, type OutcomeDeps } from './outcomes'

const DOWNLOAD: AppError = {
  code: 'CANCELLED',
  message: 'Interrupted: ScanDesk was closed during the download. Retry to download it again.',
}
const VERIFY: AppError = {
  code: 'CANCELLED',
  message: 'Interrupted: ScanDesk was closed before the file was verified. Retry to verify it.',
}

/**
 * A job found downloading or verifying at start (ScanDesk closed under it): recorded in the
 * ledger (no file, or a file not yet verified) and failed with "interrupted"; retry is one click.
 */
export function interruptedJob(deps: OutcomeDeps, job: ExportJobRow): ExportJobPatch {
  if (job.state === 'downloading') {
    const entry = recordFailedDownload(deps, job, job.targetPath ?? '', DOWNLOAD)
    return { state: 'failed', error: DOWNLOAD, ledgerId: entry.id }
  }
  if (!job.path || !job.sha256) return { state: 'failed', error: VERIFY }
  let size = 0
  try {
    size = fs.statSync(job.path).size
  } catch {
    // Gone already: the retry downloads it again.
  }
  const entry = record(deps, job, {
    path: job.path,
    size,
    sha256: job.sha256,
    verdict: 'unverified',
    detail: VERIFY.message,
  })
  return { state: 'failed', error: VERIFY, ledgerId: entry.id }
}
