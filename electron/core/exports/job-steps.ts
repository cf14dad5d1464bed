// The steps of an export job: generate (ask the service, poll "file exists" with backoff), then
// download into the folder, then verify the file's SHA-256 with the service; each records its
// outcome in the ledger and tells the user. ExportJobs (jobs.ts) runs them and settles failures.
import fs from 'node:fs/promises'
import path from 'node:path'
import { AppFailure, fail, type AppError } from '@contract/errors'
import type { TransferProgress, Verdict } from '@contract/files'
import { DownloadRefused } from '../files/download'
import type { AccountClient } from '../http/client'
import type { ExportJobPatch, ExportJobRow } from '../store/export-jobs-repo'
import { backoffDelay, DEFAULT_BACKOFF, sleep, type BackoffOptions } from './backoff'
import type { FileOps } from './file-ops'
import {
  describe,
  notify,
  record,
  SAQ_RECORDED_DETAIL,
  recordFailedDownload,
  setAside,
  type OutcomeDeps,
} from './outcomes'
import {
  documentName,
  downloadOp,
  fileState,
  isGenerated,
  requestGeneration,
  verifyWithService,
} from './service'

/** Generations that took longer than this get a notification when ready. */
export const LONG_GENERATION_MS = 5_000

/** Abort reason: the user cancelled the job (a file being verified is removed). */
export class Cancelled extends Error {}

/** The AppError of a step's failure (INTERNAL for anything that is not an AppFailure). */
export function toError(err: unknown): AppError {
  if (err instanceof AppFailure) return err.error
  return { code: 'INTERNAL', message: 'The export failed inside ScanDesk.' }
}

/** The text with its first letter in capitals (a message starting with `describe(job)`). */
export const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/** What the steps need of the services (part of ExportJobsDeps). */
export interface JobStepDeps extends OutcomeDeps {
  files: FileOps
  clientFor: (accountId: string) => Promise<AccountClient>
  libraryChanged: (accountId: string) => void
  backoff?: BackoffOptions
}

/** What a step needs of the ExportJobs running it. */
export interface StepContext {
  readonly deps: JobStepDeps
  /** The stored job; NOT_FOUND when it is gone. */
  require(jobId: string): ExportJobRow
  /** Updates the stored job and tells the renderer. */
  set(jobId: string, patch: ExportJobPatch): ExportJobRow | undefined
  /** A download's progress (shown, throttled). */
  onProgress(jobId: string, value: TransferProgress): void
  /** The download ended: no progress is shown any more. */
  clearProgress(jobId: string): void
  /** True once the jobs are closing: a failure then is left for the next start. */
  closing(): boolean
}

/**
 * Asks the service for the file (when `request`) and polls until it is ready → ready, phase
 * download; a generation the service reports failed throws SERVER. Names a job queued while the
 * service could not be reached; notifies when a long generation is ready.
 */
export async function generateStep(
  ctx: StepContext,
  jobId: string,
  signal: AbortSignal,
  request: boolean,
): Promise<void> {
  let job = ctx.require(jobId)
  const kind = job.kind
  if (!isGenerated(kind)) {
    ctx.set(jobId, { state: 'ready', phase: 'download', error: null })
    return
  }
  const client = await ctx.deps.clientFor(job.accountId)
  const call = { signal }
  // Queued while the service could not be reached: it is named now.
  if (job.resourceName === job.resourceId) {
    const named = await documentName(client, kind, job.resourceId, call)
    if (named !== job.resourceName) job = ctx.set(jobId, { resourceName: named }) ?? job
  }
  const startedAt = job.generationStartedAt ?? ctx.deps.now().toISOString()
  // Stored before the request leaves: a start after a crash with the request in flight finds the
  // job generating and asks the service how the file stands (asking again only for a file it
  // does not have), so the request is never sent twice.
  job = ctx.set(jobId, { state: 'generating', error: null, generationStartedAt: startedAt })!
  let status: 'generating' | 'ready' = 'generating'
  if (request) status = await requestGeneration(client, kind, job.resourceId, job.format, call)
  for (let attempt = 0; status !== 'ready'; attempt++) {
    await sleep(backoffDelay(attempt, ctx.deps.backoff ?? DEFAULT_BACKOFF), signal)
    const state = await fileState(client, kind, job.resourceId, job.format, call)
    if (state.status === 'ready') status = 'ready'
    else if (state.status === 'failed')
      fail('SERVER', `The service could not generate ${describe(job)}. Retry to ask it again.`)
    else if (state.status === 'not_generated')
      await requestGeneration(client, kind, job.resourceId, job.format, call)
  }
  job = ctx.set(jobId, { state: 'ready', phase: 'download' })!
  if (ctx.deps.now().getTime() - Date.parse(startedAt) > LONG_GENERATION_MS)
    notify(ctx.deps, 'Report ready', `${capital(describe(job))} is ready to download.`)
}

/**
 * Downloads the file into `folder` as `fileName` (hashed as it arrives) → verifying, then
 * verifies it. A failed download is recorded in the ledger (unless refused for its size: no byte
 * was kept) and notified.
 */
export async function downloadStep(
  ctx: StepContext,
  jobId: string,
  signal: AbortSignal,
  folder: string,
  fileName: string,
): Promise<void> {
  const job = ctx.require(jobId)
  const target = path.join(folder, fileName)
  let result: { path: string; size: number; sha256: string }
  try {
    const client = await ctx.deps.clientFor(job.accountId)
    result = await ctx.deps.files.downloadToFolder({
      client,
      opId: downloadOp(job.kind),
      input: { path: { id: job.resourceId }, query: { format: job.format } },
      folder,
      fileName,
      format: job.format,
      signal,
      onProgress: (p) => ctx.onProgress(jobId, p),
      maxBytes: ctx.deps.preferences().maxDownloadBytes,
    })
  } catch (err) {
    if (!signal.aborted && !ctx.closing()) {
      const error = toError(err)
      // Refused for its size: no byte was kept, so the library has nothing to record.
      if (!(err instanceof DownloadRefused)) {
        const entry = recordFailedDownload(ctx.deps, job, target, error)
        ctx.set(jobId, { ledgerId: entry.id })
        ctx.deps.libraryChanged(job.accountId)
      }
      notify(ctx.deps, 'Download failed', `${capital(describe(job))}: ${error.message}`)
    }
    throw err
  }
  ctx.clearProgress(jobId)
  ctx.set(jobId, {
    state: 'verifying',
    phase: 'verify',
    path: result.path,
    sha256: result.sha256,
  })
  await verifyStep(ctx, jobId, signal, result.size)
}

/**
 * Verifies the downloaded file with the service → verified, or mismatch (the file set aside as
 * the settings say); an SAQ's PDF has no check, its SHA-256 is recorded. Every verdict goes to the
 * ledger; a check that could not be made leaves the file recorded as unverified.
 */
export async function verifyStep(
  ctx: StepContext,
  jobId: string,
  signal: AbortSignal,
  knownSize?: number,
): Promise<void> {
  const job = ctx.require(jobId)
  const file = job.path!
  const sha256 = job.sha256!
  const size = knownSize ?? (await fs.stat(file)).size
  const kind = job.kind
  /** The file's ledger entry with `verdict` (at `at`, where the file is now). */
  const recordAs = (verdict: Verdict, detail: string | null, at = file) =>
    record(ctx.deps, job, { path: at, size, sha256, verdict, detail })
  if (!isGenerated(kind)) {
    // An SAQ's PDF: the service offers no hash check, so its SHA-256 is recorded as it arrived
    // (ledger verdict 'recorded'; re-verification compares with that record). The job itself
    // ends 'verified' — every step it has (download, hash, record) succeeded; the job states
    // have no 'recorded', and the library is where the verdict is read.
    const entry = recordAs('recorded', SAQ_RECORDED_DETAIL)
    ctx.set(jobId, { state: 'verified', ledgerId: entry.id, error: null })
    ctx.deps.libraryChanged(job.accountId)
    notify(ctx.deps, 'SAQ saved', `${capital(describe(job))} was saved; its SHA-256 was recorded.`)
    return
  }
  let verdict: { match: boolean; expected: string | null }
  try {
    const client = await ctx.deps.clientFor(job.accountId)
    verdict = await verifyWithService(client, kind, job.resourceId, job.format, sha256, {
      signal,
    })
  } catch (err) {
    if (signal.reason instanceof Cancelled) await fs.rm(file, { force: true })
    else if (!signal.aborted && !ctx.closing()) {
      const error = toError(err)
      const detail = `Saved, but not verified: the service could not be asked to confirm the file (${error.message}). Retry to verify it.`
      const entry = recordAs('unverified', detail)
      ctx.set(jobId, { ledgerId: entry.id })
      ctx.deps.libraryChanged(job.accountId)
    }
    throw err
  }
  if (verdict.match) {
    const entry = recordAs('verified', null)
    ctx.set(jobId, { state: 'verified', ledgerId: entry.id, error: null })
    ctx.deps.libraryChanged(job.accountId)
    notify(ctx.deps, 'Download verified', `${capital(describe(job))} was saved and verified.`)
    return
  }
  const aside = await setAside(ctx.deps, job, file, sha256, verdict.expected)
  const entry = recordAs('mismatch', aside.message, aside.path ?? file)
  ctx.set(jobId, {
    state: 'mismatch',
    path: aside.path,
    ledgerId: entry.id,
    error: { code: 'INTEGRITY_FAILED', message: aside.message },
  })
  ctx.deps.libraryChanged(job.accountId)
  notify(ctx.deps, 'Download did not verify', aside.message)
}
