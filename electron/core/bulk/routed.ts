import type { BulkRunDetails, BulkRunView, BulkStartInput } from '@contract/bulk'
import { AppFailure } from '@contract/errors'
import type { Kept } from '@contract/kept'
import type { RoutedOutbox } from '../offline/outbox-routed'
import type { SessionStore } from '../store/session-store'
import { BulkRuns, type BulkDeps } from './runs'

/** What the routed bulk engine needs: the engine's deps, with both outboxes and the session store. */
export interface RoutedBulkDeps extends Omit<BulkDeps, 'outbox' | 'kept'> {
  outbox: RoutedOutbox
  session: SessionStore
}

/**
 * The bulk runs of every account: on disk, sealed with the account's key, and, for an account
 * that has no key now (no keychain), in the session store's memory until ScanDesk closes, with
 * their writes in that store's outbox. Each store's engine keeps its own promise (a write is
 * checked for before any re-send), so a run in memory is sent once too, within the run of
 * ScanDesk. A run starts where its account's things are kept now; a run is found where it is.
 */
export class RoutedBulkRuns {
  /** Runs on disk. */
  readonly disk: BulkRuns
  /** Runs in memory (accounts without a key). */
  readonly memory: BulkRuns

  constructor(private readonly deps: RoutedBulkDeps) {
    const { session, outbox, ...shared } = deps
    this.disk = new BulkRuns({ ...shared, outbox: outbox.disk })
    this.memory = new BulkRuns({
      ...shared,
      db: session.db,
      keys: session.keys,
      outbox: outbox.memory,
      kept: 'memory',
    })
  }

  private engineOf(runId: string): BulkRuns {
    return this.memory.owns(runId) ? this.memory : this.disk
  }

  /** Queues one write per record where the account's things are kept now, and starts sending. */
  async start(input: BulkStartInput): Promise<BulkRunView> {
    const place = await this.deps.session.placeOf(input.accountId)
    return (place === 'memory' ? this.memory : this.disk).start(input)
  }

  /** The account's runs, newest first, from both stores. */
  async list(accountId: string): Promise<BulkRunView[]> {
    const held = await this.memory.list(accountId)
    let stored: BulkRunView[]
    try {
      stored = await this.disk.list(accountId)
    } catch (err) {
      // Runs sealed on disk with no key to open them: those in memory are still shown.
      if (held.length && err instanceof AppFailure && err.error.code === 'KEYCHAIN_UNAVAILABLE')
        return held
      throw err
    }
    return [...held, ...stored].sort((a, b) => b.createdAt.localeCompare(a.createdAt))
  }

  /** The run with every write, or one page of them. */
  get(runId: string, options: Parameters<BulkRuns['get']>[1] = {}): Promise<BulkRunDetails> {
    return this.engineOf(runId).get(runId, options)
  }

  /** Stops the run's writes not yet handed over. */
  cancel(runId: string): Promise<BulkRunView> {
    return this.engineOf(runId).cancel(runId)
  }

  /** Queues the run's failed writes again. */
  retry(runId: string): Promise<BulkRunView> {
    return this.engineOf(runId).retry(runId)
  }

  /** Forgets a finished run; false when it was already gone. */
  dismiss(runId: string): boolean {
    return this.engineOf(runId).dismiss(runId)
  }

  /** How many runs the account keeps, in both stores. */
  count(accountId: string): number {
    return this.disk.count(accountId) + this.memory.count(accountId)
  }

  /** Delivers one write of a run kept in `kept` (that store's outbox replay calls this). */
  deliver(kept: Kept, writeId: string): Promise<'finished' | 'wait'> {
    return (kept === 'memory' ? this.memory : this.disk).deliver(writeId)
  }

  /** Accounts with writes of a run waiting. */
  waitingAccounts(): string[] {
    return [...new Set([...this.disk.waitingAccounts(), ...this.memory.waitingAccounts()])]
  }

  close(): void {
    this.disk.close()
    this.memory.close()
  }
}
