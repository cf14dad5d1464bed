// Snapshots of runs and the comparison of two runs (issue 19; docs/decisions.md, "Comparing
// runs" and "Snapshots of runs").
import type { ChangesAnswer, ComparedRun, SnapshotSummary } from '@contract/changes'
import { AppFailure } from '@contract/errors'
import { compareFromTimes, compareSnapshots } from '@contract/findings/compare'
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
    'Compared from the findings’ first and last seen times, as the service gives them. Whether a severity or CVSS score changed is known only between two runs ScanDesk kept a snapshot of (it takes one when it sees a run complete), and a finding fixed and found again reads as still open.',
  missing: 'ScanDesk has no snapshot of one of these runs, so it cannot compare them.',
  damaged:
    'A snapshot of one of these runs does not open (it was altered or sealed under another key), so ScanDesk cannot compare them.',
  cut: 'The scan has more than 50,000 findings: only the first 50,000 were compared.',
  skipped: (n: number) =>
    `${n} ${n === 1 ? 'finding does' : 'findings do'} not have the expected shape and ${n === 1 ? 'was' : 'were'} left out.`,
  leftOut: (n: number) =>
    `${n} ${n === 1 ? 'finding names' : 'findings name'} no vulnerability or carry no usable times and ${n === 1 ? 'is' : 'are'} not compared.`,
  noSnapshot: (why: string) => `No snapshot of the latest run was taken: ${why}`,
}

const compared = (run: Run): ComparedRun => ({
  runId: run.id,
  startedAt: run.started_at,
  finishedAt: run.finished_at,
})

/** Snapshots and comparisons of an account's scans. */
export class ChangesService {
  private readonly taking = new Map<string, Promise<SnapshotSummary | null>>()

  constructor(private readonly deps: ChangesDeps) {}

  /**
   * Takes a snapshot of the scan's latest run when it completed and has none (online only); the
   * same run asked twice at once is taken once. Null when there is nothing to take.
   */
  ensureLatest(accountId: string, scanId: string): Promise<SnapshotSummary | null> {
    const key = `${accountId}\n${scanId}`
    let pending = this.taking.get(key)
    if (!pending) {
      pending = this.take(accountId, scanId).finally(() => this.taking.delete(key))
      this.taking.set(key, pending)
    }
    return pending
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

  /** The scan's snapshots after taking the latest run's when it has none (a failure is a note). */
  async snapshots(
    accountId: string,
    scanId: string,
  ): Promise<{ snapshots: SnapshotSummary[]; notes: string[] }> {
    const notes: string[] = []
    try {
      await this.ensureLatest(accountId, scanId)
    } catch (err) {
      notes.push(NOTE.noSnapshot(err instanceof AppFailure ? err.message : 'it could not be read.'))
    }
    return { snapshots: this.deps.snapshots.list(accountId, scanId), notes }
  }

  /** Two named runs from their snapshots, or the latest two (snapshots, else times). */
  async compare(
    accountId: string,
    scanId: string,
    runs?: { from: string; to: string },
  ): Promise<ChangesAnswer> {
    if (runs) return this.between(accountId, scanId, runs.from, runs.to)
    const notes: string[] = []
    try {
      await this.ensureLatest(accountId, scanId)
    } catch (err) {
      // Offline or refused: the comparison from times may still be made from the copy.
      this.deps.log('info', `no snapshot of ${scanId}: ${(err as Error).message}`)
    }
    const read = this.deps.offline(accountId)
    const history = await runsOf(read, scanId)
    const done = history.runs.filter((r) => r.status === 'completed')
    const none = (note: string): ChangesAnswer => ({
      basis: 'none',
      from: null,
      to: done[0] ? compared(done[0]) : null,
      comparison: null,
      notes: [note],
      fromCache: history.fromCache,
    })
    if (done.length === 0) return none(NOTE.noRun)
    if (done.length === 1) return none(NOTE.firstRun)
    const [latest, previous] = done
    const { snapshots } = this.deps
    if (
      snapshots.has(accountId, scanId, latest.id) &&
      snapshots.has(accountId, scanId, previous.id)
    )
      return this.between(accountId, scanId, previous.id, latest.id, history.runs)
    const found = await findingsOf(read, scanId)
    const comparison = compareFromTimes(found.findings, latest, previous)
    notes.push(NOTE.times)
    if (found.cut) notes.push(NOTE.cut)
    if (found.skipped) notes.push(NOTE.skipped(found.skipped))
    if (comparison.leftOut) notes.push(NOTE.leftOut(comparison.leftOut))
    return {
      basis: 'times',
      from: compared(previous),
      to: compared(latest),
      comparison,
      notes,
      fromCache: history.fromCache || found.fromCache,
    }
  }

  private async between(
    accountId: string,
    scanId: string,
    fromId: string,
    toId: string,
    known?: Run[],
  ): Promise<ChangesAnswer> {
    const list = this.deps.snapshots.list(accountId, scanId)
    const summary = (id: string) => list.find((s) => s.runId === id)
    const run = (id: string): ComparedRun | null => {
      const r = known?.find((k) => k.id === id)
      if (r) return compared(r)
      const s = summary(id)
      return s ? { runId: id, startedAt: s.finishedAt, finishedAt: s.finishedAt } : null
    }
    // The earlier run is the one that finished first, whatever order they were named in.
    const [a, b] = [summary(fromId), summary(toId)]
    const swap = a && b && a.finishedAt > b.finishedAt
    const [earlierId, laterId] = swap ? [toId, fromId] : [fromId, toId]
    const answer = (c: ChangesAnswer['comparison'], notes: string[]): ChangesAnswer => ({
      basis: c ? 'snapshots' : 'none',
      from: run(earlierId),
      to: run(laterId),
      comparison: c,
      notes,
      fromCache: false,
    })
    if (!a || !b) return answer(null, [NOTE.missing])
    const [earlier, later] = await Promise.all([
      this.deps.snapshots.get(accountId, scanId, earlierId),
      this.deps.snapshots.get(accountId, scanId, laterId),
    ])
    if (!earlier || !later) return answer(null, [NOTE.damaged])
    const comparison = compareSnapshots(earlier, later)
    return answer(comparison, comparison.leftOut ? [NOTE.leftOut(comparison.leftOut)] : [])
  }
}
