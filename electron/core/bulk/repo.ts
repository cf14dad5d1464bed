// The bulk runs' rows (schema 13): a run and its writes, sealed with the account's key.
import {
  BULK_ACTION_LABELS,
  type BulkAction,
  type BulkBody,
  type BulkCounts,
  type BulkHost,
  type BulkItemState,
  type BulkItemView,
  type BulkRunView,
} from '@contract/bulk'
import type { AppError } from '@contract/errors'
import type { Kept } from '@contract/kept'
import { openJson, sealJson, type AccountKey } from '../accounts/account-keys'
import type { Db } from '../store/database'
import { statementCache, type Statements } from '../store/statements'

export interface RunRow {
  id: string
  account_id: string
  action: BulkAction
  sealed: Buffer
  created_at: string
  updated_at: string
}

export interface ItemRow {
  write_id: string
  run_id: string
  seq: number
  state: BulkItemState
  attempts: number
  sent_at: string | null
  sealed: Buffer
}

/** What is sealed of one write: its record, label and host, and its result once it has one. */
export interface ItemPayload {
  target: string
  label: string | null
  /** Absent in a write sealed before hosts were kept (read as null). */
  host?: BulkHost | null
  message: string | null
  code: AppError['code'] | null
  resultId: string | null
}

const runAad = (r: { id: string; account_id: string; action: string }) =>
  `bulk-run\n${r.account_id}\n${r.id}\n${r.action}`
const itemAad = (accountId: string, runId: string, writeId: string) =>
  `bulk-item\n${accountId}\n${runId}\n${writeId}`

const STATES: BulkItemState[] = ['queued', 'sending', 'done', 'skipped', 'failed', 'cancelled']

/** Finished runs kept per account (older ones are forgotten when a new run starts). */
export const KEPT_RUNS = 20

/**
 * Reads and writes the bulk tables; every method is synchronous (callers use transactions).
 * A run's counts by state are kept here once read, and moved along with each write's state
 * (a run of 5,000 writes is not counted again after every write: that scan held main's event
 * loop for milliseconds each time); anything that moves many writes at once drops them.
 */
export class BulkRepo {
  private readonly tally = new Map<string, BulkCounts>()
  /** Prepared once: a run makes thousands of the same writes. */
  private readonly stmt: Statements

  constructor(
    private readonly db: Db,
    private readonly kept: Kept = 'disk',
  ) {
    this.stmt = statementCache(db)
  }

  insertRun(key: AccountKey, row: Omit<RunRow, 'sealed'>, body: BulkBody): void {
    this.db
      .prepare(
        `INSERT INTO bulk_runs (id, account_id, action, sealed, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(
        row.id,
        row.account_id,
        row.action,
        sealJson(key, runAad(row), body),
        row.created_at,
        row.updated_at,
      )
  }

  /** The sealed row of a new write (made ahead of insertItems, a few at a time). */
  sealNew(
    key: AccountKey,
    run: Pick<RunRow, 'id' | 'account_id'>,
    item: { writeId: string; target: string; label: string | null; host: BulkHost | null },
  ): Buffer {
    const payload: ItemPayload = {
      target: item.target,
      label: item.label,
      host: item.host,
      message: null,
      code: null,
      resultId: null,
    }
    return sealJson(key, itemAad(run.account_id, run.id, item.writeId), payload)
  }

  insertItems(runId: string, items: { writeId: string; sealed: Buffer }[]): void {
    const insert = this.db.prepare(
      `INSERT INTO bulk_items (write_id, run_id, seq, state, sealed) VALUES (?, ?, ?, 'queued', ?)`,
    )
    items.forEach((item, seq) => insert.run(item.writeId, runId, seq, item.sealed))
    this.tally.delete(runId)
  }

  run(id: string): RunRow | undefined {
    return this.stmt('SELECT * FROM bulk_runs WHERE id = ?').get(id) as RunRow | undefined
  }

  runs(accountId: string): RunRow[] {
    return this.db
      .prepare('SELECT * FROM bulk_runs WHERE account_id = ? ORDER BY created_at DESC, id')
      .all(accountId) as RunRow[]
  }

  item(writeId: string): ItemRow | undefined {
    return this.stmt('SELECT * FROM bulk_items WHERE write_id = ?').get(writeId) as
      ItemRow | undefined
  }

  /** One page of a run's writes in their order, of one state or all. */
  itemsPage(runId: string, state: BulkItemState | undefined, limit: number, offset: number) {
    const where = state ? 'run_id = ? AND state = ?' : 'run_id = ?'
    const args = state ? [runId, state] : [runId]
    return this.db
      .prepare(`SELECT * FROM bulk_items WHERE ${where} ORDER BY seq LIMIT ? OFFSET ?`)
      .all(...args, limit, offset) as ItemRow[]
  }

  items(runId: string, states?: BulkItemState[]): ItemRow[] {
    const rows = this.db
      .prepare('SELECT * FROM bulk_items WHERE run_id = ? ORDER BY seq')
      .all(runId) as ItemRow[]
    return states ? rows.filter((r) => states.includes(r.state)) : rows
  }

  counts(runId: string): BulkCounts {
    let counts = this.tally.get(runId)
    if (!counts) {
      counts = Object.fromEntries(STATES.map((s) => [s, 0])) as BulkCounts
      counts.total = 0
      const rows = this.stmt(
        'SELECT state, COUNT(*) AS n FROM bulk_items WHERE run_id = ? GROUP BY state',
      ).all(runId) as { state: BulkItemState; n: number }[]
      for (const r of rows) {
        counts[r.state] = r.n
        counts.total += r.n
      }
      // Kept only outside a transaction: one rolled back later would leave them wrong.
      if (!this.db.inTransaction) this.tally.set(runId, counts)
    }
    return { ...counts }
  }

  /**
   * Runs `write`, which moves one write of the run from `from` to another state, in one
   * transaction with the run's `updated_at`; the kept counts follow once it is committed (inside
   * a caller's transaction they are dropped instead: it may still roll back).
   */
  private moveOne(runId: string, writeId: string, now: string, write: () => BulkItemState): void {
    const outer = this.db.inTransaction
    const from = (
      this.stmt('SELECT state FROM bulk_items WHERE write_id = ?').get(writeId) as
        { state: BulkItemState } | undefined
    )?.state
    let to: BulkItemState | undefined
    this.db.transaction(() => {
      to = write()
      this.stmt('UPDATE bulk_runs SET updated_at = ? WHERE id = ?').run(now, runId)
    })()
    const counts = this.tally.get(runId)
    if (!counts) return
    if (outer || !from || !to) return void this.tally.delete(runId)
    counts[from] -= 1
    counts[to] += 1
  }

  body(key: AccountKey, run: RunRow): BulkBody | null {
    const body = openJson(key, runAad(run), run.sealed)
    return body && typeof body === 'object' ? (body as BulkBody) : null
  }

  payload(key: AccountKey, run: RunRow, item: ItemRow): ItemPayload | null {
    const p = openJson(key, itemAad(run.account_id, run.id, item.write_id), item.sealed)
    return p && typeof p === 'object' ? (p as ItemPayload) : null
  }

  setState(writeId: string, state: BulkItemState, runId: string, now: string): void {
    this.moveOne(runId, writeId, now, () => {
      this.stmt('UPDATE bulk_items SET state = ? WHERE write_id = ?').run(state, writeId)
      return state
    })
  }

  /** Counts one more hand-over to the service; committed before the request leaves. */
  markSent(writeId: string, now: string): void {
    this.stmt('UPDATE bulk_items SET attempts = attempts + 1, sent_at = ? WHERE write_id = ?').run(
      now,
      writeId,
    )
  }

  /** Gives a write its result (state and sealed payload in one statement). */
  finish(
    key: AccountKey,
    run: RunRow,
    writeId: string,
    state: BulkItemState,
    payload: ItemPayload,
    now: string,
  ): void {
    const sealed = sealJson(key, itemAad(run.account_id, run.id, writeId), payload)
    this.moveOne(run.id, writeId, now, () => {
      this.stmt('UPDATE bulk_items SET state = ?, sealed = ? WHERE write_id = ?').run(
        state,
        sealed,
        writeId,
      )
      // A bulk write's outbox row goes with its result, in the same transaction.
      this.stmt('DELETE FROM outbox WHERE bulk_write = ?').run(writeId)
      return state
    })
  }

  /** Moves the run's writes in `from` to `to`; returns their ids. */
  move(runId: string, from: BulkItemState, to: BulkItemState): string[] {
    const ids = (
      this.db
        .prepare('SELECT write_id FROM bulk_items WHERE run_id = ? AND state = ? ORDER BY seq')
        .all(runId, from) as { write_id: string }[]
    ).map((r) => r.write_id)
    this.db
      .prepare('UPDATE bulk_items SET state = ? WHERE run_id = ? AND state = ?')
      .run(to, runId, from)
    this.tally.delete(runId)
    return ids
  }

  /** Back to the queue after a crash: the outbox delivers them again (checked first). */
  requeueSending(): void {
    this.db.prepare("UPDATE bulk_items SET state = 'queued' WHERE state = 'sending'").run()
    this.tally.clear()
  }

  deleteRun(id: string): void {
    this.db.prepare('DELETE FROM bulk_runs WHERE id = ?').run(id)
    this.tally.delete(id)
  }

  /** Forgets the account's finished runs beyond the newest KEPT_RUNS. */
  prune(accountId: string): void {
    const finished = this.runs(accountId).filter((r) => this.finished(r.id))
    for (const r of finished.slice(KEPT_RUNS)) this.deleteRun(r.id)
  }

  finished(runId: string): boolean {
    const c = this.counts(runId)
    return c.queued + c.sending === 0
  }

  view(run: RunRow, body: BulkBody): BulkRunView {
    const counts = this.counts(run.id)
    return {
      id: run.id,
      accountId: run.account_id,
      action: run.action,
      summary: BULK_ACTION_LABELS[run.action],
      body,
      counts,
      state: counts.queued + counts.sending === 0 ? 'finished' : 'running',
      createdAt: run.created_at,
      updatedAt: run.updated_at,
      kept: this.kept,
    }
  }

  itemView(item: ItemRow, payload: ItemPayload | null): BulkItemView {
    return {
      writeId: item.write_id,
      target: payload?.target ?? '',
      label: payload?.label ?? null,
      host: payload?.host ?? null,
      state: payload ? item.state : 'failed',
      message: payload ? payload.message : UNREADABLE,
      code: payload ? payload.code : 'INTEGRITY_FAILED',
      resultId: payload?.resultId ?? null,
      attempts: item.attempts,
    }
  }
}

/** What a write that does not open under the account's key says. */
export const UNREADABLE =
  'This change was sealed with a key the system keychain no longer has (or was altered on disk), so it cannot be sent.'
