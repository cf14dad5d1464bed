import { fail } from '@contract/errors'
import {
  createAccountClient,
  type AccountClient,
  type AccountClientOptions,
  type AuthCredential,
  type ClientLimits,
} from '../http/client'
import type { AccountRow } from '../store/accounts-repo'
import type { Vault } from './vault'

/** Settings every client of the pool shares. */
export interface ClientPoolOptions {
  vault: Vault
  limits?: Partial<ClientLimits>
  userAgent?: string
}

/** The vault kind that holds an account's request credential, and its scheme. */
export function credentialKind(row: Pick<AccountRow, 'authMethod'>) {
  return row.authMethod === 'access_token'
    ? ({ kind: 'access_token', scheme: 'Basic' } as const)
    : ({ kind: 'session_token', scheme: 'Bearer' } as const)
}

/**
 * One client per account, built on first use from the account row and its API key, with the
 * request credential cached in memory (main only) so each call does not ask the keychain.
 */
export class ClientPool {
  private readonly clients = new Map<string, { client: AccountClient; baseUrl: string }>()
  private readonly credentials = new Map<string, AuthCredential | null>()

  constructor(private readonly options: ClientPoolOptions) {}

  /** The account's client; KEYCHAIN_UNAVAILABLE when its API key is not held anywhere. */
  async client(row: AccountRow): Promise<AccountClient> {
    const cached = this.clients.get(row.id)
    if (cached && cached.baseUrl === row.baseUrl && cached.client.release === row.release)
      return cached.client
    cached?.client.close()
    const apiKey = await this.options.vault.get(row.id, 'api_key')
    if (!apiKey)
      fail(
        'KEYCHAIN_UNAVAILABLE',
        `The API key of “${row.label}” is not stored on this computer (the keychain was unavailable when it was added). Remove the account and add it again.`,
      )
    const client = this.create({
      baseUrl: row.baseUrl,
      apiKey,
      release: row.release,
      getAuth: () => this.credential(row),
    })
    this.clients.set(row.id, { client, baseUrl: row.baseUrl })
    return client
  }

  /** A client for an account that is not stored yet (adding one). */
  create(options: Omit<AccountClientOptions, 'limits' | 'userAgent'>): AccountClient {
    return createAccountClient({
      ...options,
      limits: this.options.limits,
      userAgent: this.options.userAgent,
    })
  }

  /** The account's request credential, or null when it is not signed in. */
  async credential(row: Pick<AccountRow, 'id' | 'authMethod'>): Promise<AuthCredential | null> {
    if (this.credentials.has(row.id)) return this.credentials.get(row.id) ?? null
    const { kind, scheme } = credentialKind(row)
    const token = await this.options.vault.get(row.id, kind)
    const credential = token ? { scheme, token } : null
    this.credentials.set(row.id, credential)
    return credential
  }

  /** Replaces the cached credential after a sign-in or sign-out. */
  remember(accountId: string, credential: AuthCredential | null): void {
    this.credentials.set(accountId, credential)
  }

  /** Drops an account's client and cached credential (address changed, removed, new API key). */
  forget(accountId: string): void {
    this.clients.get(accountId)?.client.close()
    this.clients.delete(accountId)
    this.credentials.delete(accountId)
  }

  /** Closes every client. */
  closeAll(): void {
    for (const { client } of this.clients.values()) client.close()
    this.clients.clear()
    this.credentials.clear()
  }
}
