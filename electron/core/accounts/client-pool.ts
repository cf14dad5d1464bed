import { fail } from '@contract/errors'
import type { AccountClient } from '../http/client'
import {
  type AccountClientOptions,
  type AuthCredential,
  type ClientLimits,
  DEFAULT_LIMITS,
} from '../http/options'
import { RetryBudget } from '../http/retry'
import type { AccountRow } from '../store/accounts-repo'
import { SessionGate } from './session-gate'
import type { Vault } from './vault'

/** Settings every client of the pool shares. */
export interface ClientPoolOptions {
  vault: Vault
  limits?: Partial<ClientLimits>
  userAgent?: string
  /** How long calls wait for a new sign-in after the session ended (default: the deadline). */
  reauthWaitMs?: number
  /** Why no request may leave now ("Work offline", no network), read before every request. */
  networkBlocked?: () => string | null
  /**
   * Told the outcome of every call, read and download of a stored account's client (null: it
   * succeeded), so connectivity follows export jobs and replays as well as views.
   */
  observe?: (accountId: string, failure: unknown) => void
}

type ClientKey = Pick<
  AccountRow,
  'baseUrl' | 'release' | 'caBundle' | 'authMethod' | 'label' | 'allowInsecureHttp'
>

function keyOf(row: AccountRow): ClientKey {
  const { baseUrl, release, caBundle, authMethod, label, allowInsecureHttp } = row
  return { baseUrl, release, caBundle, authMethod, label, allowInsecureHttp }
}

function sameKey(a: ClientKey, b: ClientKey): boolean {
  return (Object.keys(a) as (keyof ClientKey)[]).every((k) => a[k] === b[k])
}

/**
 * The HTTP client (axios and what it loads: ~100 ms, more than the rest of the core's start), loaded
 * when the first client is made or a little after the start (warm-up.ts), not before the first
 * window.
 */
let clientModule: Promise<typeof import('../http/client')> | null = null

export function loadClientModule(): Promise<typeof import('../http/client')> {
  return (clientModule ??= import('../http/client'))
}

/** The vault kind that holds an account's request credential, and its scheme. */
export function credentialKind(row: Pick<AccountRow, 'authMethod'>) {
  return row.authMethod === 'access_token'
    ? ({ kind: 'access_token', scheme: 'Basic' } as const)
    : ({ kind: 'session_token', scheme: 'Bearer' } as const)
}

/**
 * One client per account, built on first use from the account row (address, release, CA
 * bundle, auth method) and its API key, with the request credential cached in memory (main
 * only) so each call does not ask the keychain. Every client it hands out for a stored account
 * sits behind the session gate, so a session that ends pauses that account's calls.
 */
export class ClientPool {
  private readonly clients = new Map<string, { client: AccountClient; key: ClientKey }>()
  private readonly credentials = new Map<string, AuthCredential | null>()
  /** Per account: the retry budget its clients share, and the controller that aborts its calls. */
  private readonly budgets = new Map<string, RetryBudget>()
  private readonly aborts = new Map<string, AbortController>()
  /** Session expiry: pauses and resumes the calls of one account. */
  readonly gate: SessionGate

  constructor(private readonly options: ClientPoolOptions) {
    this.gate = new SessionGate(
      options.reauthWaitMs ?? { ...DEFAULT_LIMITS, ...options.limits }.deadlineMs,
    )
  }

  /**
   * The account's gated client (rebuilt when its address, release, CA bundle or auth method
   * changed); KEYCHAIN_UNAVAILABLE when its API key is not held anywhere.
   */
  async client(row: AccountRow): Promise<AccountClient> {
    const key = keyOf(row)
    const cached = this.clients.get(row.id)
    if (cached && sameKey(cached.key, key)) return cached.client
    const raw = await this.raw(row, () => this.credential(row), true)
    const client = this.observed(row.id, this.gate.wrap(row, raw))
    // Another caller may have built it while the API key was read: keep one per account.
    const current = this.clients.get(row.id)
    if (current && sameKey(current.key, key)) {
      raw.close()
      return current.client
    }
    current?.client.close()
    this.clients.set(row.id, { client, key })
    return client
  }

  private observed(accountId: string, client: AccountClient): AccountClient {
    const observe = this.options.observe
    if (!observe) return client
    const watch = async <T>(work: () => Promise<T>): Promise<T> => {
      try {
        const result = await work()
        observe(accountId, null)
        return result
      } catch (err) {
        observe(accountId, err)
        throw err
      }
    }
    return {
      ...client,
      call: (opId, input, options) => watch(() => client.call(opId, input, options)),
      read: (opId, input, validators, options) =>
        watch(() => client.read(opId, input, validators, options)),
      download: (opId, input, sink, options) =>
        watch(() => client.download(opId, input, sink, options)),
    }
  }

  /**
   * A client of a stored account with a given credential, outside the gate and the cache (ending
   * a session that may be dead, using a set-aside administrator token). The caller closes it.
   */
  async oneOff(row: AccountRow, credential: AuthCredential | null): Promise<AccountClient> {
    return this.raw(row, () => credential, false)
  }

  private async raw(
    row: AccountRow,
    getAuth: AccountClientOptions['getAuth'],
    abortable: boolean,
  ): Promise<AccountClient> {
    const apiKey = await this.options.vault.get(row.id, 'api_key')
    if (!apiKey)
      fail(
        'KEYCHAIN_UNAVAILABLE',
        `The API key of “${row.label}” is not stored on this computer (the keychain was unavailable when it was added). Remove the account and add it again.`,
      )
    return this.create({
      baseUrl: row.baseUrl,
      apiKey,
      release: row.release,
      ...(row.caBundle ? { caBundle: row.caBundle } : {}),
      getAuth,
      retryBudget: this.budget(row.id),
      // A one-off client ends a session or uses a set-aside token: sign-out must not abort it.
      ...(abortable ? { accountSignal: () => this.signal(row.id) } : {}),
    })
  }

  /** The account's retry budget (one per account, so one account's storm spends only its own). */
  private budget(accountId: string): RetryBudget {
    let budget = this.budgets.get(accountId)
    if (!budget) {
      const limits = { ...DEFAULT_LIMITS, ...this.options.limits }
      budget = new RetryBudget(limits.retryBudgetPerMinute)
      this.budgets.set(accountId, budget)
    }
    return budget
  }

  /** The signal that aborts the account's running calls (a fresh one after each abort). */
  private signal(accountId: string): AbortSignal {
    let controller = this.aborts.get(accountId)
    if (!controller) {
      controller = new AbortController()
      this.aborts.set(accountId, controller)
    }
    return controller.signal
  }

  /**
   * Aborts every running call of the account (signed out, its window closed): they answer
   * CANCELLED; calls made afterwards run normally.
   */
  abortCalls(accountId: string): void {
    const controller = this.aborts.get(accountId)
    this.aborts.delete(accountId)
    controller?.abort()
  }

  /** A client for an account that is not stored yet (adding one). */
  async create(
    options: Omit<AccountClientOptions, 'limits' | 'userAgent'>,
  ): Promise<AccountClient> {
    const { createAccountClient } = await loadClientModule()
    return createAccountClient({
      ...options,
      limits: this.options.limits,
      userAgent: this.options.userAgent,
      ...(this.options.networkBlocked ? { networkBlocked: this.options.networkBlocked } : {}),
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
    this.abortCalls(accountId)
    this.clients.get(accountId)?.client.close()
    this.clients.delete(accountId)
    this.credentials.delete(accountId)
  }

  /** Closes every client. */
  closeAll(): void {
    for (const id of [...this.aborts.keys()]) this.abortCalls(id)
    for (const { client } of this.clients.values()) client.close()
    this.clients.clear()
    this.credentials.clear()
  }
}
