// Snapshots of runs and the comparison of two runs (issue 19; docs/decisions.md, "Comparing
// runs" and "Snapshots of runs").
import type { ChangesAnswer, ComparedRun, ScanRunChoice, SnapshotSummary } from '@contract/changes'
import { AppFailure } from '@contract/errors'
import {
  compareRuns,
  seenFromTimes,
  withoutTimes,
  type SnapshotFinding,
} from '@contract/findings/compare'
import type { SnapshotsRepo } from '../store/snapshots-repo'
import { findingsOf, runsOf, seenBy, type Read, type Run } from './findings'

/** What the service needs from the rest of main. */
export interface ChangesDeps {
  snapshots: SnapshotsRepo
  /** Reads from the service itself (a snapshot is never taken from the offline copy). */
  online(accountId: string): Read
  /** Reads under the offline policy (the copy when the service cannot be reached). */
  offline(accountId: string): Read
  /** A snapshot was taken (the windows refresh the scan's Changes view). */
  taken(accountId: string, scanId: string, snapshot: SnapshotSummary): void
  log: (level: 'info' | 'warn' | 'error', message: string) => void
}

export const NOTE = {
  noRun: 'The scan has no completed run yet, so there is nothing to compare.',
  firstRun:
    'This is the scan’s only completed run: there is no earlier run to compare it with. Every finding it saw is listed under its findings.',
  times:
    'A run without a snapshot is read from the findings’ first and last seen times, as the service gives them: the findings last seen from its start on and first seen before the scan’s next run began. A finding fixed and found again in between reads as seen throughout, and severities and CVSS scores are as they stand now, so whether one changed is not known. ScanDesk takes a snapshot when it sees a run complete and keeps the newest 10 runs of a scan; runs that ended while it was not running, or before this account was added, have none.',
  damaged: (which: string) =>
    `The snapshot of the ${which} run does not open (it was altered or sealed under another key), so that run is read from times instead.`,
  locked: (which: string) =>
    `The snapshot of the ${which} run cannot be opened without the keychain, so that run is read from times instead.`,
  unknownRun: (runId: string) =>
    `Run ${runId} is not in this scan’s history (its latest 100 runs) and ScanDesk kept no snapshot of it, so it cannot be compared.`,
  notCompleted: (runId: string, status: string) =>
    `Run ${runId} did not complete (${status}): not every host was scanned, so what it did not find is not known to be fixed. Choose a completed run.`,
  cut: 'The scan has more than 50,000 findings: only the first 50,000 were compared.',
  skipped: (n: number) =>
    `${n} ${n === 1 ? 'finding does' : 'findings do'} not have the expected shape and ${n === 1 ? 'was' : 'were'} left out.`,
  leftOut: (n: number) =>
    `${n} ${n === 1 ? 'finding names' : 'findings name'} no vulnerability or carry no usable times and ${n === 1 ? 'is' : 'are'} not compared.`,
  noSnapshot: (why: string) => `No snapshot of the latest run was taken: ${why}`,
  noHistory: (why: string) =>
    `The scan’s history could not be read (${why}): only the runs ScanDesk kept a snapshot of are offered.`,
}

/** A run of the history, or one only a snapshot still names (older than the history's first 100). */
type KnownRun = Run & { onlySnapshot?: true }

/** A scan's history as the comparison reads it: its runs newest first, and where they came from. */
interface History {
  runs: Run[]
  fromCache: boolean
}

const compared = (run: Run, source: ComparedRun['source']): ComparedRun => ({
  runId: run.id,
  startedAt: run.started_at,
  finishedAt: run.finished_at,
  source,
})
const why = (err: unknown) => (err instanceof AppFailure ? err.message : 'it could not be read.')
/** Newest first: by start, then by end (a run only a snapshot names starts when it ended). */
const newestFirst = (a: Run, b: Run) =>
  Date.parse(b.started_at) - Date.parse(a.started_at) ||
  Date.parse(b.finished_at ?? b.started_at) - Date.parse(a.finished_at ?? a.started_at)

/** The history's runs, then the runs only a snapshot still names (older than its first 100). */
function knownRuns(history: Run[], snapshots: SnapshotSummary[]): KnownRun[] {
  const listed = new Set(history.map((r) => r.id))
  const kept = snapshots
    .filter((s) => !listed.has(s.runId))
    .map((s): KnownRun => ({
      id: s.runId,
      status: 'completed',
      started_at: s.finishedAt,
      finished_at: s.finishedAt,
      onlySnapshot: true,
    }))
  return [...history, ...kept].sort(newestFirst)
}

/** When the scan's next run after `run` started (its window's end), null for its latest. */
function nextStart(runs: Run[], run: Run): string | null {
  const start = Date.parse(run.started_at)
  const later = runs.filter((r) => Date.parse(r.started_at) > start)
  return later.length ? later.reduce((a, b) => (newestFirst(a, b) > 0 ? a : b)).started_at : null
}

/** Snapshots and comparisons of an account's scans. */
export class ChangesService {
  private readonly taking = new Map<string, Promise<SnapshotSummary | null>>()
  private readonly reading = new Map<string, Promise<History>>()

  constructor(private readonly deps: ChangesDeps) {}

  /**
   * Takes a snapshot of the scan's latest run when it completed and has none (online only); the
   * same run asked twice at once is taken once. Null when there is nothing to take.
   */
  ensureLatest(accountId: string, scanId: string): Promise<SnapshotSummary | null> {
    return this.once(this.taking, accountId, scanId, () => this.take(accountId, scanId))
  }

  private once<T>(
    pending: Map<string, Promise<T>>,
    accountId: string,
    scanId: string,
    work: () => Promise<T>,
  ): Promise<T> {
    const key = `${accountId}\n${scanId}`
    let running = pending.get(key)
    if (!running) {
      running = work().finally(() => pending.delete(key))
      pending.set(key, running)
    }
    return running
  }

  private async take(accountId: string, scanId: string): Promise<SnapshotSummary | null> {
    const read = this.deps.online(accountId)
    const { runs } = await runsOf(read, scanId)
    const latest = runs[0]
    if (!latest || latest.status !== 'completed' || !latest.finished_at) return null
    if (this.deps.snapshots.has(accountId, scanId, latest.id)) return null
    const { findings } = await findingsOf(read, scanId)
    const taken = await this.deps.snapshots.put(
      accountId,
      scanId,
      { runId: latest.id, finishedAt: latest.finished_at },
      seenBy(latest, findings),
    )
    if (taken) this.deps.taken(accountId, scanId, taken)
    return taken
  }

  /** The scan's history under the offline policy; asked once while the same read is on its way. */
  private history(accountId: string, scanId: string): Promise<History> {
    return this.once(this.reading, accountId, scanId, () =>
      runsOf(this.deps.offline(accountId), scanId),
    )
  }

  /** The snapshot of the latest run taken when it has none; a failure is logged, not thrown. */
  private async tryLatest(accountId: string, scanId: string): Promise<string | null> {
    try {
      await this.ensureLatest(accountId, scanId)
      return null
    } catch (err) {
      // Offline or refused: the comparison may still be made from the copy.
      this.deps.log('info', `no snapshot of ${scanId}: ${(err as Error).message}`)
      return why(err)
    }
  }

  /**
   * The runs of the scan's history (each saying whether it may be compared and has a snapshot)
   * and its snapshots, after taking the latest run's when it has none; failures are notes.
   */
  async snapshots(
    accountId: string,
    scanId: string,
  ): Promise<{ runs: ScanRunChoice[]; snapshots: SnapshotSummary[]; notes: string[] }> {
    const notes: string[] = []
    const failed = await this.tryLatest(accountId, scanId)
    if (failed) notes.push(NOTE.noSnapshot(failed))
    const snapshots = this.deps.snapshots.list(accountId, scanId)
    let history: Run[] = []
    try {
      history = (await this.history(accountId, scanId)).runs
    } catch (err) {
      notes.push(NOTE.noHistory(why(err).replace(/\.$/, '')))
    }
    const kept = new Set(snapshots.map((s) => s.runId))
    const runs = knownRuns(history, snapshots).map((r) => ({
      runId: r.id,
      status: r.status,
      startedAt: r.onlySnapshot ? null : r.started_at,
      finishedAt: r.finished_at,
      comparable: r.status === 'completed',
      snapshot: kept.has(r.id),
    }))
    return { runs, snapshots, notes }
  }

  /**
   * Two named runs of the scan's history (in either order), or the latest two completed ones:
   * each side exact from its snapshot, else read from first/last seen times (and said so).
   */
  async compare(
    accountId: string,
    scanId: string,
    named?: { from: string; to: string },
  ): Promise<ChangesAnswer> {
    await this.tryLatest(accountId, scanId)
    const list = this.deps.snapshots.list(accountId, scanId)
    const kept = (id: string) => list.some((s) => s.runId === id)
    let history: History
    try {
      history = await this.history(accountId, scanId)
    } catch (err) {
      // Out of reach without a copy of the history: two kept snapshots still compare.
      if (!named || !kept(named.from) || !kept(named.to)) throw err
      history = { runs: [], fromCache: true }
    }
    const runs = knownRuns(history.runs, list)
    const source = (r: Run) => (kept(r.id) ? 'snapshot' : 'times')
    const none = (note: string, from: Run | null, to: Run | null): ChangesAnswer => ({
      basis: 'none',
      from: from ? compared(from, source(from)) : null,
      to: to ? compared(to, source(to)) : null,
      comparison: null,
      notes: [note],
      fromCache: history.fromCache,
    })
    let earlier: Run
    let later: Run
    if (!named) {
      const done = runs.filter((r) => r.status === 'completed')
      if (done.length === 0) return none(NOTE.noRun, null, null)
      if (done.length === 1) return none(NOTE.firstRun, null, done[0])
      ;[later, earlier] = done
    } else {
      const [a, b] = [named.from, named.to].map((id) => runs.find((r) => r.id === id))
      if (!a || !b) return none(NOTE.unknownRun(a ? named.to : named.from), a ?? null, b ?? null)
      ;[later, earlier] = [a, b].sort(newestFirst)
      const unfinished = [earlier, later].find((r) => r.status !== 'completed')
      if (unfinished)
        return none(NOTE.notCompleted(unfinished.id, unfinished.status), earlier, later)
    }
    return this.between(accountId, scanId, earlier, later, runs, history.fromCache)
  }

  /** The comparison of two completed runs, earlier first, each side as exact as ScanDesk can. */
  private async between(
    accountId: string,
    scanId: string,
    earlier: Run,
    later: Run,
    runs: Run[],
    historyFromCache: boolean,
  ): Promise<ChangesAnswer> {
    const notes: string[] = []
    const kept = async (run: Run, which: string): Promise<SnapshotFinding[] | null> => {
      if (!this.deps.snapshots.has(accountId, scanId, run.id)) return null
      try {
        const rows = await this.deps.snapshots.get(accountId, scanId, run.id)
        if (!rows) notes.push(NOTE.damaged(which))
        return rows
      } catch (err) {
        if (!(err instanceof AppFailure) || err.error.code !== 'KEYCHAIN_UNAVAILABLE') throw err
        notes.push(NOTE.locked(which))
        return null
      }
    }
    const exact = [await kept(earlier, 'earlier'), await kept(later, 'later')]
    let fromCache = historyFromCache
    let rows = exact as SnapshotFinding[][]
    let unplaced = 0
    if (exact.some((x) => !x)) {
      const found = await findingsOf(this.deps.offline(accountId), scanId)
      fromCache ||= found.fromCache
      rows = [earlier, later].map(
        (run, i) => exact[i] ?? seenFromTimes(found.findings, run, nextStart(runs, run)),
      )
      unplaced = withoutTimes(found.findings)
      notes.push(NOTE.times)
      if (found.cut) notes.push(NOTE.cut)
      if (found.skipped) notes.push(NOTE.skipped(found.skipped))
    }
    const both = exact.every((x) => x)
    const comparison = compareRuns(rows[0], rows[1], { changes: both })
    comparison.leftOut += unplaced
    if (comparison.leftOut) notes.push(NOTE.leftOut(comparison.leftOut))
    return {
      basis: both ? 'snapshots' : 'times',
      from: compared(earlier, exact[0] ? 'snapshot' : 'times'),
      to: compared(later, exact[1] ? 'snapshot' : 'times'),
      comparison,
      notes,
      fromCache,
    }
  }
}
