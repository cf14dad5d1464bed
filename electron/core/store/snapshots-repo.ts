import { deflateRawSync, inflateRawSync } from 'node:zlib'
import type { SnapshotSummary } from '@contract/changes'
import { fail } from '@contract/errors'
import { snapshotFinding, type SnapshotFinding } from '@contract/findings/compare'
import { z } from 'zod'
import { open, seal, type AccountKeys } from '../accounts/account-keys'
import type { Db } from './database'

/** Retention (docs/decisions.md, "Snapshots of runs"). */
export const SNAPSHOT_RETENTION = {
  /** Snapshots kept per scan: the newest runs. */
  runsPerScan: 10,
  /** Sealed bytes kept per account; above it the oldest go, never a scan's newest two. */
  maxBytesPerAccount: 256 * 1024 ** 2,
  /** A scan's newest snapshots the size cap never takes (the previous-run comparison). */
  keptPerScan: 2,
}

/** Why a snapshot cannot be written or read now (the account's key is in the keychain). */
export const SNAPSHOTS_LOCKED =
  'The system keychain is not available, and ScanDesk seals this account’s run snapshots with a key it keeps there: snapshots already taken stay as they are, and no new one is taken until the keychain answers again.'

/** What a sealed snapshot is bound to: a row moved to another account, scan or run does not open. */
const snapshotAad = (accountId: string, scanId: string, runId: string) =>
  Buffer.from(`run-snapshot\n${accountId}\n${scanId}\n${runId}`, 'utf8')

const stored = z.array(snapshotFinding)

interface SummaryRow {
  run_id: string
  finished_at: string
  taken_at: string
  findings: number
}

const summaryOf = (r: SummaryRow): SnapshotSummary => ({
  runId: r.run_id,
  finishedAt: r.finished_at,
  takenAt: r.taken_at,
  findings: r.findings,
})

/**
 * Snapshots of a scan's findings per run, sealed with the account's key (deflated JSON, AES-256-GCM
 * bound to account, scan and run). A snapshot and the retention it triggers are one transaction:
 * a crash leaves the snapshot whole or absent. Without the key nothing is opened or written.
 */
export class SnapshotsRepo {
  constructor(
    private readonly db: Db,
    private readonly keys: AccountKeys,
    private readonly now: () => Date = () => new Date(),
    private readonly retention = SNAPSHOT_RETENTION,
  ) {}

  has(accountId: string, scanId: string, runId: string): boolean {
    return !!this.db
      .prepare('SELECT 1 FROM run_snapshots WHERE account_id = ? AND scan_id = ? AND run_id = ?')
      .get(accountId, scanId, runId)
  }

  /** The scan's snapshots, newest run first (no key needed: no content). */
  list(accountId: string, scanId: string): SnapshotSummary[] {
    const rows = this.db
      .prepare(
        `SELECT run_id, finished_at, taken_at, findings FROM run_snapshots
         WHERE account_id = ? AND scan_id = ? ORDER BY finished_at DESC, run_id DESC`,
      )
      .all(accountId, scanId) as SummaryRow[]
    return rows.map(summaryOf)
  }

  /** Stores the run's findings (replacing an earlier snapshot of it); null: no such account. */
  async put(
    accountId: string,
    scanId: string,
    run: { runId: string; finishedAt: string },
    findings: readonly SnapshotFinding[],
  ): Promise<SnapshotSummary | null> {
    if (!this.db.prepare('SELECT 1 FROM accounts WHERE id = ?').get(accountId)) return null
    const { key } = await this.keys.keyFor(accountId)
    if (!key) fail('KEYCHAIN_UNAVAILABLE', SNAPSHOTS_LOCKED)
    const plain = deflateRawSync(Buffer.from(JSON.stringify(findings), 'utf8'))
    const sealed = seal(key.local, snapshotAad(accountId, scanId, run.runId), plain)
    const takenAt = this.now().toISOString()
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO run_snapshots (account_id, scan_id, run_id, finished_at, taken_at, findings, bytes, sealed)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (account_id, scan_id, run_id) DO UPDATE SET finished_at = excluded.finished_at,
             taken_at = excluded.taken_at, findings = excluded.findings, bytes = excluded.bytes,
             sealed = excluded.sealed`,
        )
        .run(
          accountId,
          scanId,
          run.runId,
          run.finishedAt,
          takenAt,
          findings.length,
          sealed.length,
          sealed,
        )
      this.retain(accountId, scanId)
    })()
    return { runId: run.runId, finishedAt: run.finishedAt, takenAt, findings: findings.length }
  }

  /** The run's findings; null when there is no snapshot or it does not open (altered, moved). */
  async get(accountId: string, scanId: string, runId: string): Promise<SnapshotFinding[] | null> {
    const row = this.db
      .prepare(
        'SELECT sealed FROM run_snapshots WHERE account_id = ? AND scan_id = ? AND run_id = ?',
      )
      .get(accountId, scanId, runId) as { sealed: Buffer } | undefined
    if (!row) return null
    const { key } = await this.keys.keyFor(accountId)
    if (!key) fail('KEYCHAIN_UNAVAILABLE', SNAPSHOTS_LOCKED)
    const plain = open(key.local, snapshotAad(accountId, scanId, runId), row.sealed)
    if (!plain) return null
    try {
      const parsed = stored.safeParse(JSON.parse(inflateRawSync(plain).toString('utf8')))
      return parsed.success ? parsed.data : null
    } catch {
      return null
    }
  }

  /** How many runs of the account's scans have a snapshot. */
  count(accountId: string): number {
    const row = this.db
      .prepare('SELECT COUNT(*) AS n FROM run_snapshots WHERE account_id = ?')
      .get(accountId) as { n: number }
    return row.n
  }

  /** Deletes the account's snapshots (with its offline copy at sign-out); how many went. */
  clear(accountId: string): number {
    return this.db.prepare('DELETE FROM run_snapshots WHERE account_id = ?').run(accountId).changes
  }

  /** Sealed bytes the account's snapshots take. */
  bytes(accountId: string): number {
    const row = this.db
      .prepare('SELECT COALESCE(SUM(bytes), 0) AS n FROM run_snapshots WHERE account_id = ?')
      .get(accountId) as { n: number }
    return row.n
  }

  /** The newest `runsPerScan` of the scan, then the account's size cap (oldest first). */
  private retain(accountId: string, scanId: string): void {
    this.db
      .prepare(
        `DELETE FROM run_snapshots WHERE account_id = ? AND scan_id = ? AND run_id NOT IN (
           SELECT run_id FROM run_snapshots WHERE account_id = ? AND scan_id = ?
           ORDER BY finished_at DESC, run_id DESC LIMIT ?)`,
      )
      .run(accountId, scanId, accountId, scanId, this.retention.runsPerScan)
    let total = this.bytes(accountId)
    if (total <= this.retention.maxBytesPerAccount) return
    // Oldest first, leaving every scan its newest `keptPerScan`.
    const candidates = this.db
      .prepare(
        `SELECT scan_id, run_id, bytes FROM (
           SELECT scan_id, run_id, bytes, finished_at,
             ROW_NUMBER() OVER (PARTITION BY scan_id ORDER BY finished_at DESC, run_id DESC) AS n
           FROM run_snapshots WHERE account_id = ?)
         WHERE n > ? ORDER BY finished_at ASC, run_id ASC`,
      )
      .all(accountId, this.retention.keptPerScan) as {
      scan_id: string
      run_id: string
      bytes: number
    }[]
    const remove = this.db.prepare(
      'DELETE FROM run_snapshots WHERE account_id = ? AND scan_id = ? AND run_id = ?',
    )
    for (const c of candidates) {
      if (total <= this.retention.maxBytesPerAccount) break
      remove.run(accountId, c.scan_id, c.run_id)
      total -= c.bytes
    }
  }
}
