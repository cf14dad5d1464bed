import type { OperationDef } from '@contract/catalog/types'
import { AppFailure } from '@contract/errors'
import type { Kept } from '@contract/kept'
import type { OutboxCounts, OutboxItem } from '@contract/offline'
import type { CallInput } from '../http/request'
import type { SessionStore } from '../store/session-store'
import { Outbox, type OutboxDeps } from './outbox'

/** What the routed outbox needs: the outbox's deps, the session store, and each store's delivery. */
export interface RoutedOutboxDeps extends Omit<OutboxDeps, 'kept' | 'announce' | 'deliver'> {
  session: SessionStore
  /** Delivers one bulk write of the run kept in `kept` (the bulk engine of that store). */
  deliver?: (kept: Kept, writeId: string) => Promise<'finished' | 'wait'>
}

/**
 * The outbox of every account: on disk, sealed with the account's key, and, for an account that
 * has no key now (no keychain), in the session store's memory until ScanDesk closes. A change is
 * queued where its account's things are kept now; lists, counts and replays cover both (the
 * counts are announced as one); an item is retried or discarded where it is.
 */
export class RoutedOutbox {
  /** The outbox on disk. */
  readonly disk: Outbox
  /** The outbox in memory (accounts without a key). */
  readonly memory: Outbox

  constructor(private readonly deps: RoutedOutboxDeps) {
    const { session, deliver, ...shared } = deps
    const announce = (accountId: string) =>
      deps.events.emit('outbox.changed', this.counts(accountId))
    this.disk = new Outbox({
      ...shared,
      announce,
      deliver: deliver && ((writeId) => deliver('disk', writeId)),
    })
    this.memory = new Outbox({
      ...shared,
      db: session.db,
      keys: session.keys,
      kept: 'memory',
      announce,
      deliver: deliver && ((writeId) => deliver('memory', writeId)),
    })
  }

  /** The outbox holding the item, or null. */
  private holding(id: string): Outbox | null {
    if (this.memory.accountOf(id)) return this.memory
    return this.disk.accountOf(id) ? this.disk : null
  }

  /** Keeps a write for later where the account's things are kept now (disk, or memory). */
  async enqueue(
    account: { id: string; label: string },
    op: OperationDef,
    input: CallInput,
  ): Promise<OutboxItem> {
    const place = await this.deps.session.placeOf(account.id)
    return (place === 'memory' ? this.memory : this.disk).enqueue(account, op, input)
  }

  /** Items of one account (or all), oldest first: those on disk, then those in memory. */
  async list(accountId?: string): Promise<OutboxItem[]> {
    const held = await this.memory.list(accountId)
    try {
      return [...(await this.disk.list(accountId)), ...held]
    } catch (err) {
      // Sealed items on disk with no key to open them: those in memory are still shown.
      if (held.length && err instanceof AppFailure && err.error.code === 'KEYCHAIN_UNAVAILABLE')
        return held
      throw err
    }
  }

  /** Queued and refused counts of an account, both stores together. */
  counts(accountId: string): OutboxCounts {
    const a = this.disk.counts(accountId)
    const b = this.memory.counts(accountId)
    return { accountId, queued: a.queued + b.queued, failed: a.failed + b.failed }
  }

  /** True when the account has writes waiting (a new one goes behind them). */
  hasQueued(accountId: string): boolean {
    return this.disk.hasQueued(accountId) || this.memory.hasQueued(accountId)
  }

  /** Sends the account's queued items: those on disk, then those in memory. */
  async replay(accountId: string): Promise<void> {
    await this.disk.replay(accountId)
    await this.memory.replay(accountId)
  }

  /** Puts a refused item back in the queue and replays its account. */
  async retry(id: string): Promise<OutboxItem[]> {
    const outbox = this.holding(id) ?? this.disk
    const accountId = outbox.accountOf(id)
    await outbox.retry(id)
    return this.list(accountId ?? undefined)
  }

  /** Drops one item where it is; false when it was already gone. */
  discard(id: string): boolean {
    return (this.holding(id) ?? this.disk).discard(id)
  }

  /** Waits for running replays (shutdown). */
  async idle(): Promise<void> {
    await Promise.all([this.disk.idle(), this.memory.idle()])
  }
}
