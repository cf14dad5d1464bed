import type { AppError } from '@contract/errors'
import type { DocumentFormat, DocumentKind, ExportJob, ExportState } from '@contract/files'
import type { Db } from './database'

/** Which step a job is at (or ended in): where a retry picks up. */
export type JobPhase = 'generate' | 'download' | 'verify'

/** What an SAQ PDF job knows of its SAQ (from `saq.show` when the job was made). */
export interface SaqJobFacts {
  saqType: string
  organization: string
  status: string
}

/** One stored export job: what the renderer sees (without live progress) plus where to resume. */
export interface ExportJobRow extends Omit<ExportJob, 'progress'> {
  /** SAQ PDFs: the SAQ's type, organization and status (file name, ledger); null otherwise. */
  saq: SaqJobFacts | null
  phase: JobPhase
  /** Where the download goes (folder + our file name), fixed when a download starts. */
  targetPath: string | null
  /** When the service started building the file (to notify after long generations). */
  generationStartedAt: string | null
}

/** Fields of a job that change as it runs. */
export type ExportJobPatch = Partial<
  Pick<
    ExportJobRow,
    | 'state'
    | 'phase'
    | 'error'
    | 'targetPath'
    | 'path'
    | 'sha256'
    | 'ledgerId'
    | 'generationStartedAt'
    | 'resourceName'
  >
>

interface RawJob {
  id: string
  account_id: string
  kind: string
  resource_id: string
  resource_name: string
  format: string
  state: string
  phase: string
  error: string | null
  target_path: string | null
  path: string | null
  sha256: string | null
  ledger_id: string | null
  generation_started_at: string | null
  created_at: string
  updated_at: string
  saq_facts: string | null
}

function parseError(text: string | null): AppError | null {
  if (!text) return null
  try {
    return JSON.parse(text) as AppError
  } catch {
    return { code: 'INTERNAL', message: 'The stored error of this job could not be read.' }
  }
}

function parseFacts(text: string | null): SaqJobFacts | null {
  if (!text) return null
  try {
    const v = JSON.parse(text) as Partial<SaqJobFacts>
    return {
      saqType: String(v.saqType ?? ''),
      organization: String(v.organization ?? ''),
      status: String(v.status ?? ''),
    }
  } catch {
    return null
  }
}

function fromRaw(r: RawJob): ExportJobRow {
  return {
    id: r.id,
    accountId: r.account_id,
    kind: r.kind as DocumentKind,
    resourceId: r.resource_id,
    resourceName: r.resource_name,
    format: r.format as DocumentFormat,
    state: r.state as ExportState,
    phase: r.phase as JobPhase,
    error: parseError(r.error),
    targetPath: r.target_path,
    path: r.path,
    sha256: r.sha256,
    ledgerId: r.ledger_id,
    generationStartedAt: r.generation_started_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    saq: parseFacts(r.saq_facts),
  }
}

const COLUMNS: Record<keyof ExportJobPatch, string> = {
  state: 'state',
  phase: 'phase',
  error: 'error',
  targetPath: 'target_path',
  path: 'path',
  sha256: 'sha256',
  ledgerId: 'ledger_id',
  generationStartedAt: 'generation_started_at',
  resourceName: 'resource_name',
}

/** The export_jobs table (migration 2, rebuilt by 5). */
export class ExportJobsRepo {
  constructor(private readonly db: Db) {}

  /** Inserts a new job. */
  insert(job: ExportJobRow): void {
    const { saq, ...fields } = job
    this.db
      .prepare(
        `INSERT INTO export_jobs (id, account_id, kind, resource_id, resource_name, format, state,
           phase, error, target_path, path, sha256, ledger_id, generation_started_at, created_at,
           updated_at, saq_facts)
         VALUES (@id, @accountId, @kind, @resourceId, @resourceName, @format, @state, @phase,
           @error, @targetPath, @path, @sha256, @ledgerId, @generationStartedAt, @createdAt,
           @updatedAt, @saqFacts)`,
      )
      .run({
        ...fields,
        error: job.error ? JSON.stringify(job.error) : null,
        saqFacts: saq ? JSON.stringify(saq) : null,
      })
  }

  /** One job, or undefined. */
  get(id: string): ExportJobRow | undefined {
    const raw = this.db.prepare('SELECT * FROM export_jobs WHERE id = ?').get(id) as
      RawJob | undefined
    return raw && fromRaw(raw)
  }

  /** The jobs of one account, newest first. */
  listByAccount(accountId: string): ExportJobRow[] {
    const rows = this.db
      .prepare('SELECT * FROM export_jobs WHERE account_id = ? ORDER BY created_at DESC, id')
      .all(accountId) as RawJob[]
    return rows.map(fromRaw)
  }

  /** Every job in one of `states` (all accounts), oldest first. */
  listByStates(states: readonly ExportState[]): ExportJobRow[] {
    if (!states.length) return []
    const marks = states.map(() => '?').join(', ')
    const rows = this.db
      .prepare(`SELECT * FROM export_jobs WHERE state IN (${marks}) ORDER BY created_at, id`)
      .all(...states) as RawJob[]
    return rows.map(fromRaw)
  }

  /** Changes some fields; returns the updated job, or undefined when it does not exist. */
  update(
    id: string,
    patch: ExportJobPatch,
    now = new Date().toISOString(),
  ): ExportJobRow | undefined {
    const sets = ['updated_at = @updatedAt']
    const values: Record<string, unknown> = { id, updatedAt: now }
    for (const [key, column] of Object.entries(COLUMNS) as [keyof ExportJobPatch, string][]) {
      if (!(key in patch)) continue
      const value = patch[key]
      sets.push(`${column} = @${key}`)
      values[key] =
        key === 'error'
          ? value
            ? JSON.stringify(value)
            : null
          : value === undefined
            ? null
            : value
    }
    this.db.prepare(`UPDATE export_jobs SET ${sets.join(', ')} WHERE id = @id`).run(values)
    return this.get(id)
  }

  /** Deletes a job; true when it existed. */
  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM export_jobs WHERE id = ?').run(id).changes > 0
  }
}
