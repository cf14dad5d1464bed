import type { KeychainStatus } from '@contract/channels'

/** The kinds of secret an account can hold. */
export const SECRET_KINDS = [
  'api_key',
  'session_token',
  'access_token',
  'password',
  /** An administrator's own session, set aside while the account impersonates a user. */
  'impersonator_token',
  /**
   * The account's own 256-bit key: everything ScanDesk keeps about the account on this computer
   * (offline copy, drafts, outbox) is sealed with keys derived from it (named for its first use).
   */
  'cache_key',
] as const

/** One kind of secret. */
export type SecretKind = (typeof SECRET_KINDS)[number]

/** Where secrets live: the OS keychain, or memory for this run. Never SQLite, never a file. */
export interface Vault {
  status(): Promise<KeychainStatus>
  get(accountId: string, kind: SecretKind): Promise<string | null>
  /**
   * The keychain's own answer: the secret, or null only when the keychain says there is none (or
   * it was deleted here). Throws KeychainError when it cannot answer, so a keychain that does not
   * answer is never taken for "absent" (a new account key over an old copy would lose the copy).
   */
  lookup(accountId: string, kind: SecretKind): Promise<string | null>
  /** Stores in the keychain itself, never in memory instead; KeychainError when it cannot. */
  persist(accountId: string, kind: SecretKind, value: string): Promise<void>
  set(accountId: string, kind: SecretKind, value: string): Promise<void>
  delete(accountId: string, kind: SecretKind): Promise<void>
  deleteAll(accountId: string): Promise<void>
  /**
   * The account's secrets deleted here that the keychain still holds (it could not be reached);
   * they are deleted at the next start. Vaults without a keychain have none.
   */
  undeleted?(accountId: string): SecretKind[]
}

/** The keychain's "account" field of one secret: `${accountId}:${kind}`. */
export function vaultKey(accountId: string, kind: SecretKind): string {
  return `${accountId}:${kind}`
}

/** The status message shown when secrets are held in memory only. */
export function unavailableMessage(reason: string): string {
  return `The system keychain is not available (${reason}); secrets are kept in memory until ScanDesk quits.`
}
