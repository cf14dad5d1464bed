import { randomUUID } from 'node:crypto'
import {
  type BulkAction,
  type BulkBody,
  type BulkItemState,
  type BulkRunDetails,
  type BulkRunView,
  type BulkStartInput,
} from '@contract/bulk'
import { fail, type AppError } from '@contract/errors'
import type { Kept } from '@contract/kept'
import type { AccountKey, KeySource } from '../accounts/account-keys'
import { findOperationLazily } from '../catalog'
import type { CoreEvents } from '../events'
import { toAppError } from '../handlers/dispatch'
import { prepareRequest, type CallInput } from '../http/request'
import { isUnreachable } from '../offline/connectivity'
import type { BulkOutboxRow, Outbox } from '../offline/outbox'
import type { Db } from '../store/database'
import { inputOf, resultIdOf, verdictOf } from './checks'
import { BulkRepo, UNREADABLE, type ItemPayload, type ItemRow, type RunRow } from './repo'

/** What the bulk engine needs from the rest of the core. */
export interface BulkDeps {
  db: Db
  events: CoreEvents
  keys: KeySource
  outbox: Outbox
  /** Where its runs are: on disk (default), or the session store's memory. */
  kept?: Kept
  /** The account's id and label (throws UNKNOWN_ACCOUNT). */
  account: (accountId: string) => { id: string; label: string }
  /** Sends one operation through the account's gated client. */
  call: (accountId: string, op: string, input: CallInput) => Promise<unknown>
  /** True while the account's service is known not to answer (the outbox waits for it). */
  unreachable: (accountId: string) => boolean
  now?: () => Date
  /** Waits (a 429's Retry-After); tests shorten it. */
  sleep?: (ms: number) => Promise<void>
  log?: (level: 'info' | 'warn' | 'error', message: string) => void
}

/** How often a write refused with 429 is tried again before it counts as failed. */
const RATE_LIMIT_TRIES = 5
/** Writes checked and sealed between two yields of main's event loop. */
const CHUNK = 250
/** At most this often a running run's counts go to the renderer (its end always does). */
const EVENT_EVERY_MS = 250

const LOCKED =
  'The system keychain is not available, and ScanDesk seals the bulk runs it keeps on this computer with a key it keeps there: they stay as they are, unopened, until the keychain answers again.'

/**
 * Bulk runs: one single write per record, each queued in the outbox (so a run waits out the
 * service's absence and survives a restart like any queued change) and delivered here. Before a
 * write is handed to the service a second time (its answer was lost: a 503, a dropped connection,
 * a timeout, a crash) the service is asked whether it already has it, so no write is made twice.
 */
export class BulkRuns {
  private readonly repo: BulkRepo
  private readonly timers = new Map<string, NodeJS.Timeout>()

  constructor(private readonly deps: BulkDeps) {
    this.repo = new BulkRepo(deps.db, deps.kept ?? 'disk')
    // Writes caught by a crash go back to the queue; their attempts make the next delivery check.
    this.repo.requeueSending()
  }

  private now(): string {
    return (this.deps.now?.() ?? new Date()).toISOString()
  }

  private async keyOf(accountId: string): Promise<AccountKey> {
    const { key } = await this.deps.keys.keyFor(accountId)
    return key ?? fail('KEYCHAIN_UNAVAILABLE', LOCKED)
  }

  private runOf(runId: string): RunRow {
    return this.repo.run(runId) ?? fail('NOT_FOUND', 'That bulk run is no longer kept.')
  }

  /** Queues one write per record and starts sending them (unless the service is away). */
  async start(input: BulkStartInput): Promise<BulkRunView> {
    const account = this.deps.account(input.accountId)
    const key = await this.keyOf(account.id)
    const op =
      (await findOperationLazily(input.action)) ?? fail('UNKNOWN_OPERATION', 'Unknown bulk action.')
    const body: BulkBody = 'body' in input ? input.body : {}
    const run = { id: randomUUID(), account_id: account.id, action: input.action }
    // Checked and sealed a chunk at a time, yielding between chunks: 5,000 writes never hold
    // main's event loop for long; then one transaction inserts them all (or none).
    const items: { writeId: string; sealed: Buffer }[] = []
    const rows: BulkOutboxRow[] = []
    for (let i = 0; i < input.items.length; i += CHUNK) {
      for (const t of input.items.slice(i, i + CHUNK)) {
        const call = inputOf(input.action, t.id, body)
        prepareRequest(op, call) // a write the service would refuse as malformed is refused now
        const write = {
          writeId: randomUUID(),
          target: t.id,
          label: t.label ?? null,
          host: t.host ?? null,
          input: call,
        }
        items.push({ writeId: write.writeId, sealed: this.repo.sealNew(key, run, write) })
        rows.push(this.deps.outbox.sealBulk(account.id, input.action, key, write))
      }
      await new Promise((resolve) => setImmediate(resolve))
    }
    const now = this.now()
    this.deps.db.transaction(() => {
      this.repo.prune(account.id)
      this.repo.insertRun(key, { ...run, created_at: now, updated_at: now }, body)
      this.repo.insertItems(run.id, items)
      this.deps.outbox.insertBulk(account, input.action, rows)
    })()
    this.deps.outbox.touched(account.id)
    if (!this.deps.unreachable(account.id)) void this.deps.outbox.replay(account.id)
    return this.view(run.id, key)
  }

  private async view(runId: string, known?: AccountKey): Promise<BulkRunView> {
    const run = this.runOf(runId)
    const key = known ?? (await this.keyOf(run.account_id))
    return this.repo.view(run, this.repo.body(key, run) ?? {})
  }

  /** True when the run is kept here. */
  owns(runId: string): boolean {
    return !!this.repo.run(runId)
  }

  /** How many bulk runs the account keeps (no key needed: nothing is opened). */
  count(accountId: string): number {
    return this.repo.runs(accountId).length
  }

  /** The account's runs, newest first. */
  async list(accountId: string): Promise<BulkRunView[]> {
    const account = this.deps.account(accountId)
    const runs = this.repo.runs(account.id)
    if (!runs.length) return []
    const key = await this.keyOf(account.id)
    return runs.map((run) => this.repo.view(run, this.repo.body(key, run) ?? {}))
  }

  /** The run with every write, or with one page of the writes in `state` (from page 1). */
  async get(
    runId: string,
    options: { page?: number; perPage?: number; state?: BulkItemState } = {},
  ): Promise<BulkRunDetails> {
    const run = this.runOf(runId)
    const key = await this.keyOf(run.account_id)
    const { page, perPage = 100, state } = options
    const rows = page
      ? this.repo.itemsPage(run.id, state, perPage, (page - 1) * perPage)
      : this.repo.items(run.id, state ? [state] : undefined)
    const items = rows.map((item) => this.repo.itemView(item, this.repo.payload(key, run, item)))
    const view = this.repo.view(run, this.repo.body(key, run) ?? {})
    return { ...view, items, matching: state ? view.counts[state] : view.counts.total }
  }

  /** Stops the writes not yet handed over (one being sent keeps its result). */
  async cancel(runId: string): Promise<BulkRunView> {
    const run = this.runOf(runId)
    this.deps.db.transaction(() => {
      const ids = this.repo.move(run.id, 'queued', 'cancelled')
      const drop = this.deps.db.prepare('DELETE FROM outbox WHERE bulk_write = ?')
      for (const id of ids) drop.run(id)
    })()
    this.deps.outbox.touched(run.account_id)
    this.emit(run.id)
    return this.view(run.id)
  }

  /** Queues the failed writes again; each is checked for before it is sent. */
  async retry(runId: string): Promise<BulkRunView> {
    const run = this.runOf(runId)
    const key = await this.keyOf(run.account_id)
    const account = this.deps.account(run.account_id)
    const body = this.repo.body(key, run) ?? fail('INTEGRITY_FAILED', UNREADABLE)
    this.deps.db.transaction(() => {
      const failed = this.repo.items(run.id, ['failed'])
      const rows = failed.flatMap((item) => {
        const p = this.repo.payload(key, run, item)
        if (!p) return []
        const cleared: ItemPayload = { ...p, message: null, code: null }
        this.repo.finish(key, run, item.write_id, 'queued', cleared, this.now())
        const input = inputOf(run.action, p.target, body)
        const write = { writeId: item.write_id, target: p.target, input }
        return [this.deps.outbox.sealBulk(account.id, run.action, key, write)]
      })
      this.deps.outbox.insertBulk(account, run.action, rows)
    })()
    this.deps.outbox.touched(run.account_id)
    if (!this.deps.unreachable(run.account_id)) void this.deps.outbox.replay(run.account_id)
    this.emit(run.id)
    return this.view(run.id, key)
  }

  /** Forgets a finished run; false when it was already gone. */
  dismiss(runId: string): boolean {
    const run = this.repo.run(runId)
    if (!run) return false
    if (!this.repo.finished(run.id)) fail('CONFLICT', 'The run is still sending: cancel it first.')
    this.repo.deleteRun(run.id)
    return true
  }

  /**
   * Delivers one write (the outbox's replay calls this): asks the service what it has of it,
   * then sends it if needed. 'wait' when the service cannot be reached: the write stays queued,
   * its attempts counted, and the replay resumes once the account is back online.
   */
  async deliver(writeId: string): Promise<'finished' | 'wait'> {
    const item = this.repo.item(writeId)
    if (!item || (item.state !== 'queued' && item.state !== 'sending')) return 'finished'
    const run = this.runOf(item.run_id)
    const { key } = await this.deps.keys.keyFor(run.account_id)
    if (!key) return 'wait'
    const payload = this.repo.payload(key, run, item)
    const body = this.repo.body(key, run)
    if (!payload || !body) {
      const error: AppError = { code: 'INTEGRITY_FAILED', message: UNREADABLE }
      return this.fail(key, run, item, payload, error)
    }
    this.repo.setState(writeId, 'sending', run.id, this.now())
    const call = (op: string, input: CallInput) => this.deps.call(run.account_id, op, input)
    for (let tries = 1; ; tries++) {
      try {
        const attempted = (this.repo.item(writeId)?.attempts ?? 0) > 0
        const verdict = await verdictOf(call, run.action, payload.target, body, attempted)
        if (verdict.kind === 'done') return this.done(key, run, item, payload, verdict.resultId)
        if (verdict.kind === 'skip')
          return this.end(key, run, item, 'skipped', { ...payload, message: verdict.message })
        // Counted (and committed) before the request leaves: a crash after this line makes the
        // next delivery check first.
        this.repo.markSent(writeId, this.now())
        const answer = await call(run.action, inputOf(run.action, payload.target, body))
        return this.done(key, run, item, payload, resultIdOf(answer))
      } catch (err) {
        const error = toAppError(err)
        if (error.code === 'RATE_LIMITED' && tries < RATE_LIMIT_TRIES) {
          await (this.deps.sleep ?? sleep)(Math.min(error.retryAfterMs ?? 1000, 30_000))
          continue
        }
        if (isUnreachable(err) || error.code === 'CANCELLED' || error.code === 'NOT_SIGNED_IN') {
          this.repo.setState(writeId, 'queued', run.id, this.now())
          this.changed(run.id)
          return 'wait'
        }
        this.deps.log?.('warn', `bulk write ${writeId} (${run.action}) refused: ${error.code}`)
        return this.fail(key, run, item, payload, error)
      }
    }
  }

  private done(
    key: AccountKey,
    run: RunRow,
    item: ItemRow,
    payload: ItemPayload,
    resultId: string | null,
  ): 'finished' {
    return this.end(key, run, item, 'done', { ...payload, message: null, code: null, resultId })
  }

  private fail(
    key: AccountKey,
    run: RunRow,
    item: ItemRow,
    payload: ItemPayload | null,
    error: AppError,
  ): 'finished' {
    const base: ItemPayload = payload ?? {
      target: '',
      label: null,
      message: null,
      code: null,
      resultId: null,
    }
    return this.end(key, run, item, 'failed', { ...base, message: error.message, code: error.code })
  }

  private end(
    key: AccountKey,
    run: RunRow,
    item: ItemRow,
    state: 'done' | 'skipped' | 'failed',
    payload: ItemPayload,
  ): 'finished' {
    this.repo.finish(key, run, item.write_id, state, payload, this.now())
    if (this.repo.finished(run.id)) this.emit(run.id)
    else this.changed(run.id)
    return 'finished'
  }

  /** Announces the run's counts soon (at most every EVENT_EVERY_MS). */
  private changed(runId: string): void {
    if (this.timers.has(runId)) return
    this.timers.set(
      runId,
      setTimeout(() => this.emit(runId), EVENT_EVERY_MS),
    )
  }

  private emit(runId: string): void {
    clearTimeout(this.timers.get(runId))
    this.timers.delete(runId)
    const run = this.repo.run(runId)
    if (!run) return
    void this.deps.keys.keyFor(run.account_id).then(({ key }) => {
      // Read again once the key is in: the view's updatedAt and counts are of one moment (the
      // renderer orders views by updatedAt).
      const latest = this.repo.run(runId)
      if (key && latest)
        this.deps.events.emit(
          'bulk.changed',
          this.repo.view(latest, this.repo.body(key, latest) ?? {}),
        )
    })
  }

  /** Accounts with writes of a run waiting (replayed at start). */
  waitingAccounts(): string[] {
    return (
      this.deps.db
        .prepare(
          `SELECT DISTINCT r.account_id FROM bulk_items i JOIN bulk_runs r ON r.id = i.run_id
           WHERE i.state = 'queued'`,
        )
        .all() as { account_id: string }[]
    ).map((r) => r.account_id)
  }

  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer)
    this.timers.clear()
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

export type { BulkAction }
