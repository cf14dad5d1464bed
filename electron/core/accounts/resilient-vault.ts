import type { KeychainStatus } from '@contract/channels'
import { AppFailure } from '@contract/errors'
import { keychainAdvice } from './keychain-advice'
import { KeychainError, refuseUnstorableSecret } from './keychain-vault'
import { MemoryVault } from './memory-vault'
import { SECRET_KINDS, unavailableMessage, type SecretKind, type Vault } from './vault'

/** How the resilient vault reaches the keychain: a vault, or the reason there is none. */
export type KeychainSource = () => Promise<Vault | { reason: string }>

/** Where deletes the keychain could not take yet are kept until they are done (SQLite in the app). */
export interface TombstoneStore {
  add(accountId: string, kind: SecretKind, createdAt: string): void
  remove(accountId: string, kind: SecretKind): void
  list(): { accountId: string; kind: SecretKind }[]
}

/** Tombstones for this run only (unit tests, and a core given no store). */
export class MemoryTombstones implements TombstoneStore {
  private readonly entries = new Map<string, { accountId: string; kind: SecretKind }>()

  add(accountId: string, kind: SecretKind): void {
    this.entries.set(`${accountId}:${kind}`, { accountId, kind })
  }

  remove(accountId: string, kind: SecretKind): void {
    this.entries.delete(`${accountId}:${kind}`)
  }

  list(): { accountId: string; kind: SecretKind }[] {
    return [...this.entries.values()]
  }
}

/** Options of the resilient vault. */
export interface ResilientVaultOptions {
  keychain: KeychainSource
  /** Called when the status changes (the keychain failed, or works again). */
  onStatus?: (status: KeychainStatus) => void
  /** Deletes still owed to the keychain; replayed when the vault starts. Default: memory only. */
  tombstones?: TombstoneStore
  /** Tries per keychain call while it works, and per delete always (default 3). */
  attempts?: number
  /** Wait before the n-th retry: n × this (default 150 ms). */
  retryDelayMs?: number
  /** While the keychain fails, reads and writes try it again only after this long (default 30 s). */
  recheckMs?: number
  now?: () => number
  /** The system whose keychain the advice names (default: this one). */
  platform?: NodeJS.Platform
}

function reasonOf(err: unknown): string {
  if (err instanceof KeychainError) return err.reason
  return 'it failed unexpectedly'
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Uses the keychain while it works. A failed call is retried a few times; when the keychain still
 * fails, secrets written are held in memory for now, the status says so, and the keychain is tried
 * again later (never switched off for the run). A delete that cannot reach the keychain is recorded
 * as a tombstone: reads no longer see that secret, the account service tells the user, and the
 * delete is finished when the keychain answers again, at the latest at the next start.
 * Never writes a secret anywhere else.
 */
export class ResilientVault implements Vault {
  private readonly memory = new MemoryVault()
  private readonly tombstones: TombstoneStore
  private readonly attempts: number
  private readonly retryDelayMs: number
  private readonly recheckMs: number
  /** null only when there is no keychain at all on this system (keytar missing). */
  private keychain: Vault | null = null
  private current: KeychainStatus = { available: true, message: null }
  private failedAt: number | null = null
  private ready: Promise<void> | null = null

  constructor(private readonly options: ResilientVaultOptions) {
    this.tombstones = options.tombstones ?? new MemoryTombstones()
    this.attempts = Math.max(1, options.attempts ?? 3)
    this.retryDelayMs = options.retryDelayMs ?? 150
    this.recheckMs = options.recheckMs ?? 30_000
  }

  /** True when secrets are held in memory only (the keychain is missing or failing now). */
  get inMemoryOnly(): boolean {
    return !this.current.available
  }

  /** Checks the keychain once (finishing recorded deletes), then reports what is known. */
  async status(): Promise<KeychainStatus> {
    await this.init()
    return this.current
  }

  /** The account's secrets still owed a delete in the keychain. */
  undeleted(accountId: string): SecretKind[] {
    return this.tombstones
      .list()
      .filter((t) => t.accountId === accountId)
      .map((t) => t.kind)
  }

  /** Memory first (secrets kept there after a failure), then the keychain unless deleted here. */
  async get(accountId: string, kind: SecretKind): Promise<string | null> {
    await this.init()
    const inMemory = await this.memory.get(accountId, kind)
    const keychain = this.usable()
    if (inMemory !== null || !keychain || this.buried(accountId, kind)) return inMemory
    try {
      return await this.attempt(() => keychain.get(accountId, kind), this.readTries())
    } catch (err) {
      this.failed(err)
      return null
    }
  }

  /**
   * The keychain's own answer (memory first, as get): null only when the keychain says there is
   * none or the secret was deleted here. Throws KeychainError while the keychain fails or is
   * missing, instead of answering null as get does.
   */
  async lookup(accountId: string, kind: SecretKind): Promise<string | null> {
    await this.init()
    if (this.buried(accountId, kind)) return null
    const inMemory = await this.memory.get(accountId, kind)
    if (inMemory !== null) return inMemory
    const keychain = this.usable()
    if (!keychain) throw new KeychainError(this.keychain ? 'it did not answer' : 'it is missing')
    try {
      return await this.attempt(() => keychain.get(accountId, kind), this.readTries())
    } catch (err) {
      this.failed(err)
      throw err instanceof KeychainError ? err : new KeychainError(reasonOf(err))
    }
  }

  /**
   * Stores in the keychain (retried), or in memory when it still fails. VALIDATION for a secret
   * the keychain cannot hold, never a silent switch to memory.
   */
  async set(accountId: string, kind: SecretKind, value: string): Promise<void> {
    try {
      await this.persist(accountId, kind, value)
    } catch (err) {
      if (!(err instanceof KeychainError)) throw err
      await this.memory.set(accountId, kind, value)
    }
  }

  /** Stores in the keychain only (retried); KeychainError when it fails or is missing. */
  async persist(accountId: string, kind: SecretKind, value: string): Promise<void> {
    refuseUnstorableSecret(kind, value)
    await this.init()
    const keychain = this.usable()
    if (!keychain) throw new KeychainError(this.keychain ? 'it did not answer' : 'it is missing')
    // The new secret replaces a recorded delete: forget it first, so that replaying the recorded
    // deletes (when this call finds the keychain back) cannot delete the new secret.
    const buried = this.buried(accountId, kind)
    if (buried) this.tombstones.remove(accountId, kind)
    try {
      await this.attempt(() => keychain.set(accountId, kind, value), this.readTries())
      await this.memory.delete(accountId, kind)
    } catch (err) {
      if (buried) this.tombstones.add(accountId, kind, new Date(this.now()).toISOString())
      if (err instanceof AppFailure) throw err
      this.failed(err)
      throw err instanceof KeychainError ? err : new KeychainError(reasonOf(err))
    }
  }

  /** Deletes from memory and from the keychain (retried); records a tombstone when it fails. */
  async delete(accountId: string, kind: SecretKind): Promise<void> {
    await this.init()
    await this.memory.delete(accountId, kind)
    if (!this.keychain) return
    if (!(await this.deleteInKeychain(accountId, kind)))
      this.tombstones.add(accountId, kind, new Date(this.now()).toISOString())
  }

  /** Deletes every secret of an account; after one kind fails, the rest are recorded at once. */
  async deleteAll(accountId: string): Promise<void> {
    await this.init()
    let reachable = true
    for (const kind of SECRET_KINDS) {
      await this.memory.delete(accountId, kind)
      if (!this.keychain) continue
      if (reachable && (await this.deleteInKeychain(accountId, kind))) continue
      reachable = false
      this.tombstones.add(accountId, kind, new Date(this.now()).toISOString())
    }
  }

  /** Finishes recorded deletes; stops at the first that fails (it stays recorded). */
  async replayTombstones(): Promise<number> {
    const keychain = this.keychain
    if (!keychain) return 0
    let done = 0
    for (const t of this.tombstones.list()) {
      try {
        await keychain.delete(t.accountId, t.kind)
      } catch (err) {
        this.failed(err)
        break
      }
      this.tombstones.remove(t.accountId, t.kind)
      done++
    }
    return done
  }

  private async deleteInKeychain(accountId: string, kind: SecretKind): Promise<boolean> {
    const keychain = this.keychain
    if (!keychain) return false
    try {
      await this.attempt(() => keychain.delete(accountId, kind), this.attempts)
      this.tombstones.remove(accountId, kind)
      return true
    } catch (err) {
      this.failed(err)
      return false
    }
  }

  private buried(accountId: string, kind: SecretKind): boolean {
    return this.tombstones.list().some((t) => t.accountId === accountId && t.kind === kind)
  }

  /** The keychain for reads and writes: always while it works, once per recheck while it fails. */
  private usable(): Vault | null {
    if (!this.keychain) return null
    if (this.current.available || this.failedAt === null) return this.keychain
    return this.now() - this.failedAt >= this.recheckMs ? this.keychain : null
  }

  /** While failing, a read or write tries once (a hanging keychain must not stall every call). */
  private readTries(): number {
    return this.current.available ? this.attempts : 1
  }

  private async attempt<T>(work: () => Promise<T>, tries: number): Promise<T> {
    let last: unknown
    for (let i = 0; i < tries; i++) {
      if (i > 0 && this.retryDelayMs > 0) await sleep(this.retryDelayMs * i)
      try {
        const result = await work()
        await this.recovered()
        return result
      } catch (err) {
        last = err
      }
    }
    throw last
  }

  private now(): number {
    return this.options.now?.() ?? Date.now()
  }

  private init(): Promise<void> {
    this.ready ??= (async () => {
      let found: Vault | { reason: string }
      try {
        found = await this.options.keychain()
      } catch {
        found = { reason: 'it could not be opened' }
      }
      if ('reason' in found) return this.setStatus(unavailableMessage(found.reason))
      this.keychain = found
      const probe = await found.status()
      if (!probe.available) {
        this.failedAt = this.now()
        return this.setStatus(probe.message ?? unavailableMessage('it did not answer'))
      }
      await this.replayTombstones()
    })()
    return this.ready
  }

  private async recovered(): Promise<void> {
    if (this.current.available) return
    this.failedAt = null
    this.setStatus(null)
    await this.replayTombstones()
  }

  private failed(err: unknown): void {
    this.failedAt = this.now()
    this.setStatus(unavailableMessage(reasonOf(err)))
  }

  private setStatus(message: string | null): void {
    const next: KeychainStatus =
      message === null
        ? { available: true, message }
        : {
            available: false,
            message,
            advice: keychainAdvice(
              this.options.platform ?? process.platform,
              this.keychain ? 'loaded' : 'missing',
            ),
          }
    if (next.available === this.current.available && next.message === this.current.message) return
    this.current = next
    this.options.onStatus?.(next)
  }
}
