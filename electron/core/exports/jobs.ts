import { randomUUID } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { fail, type AppError } from '@contract/errors'
import type {
  DocumentFormat,
  DocumentKind,
  ExportJob,
  ExportState,
  TransferProgress,
} from '@contract/files'
import type { HostServices } from '../host'
import { isUnreachable } from '../offline/connectivity'
import type { ExportJobPatch, ExportJobRow, ExportJobsRepo } from '../store/export-jobs-repo'
import type { DownloadFolders } from './folders'
import { interruptedJob } from './interrupted'
import {
  Cancelled,
  capital,
  downloadStep,
  generateStep,
  toError,
  verifyStep,
  type JobStepDeps,
  type StepContext,
} from './job-steps'
import { describe } from './outcomes'
import { documentName, isGenerated, saqFacts } from './service'
import { chooseTarget, sameTarget } from './target'

/** What the export jobs need (wired by createExportServices; faked in unit tests). */
export interface ExportJobsDeps extends JobStepDeps {
  jobs: ExportJobsRepo
  folders: DownloadFolders
  host: HostServices
  emit: (job: ExportJob) => void
  log?: (level: 'info' | 'warn' | 'error', message: string) => void
}

/** What exports.generate asks for. */
export interface GenerateRequest {
  accountId: string
  kind: DocumentKind
  resourceId: string
  format: DocumentFormat
}

const ACTIVE: readonly ExportState[] = ['queued', 'generating', 'downloading', 'verifying']
const RETRYABLE: readonly ExportState[] = ['failed', 'cancelled', 'mismatch']
const SIGN_IN_CODES = ['UNAUTHORIZED', 'NOT_SIGNED_IN']
/** The start of the message of a job that waits for the service (it resumes when online). */
export const WAITING_MESSAGE = 'Waiting for the service — will continue when online.'
/**
 * Times in a row a waiting job resumes by itself: a service that answers the connectivity check
 * but stalls the download (a drip slower than the idle timeout) would otherwise be asked again
 * at every check, for ever.
 */
export const MAX_AUTO_RESUMES = 3
const PROGRESS_EVERY_MS = 100

/** Abort reason: the core is closing or the account went away (nothing more is written). */
class Stopped extends Error {}

/** The error of a job that waits for the service: OFFLINE, saying it will continue by itself. */
function waiting(err: unknown): AppError {
  return { code: 'OFFLINE', message: `${WAITING_MESSAGE} ${toError(err).message}` }
}

/**
 * Export jobs: generate (poll "file exists" with backoff) → ready → download → verify, each job
 * persisted so it survives a restart; cancel, retry from the right step, resume after sign-in.
 */
export class ExportJobs {
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>()
  private readonly progress = new Map<string, { value: TransferProgress; emittedAt: number }>()
  /** Automatic resumptions of each waiting job since it last ended well (MAX_AUTO_RESUMES). */
  private readonly resumes = new Map<string, number>()
  private closing = false

  /** What the steps of a job use of this (generate, download, verify: job-steps.ts). */
  private readonly steps: StepContext

  constructor(private readonly deps: ExportJobsDeps) {
    this.steps = {
      deps,
      require: (jobId) => this.require(jobId),
      set: (jobId, patch) => this.set(jobId, patch),
      onProgress: (jobId, value) => this.onProgress(jobId, value),
      clearProgress: (jobId) => void this.progress.delete(jobId),
      closing: () => this.closing,
    }
  }

  /** The renderer's view of a stored job. */
  view(row: ExportJobRow): ExportJob {
    return {
      id: row.id,
      accountId: row.accountId,
      kind: row.kind,
      resourceId: row.resourceId,
      resourceName: row.resourceName,
      format: row.format,
      state: row.state,
      error: row.error,
      progress: row.state === 'downloading' ? (this.progress.get(row.id)?.value ?? null) : null,
      path: row.path,
      sha256: row.sha256,
      ledgerId: row.ledgerId,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    }
  }

  /** The account's jobs, newest first. */
  list(accountId: string): ExportJob[] {
    return this.deps.jobs.listByAccount(accountId).map((r) => this.view(r))
  }

  /** Starts a job (or returns the one already generating the same file). */
  async generate(req: GenerateRequest): Promise<ExportJob> {
    const same = this.deps.jobs
      .listByAccount(req.accountId)
      .find(
        (j) =>
          j.kind === req.kind &&
          j.resourceId === req.resourceId &&
          j.format === req.format &&
          (j.state === 'queued' || j.state === 'generating'),
      )
    if (same) return this.view(same)
    if (req.kind === 'saq' && req.format !== 'pdf')
      fail('VALIDATION', 'An SAQ is downloaded as a PDF only.', {
        fieldErrors: { format: ['must be pdf'] },
      })
    const client = await this.deps.clientFor(req.accountId)
    const now = this.deps.now().toISOString()
    const base = {
      id: randomUUID(),
      ...req,
      error: null,
      targetPath: null,
      path: null,
      sha256: null,
      ledgerId: null,
      generationStartedAt: null,
      createdAt: now,
      updatedAt: now,
    }
    if (!isGenerated(req.kind)) {
      // An SAQ's PDF is made on request by `saq.show` (format=pdf): no generation step, so the
      // job is ready at once; its name, type, organization and status come from `saq.show` (JSON).
      const facts = await saqFacts(client, req.resourceId)
      const row: ExportJobRow = {
        ...base,
        resourceName: facts.name,
        state: 'ready',
        phase: 'download',
        saq: { saqType: facts.saqType, organization: facts.organization, status: facts.status },
      }
      this.deps.jobs.insert(row)
      this.deps.emit(this.view(row))
      return this.view(row)
    }
    let name: string
    try {
      name = await documentName(client, req.kind, req.resourceId)
    } catch (err) {
      if (!isUnreachable(err)) throw err
      // The service cannot be reached: the job is kept, waiting, under the id until it names it.
      const row: ExportJobRow = {
        ...base,
        resourceName: req.resourceId,
        state: 'failed',
        phase: 'generate',
        error: waiting(err),
        saq: null,
      }
      this.deps.jobs.insert(row)
      this.deps.emit(this.view(row))
      return this.view(row)
    }
    const row: ExportJobRow = {
      ...base,
      resourceName: name,
      state: 'queued',
      phase: 'generate',
      saq: null,
    }
    this.deps.jobs.insert(row)
    this.deps.emit(this.view(row))
    this.spawn(row.id, (signal) => generateStep(this.steps, row.id, signal, true))
    return this.view(row)
  }

  /** Downloads a generated file to the account's folder (or where "Save as…" says). */
  async download(jobId: string, saveAs = false): Promise<ExportJob> {
    const job = this.require(jobId)
    if (this.running.has(jobId) || ACTIVE.includes(job.state))
      fail('CONFLICT', 'This export is still running.')
    if (job.phase === 'generate')
      fail('CONFLICT', `${capital(describe(job))} has not been generated yet.`)
    const target = await chooseTarget(this.deps, job, saveAs)
    if (!target) return this.view(job)
    return this.startDownload(jobId, target)
  }

  /** Stops polling or the download (no file is left) → cancelled. */
  async cancel(jobId: string): Promise<ExportJob> {
    const job = this.require(jobId)
    const entry = this.running.get(jobId)
    if (entry) {
      entry.controller.abort(new Cancelled('cancelled'))
      await entry.done
      return this.view(this.require(jobId))
    }
    if (!ACTIVE.includes(job.state)) fail('CONFLICT', 'Only a running export can be cancelled.')
    return this.view(this.set(jobId, { state: 'cancelled', error: null }) ?? job)
  }

  /** Restarts a failed, cancelled or mismatched job from the step it needs. */
  async retry(jobId: string): Promise<ExportJob> {
    const job = this.require(jobId)
    if (this.running.has(jobId) || !RETRYABLE.includes(job.state))
      fail('CONFLICT', 'Only a failed, cancelled or mismatched export can be retried.')
    if (job.phase === 'generate') {
      this.set(jobId, { state: 'queued', error: null, generationStartedAt: null })
      this.spawn(jobId, (signal) => generateStep(this.steps, jobId, signal, true))
      return this.view(this.require(jobId))
    }
    if (job.state === 'failed' && job.phase === 'verify' && job.path && job.sha256) {
      const kept = await fs.stat(job.path).then(
        (s) => s.isFile(),
        () => false,
      )
      if (kept) {
        this.set(jobId, { state: 'verifying', error: null })
        this.spawn(jobId, (signal) => verifyStep(this.steps, jobId, signal))
        return this.view(this.require(jobId))
      }
    }
    const target = job.targetPath
      ? await sameTarget(job.targetPath, this.deps.folders.get(job.accountId))
      : await chooseTarget(this.deps, job, false)
    if (!target) return this.view(job)
    return this.startDownload(jobId, target)
  }

  /** Removes a finished job from the tray (its ledger entry stays). */
  dismiss(jobId: string): { dismissed: true } {
    const job = this.require(jobId)
    if (this.running.has(jobId) || ACTIVE.includes(job.state))
      fail('CONFLICT', 'Cancel the export before removing it.')
    this.deps.jobs.delete(jobId)
    return { dismissed: true }
  }

  /**
   * After a start: jobs that were generating poll again; downloads and verifications that were
   * running when ScanDesk closed fail with "interrupted" (the ledger says so; retry is one click).
   */
  resume(): void {
    for (const job of this.deps.jobs.listByStates(['queued', 'generating']))
      this.spawn(job.id, (signal) =>
        generateStep(
          this.steps,
          job.id,
          signal,
          job.state === 'queued' || !job.generationStartedAt,
        ),
      )
    for (const job of this.deps.jobs.listByStates(['downloading', 'verifying'])) {
      this.set(job.id, interruptedJob(this.deps, job))
      this.deps.libraryChanged(job.accountId)
    }
  }

  /** The account signed in again: jobs that failed for want of a session carry on. */
  accountSignedIn(accountId: string): void {
    for (const job of this.deps.jobs.listByAccount(accountId)) {
      if (job.state !== 'failed' || !SIGN_IN_CODES.includes(job.error?.code ?? '')) continue
      this.retry(job.id).catch((err: unknown) =>
        this.deps.log?.('warn', `export ${job.id} could not resume: ${toError(err).code}`),
      )
    }
  }

  /**
   * The account's service answers again: jobs that stopped because it could not be reached
   * (OFFLINE, waiting) carry on by themselves.
   */
  accountOnline(accountId: string): void {
    for (const job of this.deps.jobs.listByAccount(accountId)) {
      if (job.state !== 'failed' || !job.error?.message.startsWith(WAITING_MESSAGE)) continue
      if (this.running.has(job.id)) continue
      const resumed = this.resumes.get(job.id) ?? 0
      if (resumed >= MAX_AUTO_RESUMES) {
        this.resumes.delete(job.id)
        const why = job.error.message.slice(WAITING_MESSAGE.length).trim()
        this.set(job.id, {
          error: {
            code: job.error.code,
            message: `${why} The service answers again, but the export failed ${resumed + 1} times in a row, so ScanDesk stopped retrying by itself. Retry when the service works normally.`,
          },
        })
        continue
      }
      this.resumes.set(job.id, resumed + 1)
      this.retry(job.id).catch((err: unknown) =>
        this.deps.log?.('warn', `export ${job.id} could not resume: ${toError(err).code}`),
      )
    }
  }

  /** The account was removed (its jobs went with it): stops whatever of it still runs. */
  accountRemoved(accountId: string): void {
    for (const [jobId, entry] of this.running) {
      const job = this.deps.jobs.get(jobId)
      if (!job || job.accountId === accountId) entry.controller.abort(new Stopped('removed'))
    }
  }

  /** Resolves when no job is running (tests). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running.values()].map((e) => e.done))
  }

  /** Stops every job without changing its stored state (the next start resumes or fails it). */
  async close(): Promise<void> {
    this.closing = true
    for (const entry of this.running.values()) entry.controller.abort(new Stopped('closing'))
    await this.idle()
  }

  // --- plumbing ------------------------------------------------------------------------------

  private startDownload(jobId: string, target: { folder: string; fileName: string }): ExportJob {
    this.progress.delete(jobId)
    const row = this.set(jobId, {
      state: 'downloading',
      phase: 'download',
      error: null,
      targetPath: path.join(target.folder, target.fileName),
      path: null,
      sha256: null,
      ledgerId: null,
    })!
    this.spawn(jobId, (signal) =>
      downloadStep(this.steps, jobId, signal, target.folder, target.fileName),
    )
    return this.view(row)
  }

  private spawn(jobId: string, task: (signal: AbortSignal) => Promise<void>): void {
    const controller = new AbortController()
    const entry = { controller, done: Promise.resolve() }
    this.running.set(jobId, entry)
    entry.done = (async () => {
      try {
        await task(controller.signal)
      } catch (err) {
        await this.settle(jobId, err, controller.signal)
      } finally {
        if (this.running.get(jobId) === entry) this.running.delete(jobId)
        this.progress.delete(jobId)
      }
    })()
  }

  private async settle(jobId: string, err: unknown, signal: AbortSignal): Promise<void> {
    if (this.closing || signal.reason instanceof Stopped) return
    const job = this.deps.jobs.get(jobId)
    if (!job) return
    if (signal.reason instanceof Cancelled) {
      this.set(jobId, { state: 'cancelled', error: null, path: null, sha256: null })
      return
    }
    const error = isUnreachable(err)
      ? {
          ...toError(err),
          code: 'OFFLINE' as const,
          message: `${WAITING_MESSAGE} ${toError(err).message}`,
        }
      : toError(err)
    if (error.code === 'INTERNAL')
      this.deps.log?.(
        'error',
        `export ${jobId} failed: ${err instanceof Error ? err.name : typeof err}`,
      )
    this.set(jobId, { state: 'failed', error })
  }

  private onProgress(jobId: string, value: TransferProgress): void {
    const last = this.progress.get(jobId)
    const now = Date.now()
    const due = !last || now - last.emittedAt >= PROGRESS_EVERY_MS || value.bytes === value.total
    this.progress.set(jobId, { value, emittedAt: due ? now : last.emittedAt })
    const job = due ? this.deps.jobs.get(jobId) : undefined
    if (job?.state === 'downloading') this.deps.emit(this.view(job))
  }

  private require(jobId: string): ExportJobRow {
    return this.deps.jobs.get(jobId) ?? fail('NOT_FOUND', 'That export no longer exists.')
  }

  private set(jobId: string, patch: ExportJobPatch): ExportJobRow | undefined {
    if (patch.state === 'verified' || patch.state === 'cancelled') this.resumes.delete(jobId)
    const row = this.deps.jobs.update(jobId, patch, this.deps.now().toISOString())
    if (row) this.deps.emit(this.view(row))
    return row
  }
}
