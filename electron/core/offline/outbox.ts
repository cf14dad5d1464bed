import { randomUUID } from 'node:crypto'
import { findOperation } from '@contract/catalog/index'
import type { OperationDef } from '@contract/catalog/types'
import { fail, type AppError } from '@contract/errors'
import type { OutboxCounts, OutboxItem, OutboxState } from '@contract/offline'
import type { CoreEvents } from '../events'
import { toAppError } from '../handlers/dispatch'
import { prepareRequest, type CallInput } from '../http/request'
import type { Db } from '../store/database'
import { isUnreachable } from './connectivity'

interface Row {
  id: string
  seq: number
  account_id: string
  account_label: string
  op: string
  input: string
  target: string | null
  state: OutboxState
  error: string | null
  attempts: number
  created_at: string
  last_tried_at: string | null
}

/** What the outbox needs from the rest of the core. */
export interface OutboxDeps {
  db: Db
  events: CoreEvents
  /** Sends one queued write through the account's (gated) client. */
  send: (accountId: string, op: string, input: CallInput) => Promise<unknown>
  /** Why no request may be sent now ("Work offline", no network), or null. */
  blocked: () => string | null
  /** Reports a real request's outcome to the connectivity monitor. */
  report: (accountId: string, answered: boolean, message: string) => void
  now?: () => Date
  log?: (level: 'info' | 'warn' | 'error', message: string) => void
}

function targetOf(input: CallInput): string | null {
  const path = input.path
  if (typeof path !== 'object' || path === null) return null
  const id = (path as Record<string, unknown>).id
  return typeof id === 'string' || typeof id === 'number' ? String(id) : null
}

/**
 * Writes kept while the service cannot be reached (catalog policy "queue": idempotent marks that
 * are safe to send later), in SQLite beside the drafts. Replayed per account in the order they
 * were made, with the account's session, when the account is back online or the user asks; a
 * refusal (conflict, gone, not allowed) keeps the item as 'failed' with the service's words and
 * the replay goes on with the next; losing the service again stops the replay, the rest waits.
 */
export class Outbox {
  private readonly replaying = new Map<string, Promise<void>>()

  constructor(private readonly deps: OutboxDeps) {
    // Items caught mid-send by a crash go back to the queue (marks are idempotent).
    deps.db.prepare("UPDATE outbox SET state = 'queued' WHERE state = 'sending'").run()
  }

  private now(): string {
    return (this.deps.now?.() ?? new Date()).toISOString()
  }

  private view(row: Row): OutboxItem {
    return {
      id: row.id,
      accountId: row.account_id,
      accountLabel: row.account_label,
      op: row.op,
      summary: findOperation(row.op)?.summary ?? row.op,
      target: row.target,
      state: row.state,
      error: row.error ? (JSON.parse(row.error) as AppError) : null,
      attempts: row.attempts,
      createdAt: row.created_at,
      lastTriedAt: row.last_tried_at,
    }
  }

  /** Keeps a write for later (its input checked first, so a bad one is refused now). */
  enqueue(account: { id: string; label: string }, op: OperationDef, input: CallInput): OutboxItem {
    if (op.offline !== 'queue') fail('OFFLINE', 'This change cannot be kept for later.')
    prepareRequest(op, input)
    const id = randomUUID()
    this.deps.db
      .prepare(
        `INSERT INTO outbox (id, seq, account_id, account_label, op, input, target, state,
           created_at)
         VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM outbox), ?, ?, ?, ?, ?, 'queued', ?)`,
      )
      .run(
        id,
        account.id,
        account.label,
        op.id,
        JSON.stringify({ path: input.path, query: input.query, body: input.body }),
        targetOf(input),
        this.now(),
      )
    this.changed(account.id)
    return this.get(id)!
  }

  get(id: string): OutboxItem | null {
    const row = this.deps.db.prepare('SELECT * FROM outbox WHERE id = ?').get(id) as Row | undefined
    return row ? this.view(row) : null
  }

  /** Items of one account (or all), oldest first. */
  list(accountId?: string): OutboxItem[] {
    const rows = (
      accountId
        ? this.deps.db
            .prepare('SELECT * FROM outbox WHERE account_id = ? ORDER BY seq')
            .all(accountId)
        : this.deps.db.prepare('SELECT * FROM outbox ORDER BY seq').all()
    ) as Row[]
    return rows.map((r) => this.view(r))
  }

  /** Queued and refused counts of an account. */
  counts(accountId: string): OutboxCounts {
    const row = this.deps.db
      .prepare(
        `SELECT SUM(state != 'failed') AS queued, SUM(state = 'failed') AS failed
         FROM outbox WHERE account_id = ?`,
      )
      .get(accountId) as { queued: number | null; failed: number | null }
    return { accountId, queued: row.queued ?? 0, failed: row.failed ?? 0 }
  }

  /** True when the account has writes waiting: a new one goes behind them to keep the order. */
  hasQueued(accountId: string): boolean {
    return this.counts(accountId).queued > 0
  }

  /**
   * Sends the account's queued items in order (one replay at a time per account); resolves when
   * this replay ends.
   */
  replay(accountId: string): Promise<void> {
    let running = this.replaying.get(accountId)
    if (!running) {
      running = this.run(accountId).finally(() => this.replaying.delete(accountId))
      this.replaying.set(accountId, running)
    }
    return running
  }

  /** Puts a refused item back in the queue and replays the account now. */
  async retry(id: string): Promise<OutboxItem[]> {
    const item = this.get(id) ?? fail('NOT_FOUND', 'That item is no longer in the outbox.')
    const blocked = this.deps.blocked()
    if (blocked) fail('OFFLINE', `${blocked} The item stays in the outbox.`)
    if (item.state === 'failed') {
      this.deps.db.prepare("UPDATE outbox SET state = 'queued' WHERE id = ?").run(id)
      this.changed(item.accountId)
    }
    // A replay already running picks the item up (it always takes the oldest queued one).
    await this.replay(item.accountId)
    return this.list(item.accountId)
  }

  /** Drops one item (the user decided not to send it); false when it was already gone. */
  discard(id: string): boolean {
    const item = this.get(id)
    if (!item) return false
    if (item.state === 'sending') fail('CONFLICT', 'That item is being sent right now.')
    this.deps.db.prepare('DELETE FROM outbox WHERE id = ?').run(id)
    this.changed(item.accountId)
    return true
  }

  private async run(accountId: string): Promise<void> {
    // Each item sent is deleted, refused is marked failed, or ends the replay: taking the oldest
    // queued one each time goes through them in order and also finds one retried meanwhile.
    const next = this.deps.db.prepare(
      "SELECT * FROM outbox WHERE account_id = ? AND state = 'queued' ORDER BY seq LIMIT 1",
    )
    for (;;) {
      if (this.deps.blocked()) return
      const row = next.get(accountId) as Row | undefined
      if (!row) return
      this.deps.db
        .prepare(
          "UPDATE outbox SET state = 'sending', attempts = attempts + 1, last_tried_at = ? WHERE id = ?",
        )
        .run(this.now(), row.id)
      this.changed(accountId)
      try {
        await this.deps.send(accountId, row.op, JSON.parse(row.input) as CallInput)
        this.deps.db.prepare('DELETE FROM outbox WHERE id = ?').run(row.id)
        this.deps.report(accountId, true, '')
        this.changed(accountId)
      } catch (err) {
        const error = toAppError(err)
        // Not reached, cancelled (sign-out, shutdown) or no session: the item waits, in order.
        if (isUnreachable(err) || error.code === 'CANCELLED' || error.code === 'NOT_SIGNED_IN') {
          this.deps.db.prepare("UPDATE outbox SET state = 'queued' WHERE id = ?").run(row.id)
          if (isUnreachable(err)) this.deps.report(accountId, false, error.message)
          this.changed(accountId)
          return
        }
        this.deps.log?.('warn', `outbox item ${row.id} (${row.op}) refused: ${error.code}`)
        this.deps.db
          .prepare("UPDATE outbox SET state = 'failed', error = ? WHERE id = ?")
          .run(JSON.stringify(error), row.id)
        this.changed(accountId)
      }
    }
  }

  private changed(accountId: string): void {
    this.deps.events.emit('outbox.changed', this.counts(accountId))
  }

  /** Waits for running replays (shutdown). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.replaying.values()])
  }
}
