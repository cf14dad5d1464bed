import type { KeychainStatus } from '@contract/channels'
import { KeychainError } from './keychain-vault'
import { MemoryVault } from './memory-vault'
import { SECRET_KINDS, unavailableMessage, type SecretKind, type Vault } from './vault'

/** How the resilient vault reaches the keychain: a vault, or the reason there is none. */
export type KeychainSource = () => Promise<Vault | { reason: string }>

/** Options of the resilient vault. */
export interface ResilientVaultOptions {
  keychain: KeychainSource
  /** Called when the status changes (the keychain was found missing or failed mid-run). */
  onStatus?: (status: KeychainStatus) => void
}

function reasonOf(err: unknown): string {
  if (err instanceof KeychainError) return err.reason
  return 'it failed unexpectedly'
}

/**
 * Uses the keychain while it works; when it is missing, locked or fails, holds secrets in memory
 * for this run only and says so. Never writes a secret anywhere else.
 */
export class ResilientVault implements Vault {
  private readonly memory = new MemoryVault()
  private keychain: Vault | null = null
  private current: KeychainStatus = { available: true, message: null }
  private ready: Promise<void> | null = null

  constructor(private readonly options: ResilientVaultOptions) {}

  /** True when secrets are held in memory only (after the first check). */
  get inMemoryOnly(): boolean {
    return !this.current.available
  }

  /** Checks the keychain once, then reports what is known. */
  async status(): Promise<KeychainStatus> {
    await this.init()
    return this.current
  }

  /** Memory first (secrets kept there after a failure), then the keychain. */
  async get(accountId: string, kind: SecretKind): Promise<string | null> {
    await this.init()
    const inMemory = await this.memory.get(accountId, kind)
    if (inMemory !== null || !this.keychain) return inMemory
    try {
      return await this.keychain.get(accountId, kind)
    } catch (err) {
      this.degrade(err)
      return null
    }
  }

  /** Stores in the keychain, or in memory when the keychain is not usable. */
  async set(accountId: string, kind: SecretKind, value: string): Promise<void> {
    await this.init()
    if (this.keychain) {
      try {
        await this.keychain.set(accountId, kind, value)
        await this.memory.delete(accountId, kind)
        return
      } catch (err) {
        this.degrade(err)
      }
    }
    await this.memory.set(accountId, kind, value)
  }

  /** Deletes from memory and (when reachable) from the keychain. */
  async delete(accountId: string, kind: SecretKind): Promise<void> {
    await this.init()
    await this.memory.delete(accountId, kind)
    if (!this.keychain) return
    try {
      await this.keychain.delete(accountId, kind)
    } catch (err) {
      this.degrade(err)
    }
  }

  /** Deletes every secret of an account. */
  async deleteAll(accountId: string): Promise<void> {
    for (const kind of SECRET_KINDS) await this.delete(accountId, kind)
  }

  private init(): Promise<void> {
    this.ready ??= (async () => {
      let found: Vault | { reason: string }
      try {
        found = await this.options.keychain()
      } catch {
        found = { reason: 'it could not be opened' }
      }
      if ('reason' in found) return this.setStatus(found.reason)
      const probe = await found.status()
      if (!probe.available) {
        this.current = probe
        this.options.onStatus?.(probe)
        return
      }
      this.keychain = found
    })()
    return this.ready
  }

  private degrade(err: unknown): void {
    this.keychain = null
    this.setStatus(reasonOf(err))
  }

  private setStatus(reason: string): void {
    this.current = { available: false, message: unavailableMessage(reason) }
    this.options.onStatus?.(this.current)
  }
}
