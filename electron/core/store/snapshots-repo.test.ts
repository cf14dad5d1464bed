import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { SnapshotFinding } from '@contract/findings/compare'
import { AccountKeys } from '../accounts/account-keys'
import { MemoryVault } from '../accounts/memory-vault'
import { AccountsRepo } from './accounts-repo'
import { SNAPSHOT_RETENTION, SnapshotsRepo } from './snapshots-repo'
import { useTestDb } from './test-db'

const A = 'acc-00000001'
const B = 'acc-00000002'
const t = useTestDb('scandesk-snapshots-', [A, B])
let vault: MemoryVault
let repo: SnapshotsRepo

const finding = (n: number): SnapshotFinding => ({
  id: `vul-${n}`,
  title: `Finding number ${n} with a title of a usual length for a scanner`,
  severity: (['critical', 'high', 'medium', 'low', 'info'] as const)[n % 5],
  cvss_score: (n % 100) / 10,
  cve_ids: n % 3 ? [`CVE-2024-${10000 + n}`] : [],
  host_id: `hst-${n % 50}`,
  host_ip: `10.0.${n % 250}.${n % 200}`,
  port: 443,
  protocol: 'tcp',
  first_seen_at: '2026-11-01T10:00:00.000Z',
  last_seen_at: '2026-11-20T10:00:00.000Z',
})
const findings = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => finding(from + i))
const run = (n: number) => ({
  runId: `run-${n}`,
  finishedAt: new Date(Date.UTC(2026, 10, n)).toISOString(),
})

beforeEach(() => {
  vault = new MemoryVault()
  repo = new SnapshotsRepo(t.db, new AccountKeys(vault))
})

describe('run snapshots', () => {
  it('seals a run’s findings and opens them again after reopening the database', async () => {
    const taken = await repo.put(A, 'scn-001', run(1), findings(3))
    expect(taken).toMatchObject({ runId: 'run-1', findings: 3 })
    const sealed = t.db.prepare('SELECT sealed FROM run_snapshots').get() as { sealed: Buffer }
    expect(sealed.sealed.includes(Buffer.from('Finding number'))).toBe(false)
    t.reopen()
    repo = new SnapshotsRepo(t.db, new AccountKeys(vault))
    expect(await repo.get(A, 'scn-001', 'run-1')).toEqual(findings(3))
    expect(repo.list(A, 'scn-001').map((s) => s.runId)).toEqual(['run-1'])
    expect(await repo.get(A, 'scn-001', 'run-9')).toBeNull()
  })

  it('does not open a snapshot moved to another run, scan or account', async () => {
    await repo.put(A, 'scn-001', run(1), findings(2))
    await repo.put(A, 'scn-001', run(2), findings(2, 5))
    await repo.put(B, 'scn-001', run(1), findings(1))
    t.db
      .prepare(
        "UPDATE run_snapshots SET run_id = 'run-3' WHERE run_id = 'run-1' AND account_id = ?",
      )
      .run(A)
    expect(await repo.get(A, 'scn-001', 'run-3')).toBeNull()
    t.db.prepare("UPDATE run_snapshots SET scan_id = 'scn-002' WHERE run_id = 'run-2'").run()
    expect(await repo.get(A, 'scn-002', 'run-2')).toBeNull()
    expect(await repo.get(B, 'scn-001', 'run-1')).toEqual(findings(1))
  })

  it('stores 10,000 findings in one transaction, compressed', async () => {
    const spy = vi.spyOn(t.db, 'transaction')
    const many = findings(10_000)
    await repo.put(A, 'scn-001', run(1), many)
    expect(spy).toHaveBeenCalledTimes(1)
    const row = t.db.prepare('SELECT findings, bytes FROM run_snapshots').get() as {
      findings: number
      bytes: number
    }
    expect(row.findings).toBe(10_000)
    expect(row.bytes).toBeLessThan(JSON.stringify(many).length / 3)
    expect(await repo.get(A, 'scn-001', 'run-1')).toEqual(many)
  })

  it('leaves nothing of a 10,000-finding snapshot that fails in the middle', async () => {
    for (let n = 1; n <= SNAPSHOT_RETENTION.runsPerScan; n++)
      await repo.put(A, 'scn-001', run(n), findings(2, n))
    const before = t.db.prepare('SELECT * FROM run_snapshots ORDER BY run_id').all()
    // The disk gives out after the snapshot's row is written, while retention drops the oldest.
    t.db.exec(`CREATE TEMP TRIGGER fail_retention BEFORE DELETE ON run_snapshots
             BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END`)
    const next = run(SNAPSHOT_RETENTION.runsPerScan + 1)
    await expect(repo.put(A, 'scn-001', next, findings(10_000))).rejects.toThrow(/disk I\/O/)
    expect(repo.has(A, 'scn-001', next.runId)).toBe(false)
    expect(t.db.prepare('SELECT * FROM run_snapshots ORDER BY run_id').all()).toEqual(before)

    t.db.exec('DROP TRIGGER fail_retention')
    await repo.put(A, 'scn-001', next, findings(10_000))
    expect(await repo.get(A, 'scn-001', next.runId)).toHaveLength(10_000)
    expect(repo.has(A, 'scn-001', 'run-1')).toBe(false)
  })

  it('keeps the newest runs of a scan, and under the size cap never a scan’s newest two', async () => {
    for (let n = 1; n <= SNAPSHOT_RETENTION.runsPerScan + 3; n++)
      await repo.put(A, 'scn-001', run(n), findings(1))
    const kept = repo.list(A, 'scn-001').map((s) => s.runId)
    expect(kept).toHaveLength(SNAPSHOT_RETENTION.runsPerScan)
    expect(kept[0]).toBe(`run-${SNAPSHOT_RETENTION.runsPerScan + 3}`)
    expect(kept).not.toContain('run-3')

    // A tiny cap: the oldest go first, across scans, but each scan keeps its newest two.
    const small = new SnapshotsRepo(t.db, new AccountKeys(vault), undefined, {
      ...SNAPSHOT_RETENTION,
      maxBytesPerAccount: 1,
    })
    for (const n of [1, 2, 3]) await small.put(A, 'scn-002', run(n), findings(1))
    expect(repo.list(A, 'scn-002').map((s) => s.runId)).toEqual(['run-3', 'run-2'])
    expect(repo.list(A, 'scn-001').map((s) => s.runId)).toEqual([
      `run-${SNAPSHOT_RETENTION.runsPerScan + 3}`,
      `run-${SNAPSHOT_RETENTION.runsPerScan + 2}`,
    ])
    expect(repo.list(B, 'scn-001')).toEqual([])
  })

  it('writes and opens nothing while the keychain does not answer', async () => {
    await repo.put(A, 'scn-001', run(1), findings(1))
    const locked = new SnapshotsRepo(
      t.db,
      new AccountKeys(new MemoryVault({ available: false, message: 'locked' })),
    )
    await expect(locked.put(A, 'scn-001', run(2), findings(1))).rejects.toMatchObject({
      error: { code: 'KEYCHAIN_UNAVAILABLE' },
    })
    await expect(locked.get(A, 'scn-001', 'run-1')).rejects.toMatchObject({
      error: { code: 'KEYCHAIN_UNAVAILABLE' },
    })
    expect(repo.list(A, 'scn-001').map((s) => s.runId)).toEqual(['run-1'])
  })

  it('goes with its account', async () => {
    await repo.put(A, 'scn-001', run(1), findings(1))
    new AccountsRepo(t.db).delete(A)
    expect(repo.list(A, 'scn-001')).toEqual([])
    expect(await repo.put(A, 'scn-001', run(2), findings(1))).toBeNull()
  })
})
