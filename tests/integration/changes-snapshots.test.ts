// Snapshots of runs and the comparison of two runs, against the real sandbox over HTTP: the
// notification watcher sees a run complete and ScanDesk keeps that run's findings; a second run
// compares exactly with the first; without snapshots the latest two runs compare from times.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import type { CsvExportOutcome } from '@contract/csv'
import { headlessHost } from '../../electron/core/host'
import type { ChangesAnswer, ScanRunChoice, SnapshotSummary } from '@contract/changes'
import { addAnalyst, startTestCore, type TestCore } from './core-helpers'
import { useSandboxAndCore } from './fixture'
import { until } from './sessions-helpers'

const s = useSandboxAndCore({ each: 'none', sandbox: { scanDurationMs: 60_000 } })

type Taken = { accountId: string; scanId: string; snapshot: SnapshotSummary }
const takenOf = (t: TestCore, scanId: string) =>
  t.events
    .filter((e) => e.name === 'changes.snapshotTaken')
    .map((e) => e.payload as Taken)
    .filter((p) => p.scanId === scanId)

async function latestRun(t: TestCore, accountId: string, scanId: string) {
  const history = await t.ok<{ data: { data: { id: string; attributes: { status: string } }[] } }>(
    'api.call',
    {
      accountId,
      op: 'scans.history',
      input: { path: { id: scanId }, query: { sort: '-started_at' } },
    },
  )
  return history.data.data[0]
}

describe('run snapshots and changes', () => {
  it('takes a snapshot when the watcher sees a run complete, and compares two runs exactly', async () => {
    s.sandbox.reset()
    const t = await startTestCore({ notificationIntervalMs: 150 })
    try {
      const account = await addAnalyst(t, s.sandbox)
      const accountId = account.id
      const findingsAsked = () =>
        s.sandbox.requests.filter((l) => l.startsWith('GET /v2/scans/scn-001/vulnerabilities'))
          .length
      // The watcher learns the backlog first (no snapshot for what was there before).
      await until(
        () => s.sandbox.requests.filter((l) => l.startsWith('GET /v2/notifications')).length >= 2,
      )
      expect(findingsAsked()).toBe(0)

      const runOnce = async (count: number) => {
        await t.ok('api.call', { accountId, op: 'scans.start', input: { path: { id: 'scn-001' } } })
        s.sandbox.advanceClock(2 * 60_000)
        await until(() => takenOf(t, 'scn-001').length === count, 10_000)
        const run = await latestRun(t, accountId, 'scn-001')
        expect(run.attributes.status).toBe('completed')
        expect(takenOf(t, 'scn-001').at(-1)).toMatchObject({
          accountId,
          snapshot: { runId: run.id },
        })
        return run
      }
      const first = await runOnce(1)
      // Nothing but the watcher asked for the scan's findings: the snapshot came from it.
      expect(findingsAsked()).toBeGreaterThan(0)
      const listed = await t.ok<{ snapshots: SnapshotSummary[] }>('changes.snapshots', {
        accountId,
        scanId: 'scn-001',
      })
      expect(listed.snapshots.map((x) => x.runId)).toEqual([first.id])
      expect(listed.snapshots[0].findings).toBeGreaterThan(0)

      const second = await runOnce(2)
      const latest = await t.ok<ChangesAnswer>('changes.compare', { accountId, scanId: 'scn-001' })
      expect(latest.basis).toBe('snapshots')
      expect(latest.from?.runId).toBe(first.id)
      expect(latest.to?.runId).toBe(second.id)
      const c = latest.comparison!
      expect(c.new.length).toBeGreaterThan(0)
      expect(c.fixed.length).toBeGreaterThan(0)
      expect(c.changed).not.toBeNull()
      const snaps = await t.ok<{ snapshots: SnapshotSummary[] }>('changes.snapshots', {
        accountId,
        scanId: 'scn-001',
      })
      expect(c.stillOpen.length + c.new.length).toBe(snaps.snapshots[0].findings)
      expect(c.stillOpen.length + c.fixed.length).toBe(snaps.snapshots[1].findings)

      // The same two runs named in either order compare the same.
      const named = await t.ok<ChangesAnswer>('changes.compare', {
        accountId,
        scanId: 'scn-001',
        from: second.id,
        to: first.id,
      })
      expect(named.comparison).toEqual(c)
      expect(named.from?.runId).toBe(first.id)
    } finally {
      await t.close()
    }
  })

  it('compares the latest two runs from times when there is no snapshot of both, and says so', async () => {
    s.sandbox.reset()
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-changes-'))
    const t = await startTestCore({
      notificationIntervalMs: 0,
      host: { ...headlessHost, userFolders: () => [home] },
    })
    try {
      const { id: accountId } = await addAnalyst(t, s.sandbox)
      const answer = await t.ok<ChangesAnswer>('changes.compare', { accountId, scanId: 'scn-002' })
      expect(answer.basis).toBe('times')
      expect(answer.comparison?.new.length).toBeGreaterThan(0)
      expect(answer.comparison?.fixed.length).toBeGreaterThan(0)
      expect(answer.comparison?.changed).toBeNull()
      expect(answer.notes.join(' ')).toMatch(/first and last seen times/)
      // Saved as CSV through the CSV export: browser mode suggests a file, then writes the typed one.
      const ask = { accountId, scanId: 'scn-002' }
      const offered = await t.ok<CsvExportOutcome>('changes.exportCsv', ask)
      expect(offered).toMatchObject({ saved: false, suggestedPath: expect.stringContaining(home) })
      const file = path.join(home, 'changes.csv')
      const saved = await t.ok<CsvExportOutcome>('changes.exportCsv', { ...ask, path: file })
      const c = answer.comparison!
      const total = c.new.length + c.fixed.length + c.stillOpen.length
      expect(saved).toMatchObject({ saved: true, path: file, rows: total })
      const rows = Papa.parse<Record<string, string>>(fs.readFileSync(file, 'utf8'), {
        header: true,
        skipEmptyLines: true,
      }).data
      expect(rows.filter((r) => r.change === 'new').map((r) => r.finding_id)).toEqual(
        c.new.map((f) => f.id),
      )
      expect(rows.filter((r) => r.change === 'fixed')).toHaveLength(c.fixed.length)
      expect(rows.some((r) => r.change === 'changed')).toBe(false)

      // Opening it took the latest run's snapshot; the run before has none.
      const snaps = await t.ok<{ snapshots: SnapshotSummary[] }>('changes.snapshots', {
        accountId,
        scanId: 'scn-002',
      })
      expect(snaps.snapshots.map((x) => x.runId)).toEqual([answer.to?.runId])
      expect([answer.from?.source, answer.to?.source]).toEqual(['times', 'snapshot'])
      // A run of another scan is not one of this scan's.
      const refused = await t.ok<ChangesAnswer>('changes.compare', {
        accountId,
        scanId: 'scn-002',
        from: 'run-001',
        to: answer.to!.runId,
      })
      expect(refused).toMatchObject({ basis: 'none', comparison: null })
      expect(refused.notes.join(' ')).toMatch(/Run run-001 is not in this scan’s history/)
      // A queued scan has no completed run: said in words, not an empty comparison.
      const none = await t.ok<ChangesAnswer>('changes.compare', { accountId, scanId: 'scn-020' })
      expect(none.basis).toBe('none')
      expect(none.notes.length).toBe(1)
      expect((await t.err('changes.compare', { accountId, scanId: '../x' })).code).toBe(
        'VALIDATION',
      )
    } finally {
      await t.close()
      fs.rmSync(home, { recursive: true, force: true })
    }
  })

  it('compares any two completed runs of the history, each exact from its snapshot or read from times, and says which', async () => {
    s.sandbox.reset()
    const t = await startTestCore({ notificationIntervalMs: 0 })
    try {
      const { id: accountId } = await addAnalyst(t, s.sandbox)
      const scanId = 'scn-005'
      const listed = await t.ok<{ runs: ScanRunChoice[] }>('changes.snapshots', {
        accountId,
        scanId,
      })
      // Every run of the seeded history is offered, though ScanDesk saw none of them complete;
      // only the latest got a snapshot (asking took it).
      const history = await t.ok<{
        data: { data: { id: string; attributes: { vulnerabilities_count: number } }[] }
      }>('api.call', {
        accountId,
        op: 'scans.history',
        input: { path: { id: scanId }, query: { sort: '-started_at' } },
      })
      const runs = history.data.data
      expect(runs.length).toBeGreaterThanOrEqual(3)
      expect(listed.runs.map((r) => [r.runId, r.comparable, r.snapshot])).toEqual(
        runs.map((r, i) => [r.id, true, i === 0]),
      )
      const found = (id: string) => runs.find((r) => r.id === id)!.attributes.vulnerabilities_count
      const compare = (from: string, to: string) =>
        t.ok<ChangesAnswer>('changes.compare', { accountId, scanId, from, to })

      // The two oldest: both from times, in either order; what each run saw is what it found.
      const [latest, middle, oldest] = runs.map((r) => r.id)
      const old = await compare(middle, oldest)
      expect(old).toMatchObject({
        basis: 'times',
        from: { runId: oldest, source: 'times' },
        to: { runId: middle, source: 'times' },
      })
      const c = old.comparison!
      expect(c.changed).toBeNull()
      expect(c.stillOpen.length + c.fixed.length).toBe(found(oldest))
      expect(c.stillOpen.length + c.new.length).toBe(found(middle))
      expect(old.notes.join(' ')).toMatch(
        /without a snapshot is read from the findings’ first and last seen times/,
      )

      // The oldest against the latest: the later side exact from its snapshot, the earlier from times.
      const mixed = await compare(oldest, latest)
      expect([mixed.basis, mixed.from?.source, mixed.to?.source]).toEqual([
        'times',
        'times',
        'snapshot',
      ])
      const m = mixed.comparison!
      expect(m.stillOpen.length + m.fixed.length).toBe(found(oldest))
      expect(m.stillOpen.length + m.new.length).toBe(found(latest))

      // A stopped run is listed but not compared: it did not scan every host.
      await t.ok('api.call', { accountId, op: 'scans.start', input: { path: { id: scanId } } })
      await t.ok('api.call', { accountId, op: 'scans.stop', input: { path: { id: scanId } } })
      const after = await t.ok<{ runs: ScanRunChoice[] }>('changes.snapshots', {
        accountId,
        scanId,
      })
      const stopped = after.runs[0]
      expect(stopped).toMatchObject({ status: 'stopped', comparable: false, snapshot: false })
      const refused = await compare(stopped.runId, latest)
      expect(refused).toMatchObject({ basis: 'none', comparison: null })
      expect(refused.notes.join(' ')).toMatch(/did not complete \(stopped\)/)
      // The latest two completed runs still compare by default, past the stopped one.
      const byDefault = await t.ok<ChangesAnswer>('changes.compare', { accountId, scanId })
      expect([byDefault.from?.runId, byDefault.to?.runId]).toEqual([middle, latest])
    } finally {
      await t.close()
    }
  })
})
