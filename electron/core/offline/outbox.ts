import { randomUUID } from 'node:crypto'
import type { OperationDef } from '@contract/catalog/types'
import { fail, type AppError } from '@contract/errors'
import type { OutboxCounts, OutboxItem, OutboxState } from '@contract/offline'
import type { Kept } from '@contract/kept'
import { openJson, sealJson, type AccountKey, type KeySource } from '../accounts/account-keys'
import { findOperationLazily } from '../catalog'
import type { CoreEvents } from '../events'
import { toAppError } from '../handlers/dispatch'
import { prepareRequest, type CallInput } from '../http/request'
import type { Db } from '../store/database'
import { statementCache, type Statements } from '../store/statements'
import { isUnreachable } from './connectivity'
import { alreadyMade } from './outbox-checks'

interface Row {
  id: string
  seq: number
  account_id: string
  account_label: string
  op: string
  state: OutboxState
  attempts: number
  created_at: string
  last_tried_at: string | null
  /** The sealed Payload; null only for a row queued before the outbox was sealed. */
  sealed: Buffer | null
  /** The plain columns of such an older row (until its account's key is at hand). */
  input: string | null
  target: string | null
  error: string | null
  /** The bulk write this row carries (its input and result live with the bulk run), or null. */
  bulk_write: string | null
}

/** What is sealed of a queued write: everything the user and the service said about it. */
export interface OutboxPayload {
  input: CallInput
  target: string | null
  error: AppError | null
}

/** An outbox row of a bulk write, sealed ahead of its insert. */
export interface BulkOutboxRow {
  id: string
  writeId: string
  sealed: Buffer
}

/** What a sealed item is bound to: a payload moved to another item, account or operation does not open. */
export const outboxAad = (accountId: string, id: string, op: string) =>
  `outbox\n${accountId}\n${id}\n${op}`

/** Why the outbox cannot be opened or added to now (the account's key is in the keychain). */
export const OUTBOX_LOCKED =
  'The system keychain is not available, and ScanDesk seals the changes it keeps for later with a key it keeps there: the changes already waiting stay on this computer as they are and are sent once it answers again.'

/** What an item that does not open under the account's key says (it can never be sent). */
const UNREADABLE: AppError = {
  code: 'INTEGRITY_FAILED',
  message:
    'This change was sealed with a key the system keychain no longer has (or was altered on disk), so it cannot be sent. Discard it and make the change again.',
}

/** At most this often a replay of bulk writes announces the account's counts. */
const BULK_EVENT_MS = 1000

/** What the outbox needs from the rest of the core. */
export interface OutboxDeps {
  db: Db
  events: CoreEvents
  /** The accounts' keys: every item is sealed with its account's key (or this run's, in memory). */
  keys: KeySource
  /** Where its rows are: on disk (default), or the session store's memory. */
  kept?: Kept
  /** Announces the account's counts (default: this outbox's own, as `outbox.changed`). */
  announce?: (accountId: string) => void
  /** Sends one queued write through the account's (gated) client. */
  send: (accountId: string, op: string, input: CallInput) => Promise<unknown>
  /** Why no request may be sent now ("Work offline", no network), or null. */
  blocked: () => string | null
  /** Reports a real request's outcome to the connectivity monitor. */
  report: (accountId: string, answered: boolean, message: string) => void
  /**
   * Delivers one bulk write (core/bulk): checks, sends and records its result; 'wait' when the
   * service cannot be reached (the row stays queued and the replay ends).
   */
  deliver?: (writeId: string) => Promise<'finished' | 'wait'>
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
 * An item handed over before (its answer lost) is checked for first (outbox-checks.ts): sent once.
 */
export class Outbox {
  private readonly replaying = new Map<string, Promise<void>>()
  /** Counts announced soon (bulk writes: at most every BULK_EVENT_MS), per account. */
  private readonly soon = new Map<string, NodeJS.Timeout>()
  /** Prepared once: a bulk run repeats the same ones thousands of times. */
  private readonly stmt: Statements

  constructor(private readonly deps: OutboxDeps) {
    this.stmt = statementCache(deps.db)
    // Items caught mid-send by a crash go back to the queue (checked for before a re-send).
    deps.db.prepare("UPDATE outbox SET state = 'queued' WHERE state = 'sending'").run()
  }

  private now(): string {
    return (this.deps.now?.() ?? new Date()).toISOString()
  }

  /** The sealed payload of a row (or the plain one of an older row); null when it does not open. */
  private payloadOf(row: Row, key: AccountKey): OutboxPayload | null {
    if (row.sealed === null)
      return {
        input: JSON.parse(row.input ?? '{}') as CallInput,
        target: row.target,
        error: row.error ? (JSON.parse(row.error) as AppError) : null,
      }
    const opened = openJson(key, outboxAad(row.account_id, row.id, row.op), row.sealed)
    return opened && typeof opened === 'object' ? (opened as OutboxPayload) : null
  }

  /** The account's key, or KEYCHAIN_UNAVAILABLE (nothing is opened, written or deleted). */
  private async keyOf(accountId: string): Promise<AccountKey> {
    const { key } = await this.deps.keys.keyFor(accountId)
    return key ?? fail('KEYCHAIN_UNAVAILABLE', OUTBOX_LOCKED)
  }

  private async view(row: Row): Promise<OutboxItem> {
    const payload = this.payloadOf(row, await this.keyOf(row.account_id))
    return {
      id: row.id,
      accountId: row.account_id,
      accountLabel: row.account_label,
      op: row.op,
      summary: (await findOperationLazily(row.op))?.summary ?? row.op,
      target: payload?.target ?? null,
      state: payload ? row.state : 'failed',
      error: payload ? payload.error : UNREADABLE,
      attempts: row.attempts,
      createdAt: row.created_at,
      lastTriedAt: row.last_tried_at,
      kept: this.deps.kept ?? 'disk',
    }
  }

  /** One sealed outbox row of a bulk write (made ahead of insertBulk, a few at a time). */
  sealBulk(
    accountId: string,
    op: string,
    key: AccountKey,
    w: { writeId: string; input: CallInput; target: string },
  ): BulkOutboxRow {
    const id = randomUUID()
    const payload: OutboxPayload = { input: w.input, target: w.target, error: null }
    return { id, writeId: w.writeId, sealed: sealJson(key, outboxAad(accountId, id, op), payload) }
  }

  /**
   * Queues the writes of a bulk run (any operation: the bulk engine checks for each before a
   * re-send, and sends it). Synchronous, for the caller's transaction. The rows are not listed
   * (the run shows them) but are counted.
   */
  insertBulk(account: { id: string; label: string }, op: string, rows: BulkOutboxRow[]): void {
    const insert = this.deps.db.prepare(
      `INSERT INTO outbox (id, seq, account_id, account_label, op, sealed, state, created_at,
         bulk_write)
       VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM outbox), ?, ?, ?, ?, 'queued', ?, ?)`,
    )
    const now = this.now()
    for (const r of rows) insert.run(r.id, account.id, account.label, op, r.sealed, now, r.writeId)
  }

  /** Tells listeners the account's counts changed (after insertBulk's transaction). */
  touched(accountId: string): void {
    this.changed(accountId)
  }

  /** Keeps a write for later, sealed (its input checked first, so a bad one is refused now). */
  async enqueue(
    account: { id: string; label: string },
    op: OperationDef,
    input: CallInput,
  ): Promise<OutboxItem> {
    if (op.offline !== 'queue') fail('OFFLINE', 'This change cannot be kept for later.')
    prepareRequest(op, input)
    const key = await this.keyOf(account.id)
    const id = randomUUID()
    const payload: OutboxPayload = {
      input: { path: input.path, query: input.query, body: input.body },
      target: targetOf(input),
      error: null,
    }
    this.deps.db
      .prepare(
        `INSERT INTO outbox (id, seq, account_id, account_label, op, sealed, state, created_at)
         VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM outbox), ?, ?, ?, ?, 'queued', ?)`,
      )
      .run(
        id,
        account.id,
        account.label,
        op.id,
        sealJson(key, outboxAad(account.id, id, op.id), payload),
        this.now(),
      )
    this.changed(account.id)
    return (await this.get(id))!
  }

  async get(id: string): Promise<OutboxItem | null> {
    const row = this.row(id)
    return row ? this.view(row) : null
  }

  /** The account of an item, or null when this outbox has no such item. */
  accountOf(id: string): string | null {
    return this.row(id)?.account_id ?? null
  }

  private row(id: string): Row | undefined {
    return this.deps.db.prepare('SELECT * FROM outbox WHERE id = ?').get(id) as Row | undefined
  }

  /** Items of one account (or all), oldest first. */
  async list(accountId?: string): Promise<OutboxItem[]> {
    const rows = (
      accountId
        ? this.deps.db
            .prepare(
              'SELECT * FROM outbox WHERE account_id = ? AND bulk_write IS NULL ORDER BY seq',
            )
            .all(accountId)
        : this.deps.db.prepare('SELECT * FROM outbox WHERE bulk_write IS NULL ORDER BY seq').all()
    ) as Row[]
    const items: OutboxItem[] = []
    for (const r of rows) items.push(await this.view(r))
    return items
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
      running = this.run(accountId).finally(() => {
        this.replaying.delete(accountId)
        // The counts a replay's bulk writes left to announce go now: a replay ends exact.
        if (this.soon.has(accountId)) this.changed(accountId)
      })
      this.replaying.set(accountId, running)
    }
    return running
  }

  /** Puts a refused item back in the queue and replays the account now. */
  async retry(id: string): Promise<OutboxItem[]> {
    const row = this.row(id) ?? fail('NOT_FOUND', 'That item is no longer in the outbox.')
    const blocked = this.deps.blocked()
    if (blocked) fail('OFFLINE', `${blocked} The item stays in the outbox.`)
    if (row.state === 'failed') {
      this.deps.db.prepare("UPDATE outbox SET state = 'queued' WHERE id = ?").run(id)
      this.changed(row.account_id)
    }
    // A replay already running picks the item up (it always takes the oldest queued one).
    await this.replay(row.account_id)
    return this.list(row.account_id)
  }

  /** Drops one item (the user decided not to send it); false when it was already gone. */
  discard(id: string): boolean {
    const row = this.row(id)
    if (!row) return false
    if (row.state === 'sending') fail('CONFLICT', 'That item is being sent right now.')
    if (row.bulk_write)
      fail('CONFLICT', 'That change belongs to a bulk run: cancel the run instead.')
    this.deps.db.prepare('DELETE FROM outbox WHERE id = ?').run(id)
    this.changed(row.account_id)
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
      // Without the account's key nothing is opened: the items wait, untouched.
      const { key } = await this.deps.keys.keyFor(accountId)
      if (!key) return
      if (row.bulk_write !== null) {
        if (!(await this.deliverBulk(row))) return
        continue
      }
      const payload = this.payloadOf(row, key)
      if (!payload) {
        this.deps.db.prepare("UPDATE outbox SET state = 'failed' WHERE id = ?").run(row.id)
        this.changed(accountId)
        continue
      }
      // Handed over before, its answer lost (a crash, a dropped connection): asked for first.
      const again = row.attempts > 0
      this.deps.db
        .prepare(
          "UPDATE outbox SET state = 'sending', attempts = attempts + 1, last_tried_at = ? WHERE id = ?",
        )
        .run(this.now(), row.id)
      this.changed(accountId)
      try {
        const call = (op: string, input: CallInput) => this.deps.send(accountId, op, input)
        if (!(again && (await alreadyMade(call, row.op, payload.input))))
          await call(row.op, payload.input)
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
        // The service's words are sealed with the rest (an older plain row is sealed now too).
        const sealed = sealJson(key, outboxAad(accountId, row.id, row.op), { ...payload, error })
        this.deps.db
          .prepare(
            `UPDATE outbox SET state = 'failed', sealed = ?, input = NULL, target = NULL,
               error = NULL WHERE id = ?`,
          )
          .run(sealed, row.id)
        this.changed(accountId)
      }
    }
  }

  /** One bulk row: the engine delivers it; false when the replay has to stop (not reached). */
  private async deliverBulk(row: Row): Promise<boolean> {
    const deliver = this.deps.deliver
    if (!deliver || !row.bulk_write) return false
    this.stmt(
      "UPDATE outbox SET state = 'sending', attempts = attempts + 1, last_tried_at = ? WHERE id = ?",
    ).run(this.now(), row.id)
    let outcome: 'finished' | 'wait' = 'wait'
    try {
      outcome = await deliver(row.bulk_write)
    } catch (err) {
      this.deps.log?.('error', `bulk write ${row.bulk_write} not delivered: ${String(err)}`)
    }
    if (outcome === 'finished') this.stmt('DELETE FROM outbox WHERE id = ?').run(row.id)
    else this.stmt("UPDATE outbox SET state = 'queued' WHERE id = ?").run(row.id)
    this.changedSoon(row.account_id)
    return outcome === 'finished'
  }

  private changed(accountId: string): void {
    clearTimeout(this.soon.get(accountId))
    this.soon.delete(accountId)
    if (this.deps.announce) this.deps.announce(accountId)
    else this.deps.events.emit('outbox.changed', this.counts(accountId))
  }

  /**
   * Announces the counts within BULK_EVENT_MS: a bulk run's thousands of writes make one event a
   * second, not one each (every event is a count over the queue here and a read of the outbox in
   * each window). The replay's end announces what is still pending.
   */
  private changedSoon(accountId: string): void {
    if (this.soon.has(accountId)) return
    const timer = setTimeout(() => this.changed(accountId), BULK_EVENT_MS)
    timer.unref?.()
    this.soon.set(accountId, timer)
  }

  /** Waits for running replays (shutdown). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.replaying.values()])
  }
}
