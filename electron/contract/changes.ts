import { z } from 'zod'
import { accountId } from './accounts'
import type { CsvExportOutcome } from './csv'
import { absolutePath } from './files'
import type { RunComparison } from './findings/compare'

/** A scan's or a run's id as the service gives it (the catalog's path id rule). */
const serviceId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'is not an id')

const twoRuns = {
  accountId,
  scanId: serviceId,
  from: serviceId.optional(),
  to: serviceId.optional(),
}
const namedRuns = <T extends { from?: string; to?: string }>(schema: z.ZodType<T>) =>
  schema
    .refine((v) => (v.from === undefined) === (v.to === undefined), {
      message: 'name both runs, or neither',
      path: ['to'],
    })
    .refine((v) => v.from === undefined || v.from !== v.to, {
      message: 'choose two different runs',
      path: ['to'],
    })

/** Inputs of the run comparison channels (checked in main before any work). */
export const changesInputs = {
  /**
   * The runs of a scan's history that may be compared (each saying whether ScanDesk keeps a
   * snapshot of it) and the snapshots, newest first. A completed scan whose latest run has none
   * gets one first (online only).
   */
  'changes.snapshots': z.strictObject({ accountId, scanId: serviceId }),
  /**
   * What changed between two completed runs of a scan: `from` and `to` run ids of its history
   * (in either order), each exact from its snapshot or else read from first/last seen times;
   * without them, the latest completed run against the one before it.
   */
  'changes.compare': namedRuns(z.strictObject(twoRuns)),
  /**
   * The same comparison saved as CSV through the CSV export (save dialog, or in browser mode a
   * typed path inside the user's folders; formula cells escaped): one row per finding and group.
   */
  'changes.exportCsv': namedRuns(
    z.strictObject({ ...twoRuns, path: absolutePath.optional(), replace: z.boolean().optional() }),
  ),
}

/** One run ScanDesk keeps a snapshot of. */
export interface SnapshotSummary {
  runId: string
  /** When the run finished (the service's time). */
  finishedAt: string
  /** When ScanDesk took the snapshot. */
  takenAt: string
  /** Findings the run saw. */
  findings: number
}

/** One run of a scan's history as the run pickers offer it. */
export interface ScanRunChoice {
  runId: string
  /** The run's status as the history gives it (completed, stopped, failed, running, …). */
  status: string
  /** Null for a run only a snapshot still names (older than the history's first 100). */
  startedAt: string | null
  finishedAt: string | null
  /** Only completed runs are compared (a stopped or failed one did not scan every host). */
  comparable: boolean
  /** ScanDesk keeps a snapshot of it: its side of a comparison is exact. */
  snapshot: boolean
}

/** A run as a comparison names it. */
export interface ComparedRun {
  runId: string
  startedAt: string
  finishedAt: string | null
  /**
   * `snapshot`: the findings ScanDesk kept when it saw the run complete (exact); `times`: read
   * from the scan's findings' first and last seen times (approximate: `notes` says why).
   */
  source: 'snapshot' | 'times'
}

/** The answer of changes.compare. */
export interface ChangesAnswer {
  /**
   * `snapshots`: exact, from two snapshots; `times`: at least one run read from first/last seen
   * times (each run's `source` says which); `none`: the data cannot say (`notes` says why).
   */
  basis: 'snapshots' | 'times' | 'none'
  from: ComparedRun | null
  to: ComparedRun | null
  comparison: RunComparison | null
  /** Sentences the view shows as they are: what the data cannot say, and why. */
  notes: string[]
  /** True when the findings were read from the offline copy. */
  fromCache: boolean
}

/** Events of the run comparison. */
export interface ChangesEvents {
  /** A snapshot of a run was taken (the scan's Changes view asks again). */
  'changes.snapshotTaken': { accountId: string; scanId: string; snapshot: SnapshotSummary }
}

/** Output type of each channel. */
export interface ChangesOutputs {
  'changes.snapshots': { runs: ScanRunChoice[]; snapshots: SnapshotSummary[]; notes: string[] }
  'changes.compare': ChangesAnswer
  'changes.exportCsv': CsvExportOutcome
}
