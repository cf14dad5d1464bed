import type { KeychainStatus } from '@contract/channels'
import { KeychainError, refuseUnstorableSecret } from './keychain-vault'
import { SECRET_KINDS, vaultKey, type SecretKind, type Vault } from './vault'

/** Secrets in a Map for this run only: the fallback when the keychain fails, and for unit tests. */
export class MemoryVault implements Vault {
  private readonly secrets = new Map<string, string>()

  constructor(private readonly reported: KeychainStatus = { available: true, message: null }) {}

  /** Reports the status it was built with. */
  async status(): Promise<KeychainStatus> {
    return this.reported
  }

  /** The secret, or null. */
  async get(accountId: string, kind: SecretKind): Promise<string | null> {
    return this.secrets.get(vaultKey(accountId, kind)) ?? null
  }

  /** The secret or null; KeychainError when built as an unavailable keychain (tests). */
  async lookup(accountId: string, kind: SecretKind): Promise<string | null> {
    if (!this.reported.available) throw new KeychainError('it is not available')
    return this.get(accountId, kind)
  }

  /** Stores a secret; KeychainError when built as an unavailable keychain (tests). */
  async persist(accountId: string, kind: SecretKind, value: string): Promise<void> {
    if (!this.reported.available) throw new KeychainError('it is not available')
    return this.set(accountId, kind, value)
  }

  /** Stores or replaces a secret; refuses what the keychain could not keep, as every vault does. */
  async set(accountId: string, kind: SecretKind, value: string): Promise<void> {
    refuseUnstorableSecret(kind, value)
    this.secrets.set(vaultKey(accountId, kind), value)
  }

  /** Forgets one secret. */
  async delete(accountId: string, kind: SecretKind): Promise<void> {
    this.secrets.delete(vaultKey(accountId, kind))
  }

  /** Forgets every secret of an account. */
  async deleteAll(accountId: string): Promise<void> {
    for (const kind of SECRET_KINDS) this.secrets.delete(vaultKey(accountId, kind))
  }

  /** True when any secret of the account is held (for tests and the resilient vault). */
  has(accountId: string, kind: SecretKind): boolean {
    return this.secrets.has(vaultKey(accountId, kind))
  }

  /** How many secrets are held. */
  get size(): number {
    return this.secrets.size
  }
}
