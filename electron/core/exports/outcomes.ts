import { randomUUID } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import type { AppError } from '@contract/errors'
import type { LedgerEntry, Verdict } from '@contract/files'
import { QuarantineRefused } from '../files/quarantine'
import type { HostServices } from '../host'
import type { ExportJobRow } from '../store/export-jobs-repo'
import type { LedgerRepo } from '../store/ledger-repo'
import type { FileOps } from './file-ops'
import type { DownloadPreferences } from './preferences'

const FORMAT_LABEL = { pdf: 'PDF', csv: 'CSV' } as const

/** "the PDF of “Name”" — how messages name a job's document. */
export function describe(job: Pick<ExportJobRow, 'format' | 'resourceName'>): string {
  return `the ${FORMAT_LABEL[job.format]} of “${job.resourceName}”`
}

/** The ledger's detail for an SAQ file whose hash was recorded at download. */
export const SAQ_RECORDED_DETAIL =
  'SHA-256 recorded at download; the service offers no check for SAQ files.'

/** The first 12 hex digits of a digest, for messages. */
export function shortHash(sha256: string): string {
  return sha256.slice(0, 12)
}

/** What the outcome helpers need. */
export interface OutcomeDeps {
  ledger: LedgerRepo
  files: Pick<FileOps, 'quarantineFile'>
  host: Pick<HostServices, 'notify'>
  preferences: () => DownloadPreferences
  accountLabel: (accountId: string) => string
  now: () => Date
}

/** One download's record: inserted the first time, updated when the same job re-verifies. */
export function record(
  deps: OutcomeDeps,
  job: ExportJobRow,
  fields: { path: string; size: number; sha256: string; verdict: Verdict; detail: string | null },
): LedgerEntry {
  const now = deps.now().toISOString()
  const verifiedAt =
    fields.verdict === 'verified' || fields.verdict === 'mismatch' || fields.verdict === 'recorded'
      ? now
      : null
  const existing = job.ledgerId ? deps.ledger.get(job.ledgerId) : undefined
  if (existing && existing.sha256 !== '' && existing.sha256 === fields.sha256) {
    return deps.ledger.update(existing.id, {
      verdict: fields.verdict,
      detail: fields.detail,
      verifiedAt,
      path: fields.path,
    })!
  }
  const id = randomUUID()
  deps.ledger.insert({
    id,
    accountId: job.accountId,
    accountLabel: deps.accountLabel(job.accountId),
    kind: job.kind,
    resourceId: job.resourceId,
    resourceName: job.resourceName,
    format: job.format,
    saq: job.saq ? { saqType: job.saq.saqType, status: job.saq.status, requirement: null } : null,
    ...fields,
    downloadedAt: now,
    verifiedAt,
  })
  return deps.ledger.get(id)!
}

/** Records a download that ended without a file (size 0, no digest): the ledger says why. */
export function recordFailedDownload(
  deps: OutcomeDeps,
  job: ExportJobRow,
  target: string,
  error: AppError,
): LedgerEntry {
  return record(
    deps,
    { ...job, ledgerId: null },
    {
      path: target,
      size: 0,
      sha256: '',
      verdict: 'unverified',
      detail: `Download failed: ${error.message} No file was kept.`,
    },
  )
}

/**
 * A file whose digest the service did not confirm: moved to <folder>/Quarantine/ or deleted, as
 * the settings say. Returns where it is now (null when deleted) and the message for the user.
 */
export async function setAside(
  deps: OutcomeDeps,
  job: ExportJobRow,
  file: string,
  sha256: string,
  expected: string | null,
): Promise<{ path: string | null; message: string }> {
  const what = `The downloaded file is not ${describe(job)} that the service produced: its SHA-256 (${shortHash(sha256)}…) ${expected ? `differs from the service’s (${shortHash(expected)}…)` : 'was not confirmed by the service'}.`
  if (deps.preferences().mismatchAction === 'delete') {
    await fs.rm(file, { force: true })
    return { path: null, message: `${what} It was deleted. Retry to download it again.` }
  }
  let moved: string
  try {
    moved = await deps.files.quarantineFile(file, path.dirname(file))
  } catch (err) {
    if (!(err instanceof QuarantineRefused)) throw err
    // A link or a file where Quarantine should be: the file is not written through it, and an
    // unconfirmed file is not left beside the good ones either.
    await fs.rm(file, { force: true })
    return {
      path: null,
      message: `${what} It was deleted: ${err.error.message}`,
    }
  }
  return {
    path: moved,
    message: `${what} It was moved to ${moved}. Retry to download it again.`,
  }
}

/** A native notification, when the user wants them. */
export function notify(deps: OutcomeDeps, title: string, body: string): void {
  if (!deps.preferences().notifyOnFinish) return
  try {
    deps.host.notify(title, body)
  } catch {
    // A notification that cannot be shown is not worth failing a job for.
  }
}
