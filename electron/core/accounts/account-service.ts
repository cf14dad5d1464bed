import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import { normaliseBaseUrl, type addAccountInput, type AccountView } from '@contract/accounts'
import type { AccountList } from '@contract/channels'
import { fail } from '@contract/errors'
import type { AccountRow, AccountsRepo } from '../store/accounts-repo'
import type { SettingsRepo } from '../store/settings-repo'
import { credentialKind, type ClientPool } from './client-pool'
import { signInWithPassword } from './sign-in'
import type { Vault } from './vault'

/** The parsed payload of accounts.add. */
export type AddAccountInput = z.output<typeof addAccountInput>

/** Extra facts about an account that the form does not set. */
export interface AddOptions {
  isDemo?: boolean
}

/** What the account service needs. */
export interface AccountServiceDeps {
  accounts: AccountsRepo
  settings: SettingsRepo
  vault: Vault
  clients: ClientPool
  /** Called after every change (core emits 'accounts.changed'). */
  changed: (list: AccountList) => void
  now?: () => Date
  log?: (level: 'info' | 'warn' | 'error', message: string) => void
}

const ACTIVE_KEY = 'active_account_id'
const SIGN_OUT_DEADLINE_MS = 5_000

/** Accounts: add, sign in and out, remove, list, the active account. Secrets stay in the vault. */
export class AccountService {
  constructor(private readonly deps: AccountServiceDeps) {}

  private now(): string {
    return (this.deps.now?.() ?? new Date()).toISOString()
  }

  /** The stored row, or UNKNOWN_ACCOUNT. */
  row(accountId: string): AccountRow {
    return (
      this.deps.accounts.get(accountId) ?? fail('UNKNOWN_ACCOUNT', 'That account does not exist.')
    )
  }

  /** What the renderer may see of one account. */
  async view(row: AccountRow): Promise<AccountView> {
    const [credential, status] = await Promise.all([
      this.deps.clients.credential(row),
      this.deps.vault.status(),
    ])
    return {
      id: row.id,
      label: row.label,
      baseUrl: row.baseUrl,
      username: row.username,
      release: row.release,
      color: row.color,
      authMethod: row.authMethod,
      signedIn: credential !== null,
      secretsInMemoryOnly: !status.available,
      isDemo: row.isDemo,
      createdAt: row.createdAt,
    }
  }

  /** Every account and the active one. */
  async list(): Promise<AccountList> {
    const rows = this.deps.accounts.list()
    const accounts = await Promise.all(rows.map((r) => this.view(r)))
    let activeId = this.deps.settings.get<string | null>(ACTIVE_KEY, null)
    if (!rows.some((r) => r.id === activeId)) activeId = rows[0]?.id ?? null
    return { accounts, activeId }
  }

  /** The demo service's account, if any. */
  findDemo(): AccountRow | undefined {
    return this.deps.accounts.findDemo()
  }

  /**
   * Adds an account: signs in first, so a refused sign-in stores nothing; then the row (no
   * secrets) and the API key and session token in the vault.
   */
  async add(input: AddAccountInput, options: AddOptions = {}): Promise<AccountView> {
    const baseUrl = normaliseBaseUrl(input.baseUrl)
    const duplicate = this.deps.accounts
      .list()
      .find(
        (a) => a.baseUrl === baseUrl && a.username.toLowerCase() === input.username.toLowerCase(),
      )
    if (duplicate)
      fail(
        'CONFLICT',
        `“${duplicate.label}” already signs in as ${input.username} at this address.`,
      )
    const client = this.deps.clients.create({
      baseUrl,
      apiKey: input.apiKey,
      release: input.release,
      getAuth: () => null,
    })
    let token: string
    try {
      token = await signInWithPassword(client, input.username, input.password)
    } finally {
      client.close()
    }
    const now = this.now()
    const row: AccountRow = {
      id: randomUUID(),
      label: input.label,
      baseUrl,
      username: input.username,
      release: input.release,
      color: input.color,
      authMethod: 'password',
      isDemo: options.isDemo === true,
      allowInsecureHttp: input.allowInsecureHttp === true,
      createdAt: now,
      updatedAt: now,
    }
    try {
      this.deps.accounts.insert(row)
      await this.deps.vault.set(row.id, 'api_key', input.apiKey)
      await this.deps.vault.set(row.id, 'session_token', token)
    } catch (err) {
      this.deps.accounts.delete(row.id)
      await this.deps.vault.deleteAll(row.id).catch(() => undefined)
      throw err
    }
    this.deps.clients.forget(row.id)
    this.deps.clients.remember(row.id, { scheme: 'Bearer', token })
    if (!this.deps.accounts.get(this.deps.settings.get<string>(ACTIVE_KEY, '')))
      this.deps.settings.set(ACTIVE_KEY, row.id)
    this.deps.log?.('info', `account added: ${row.id}`)
    await this.notify()
    return this.view(row)
  }

  /** Signs in again with the password (the API key comes from the vault). */
  async signIn(accountId: string, password: string): Promise<AccountView> {
    const row = this.row(accountId)
    const client = await this.deps.clients.client(row)
    const token = await signInWithPassword(client, row.username, password)
    await this.storeSession(row, token)
    await this.notify()
    return this.view(row)
  }

  /**
   * Points an existing account at a new address and API key and signs in again (the demo
   * service gets a new port every run). Nothing changes when the sign-in is refused.
   */
  async reconnect(
    accountId: string,
    next: { baseUrl: string; apiKey: string; username: string; password: string },
  ): Promise<AccountView> {
    const row = this.row(accountId)
    const baseUrl = normaliseBaseUrl(next.baseUrl)
    const client = this.deps.clients.create({
      baseUrl,
      apiKey: next.apiKey,
      release: row.release,
      getAuth: () => null,
    })
    let token: string
    try {
      token = await signInWithPassword(client, next.username, next.password)
    } finally {
      client.close()
    }
    const updated =
      this.deps.accounts.update(row.id, { baseUrl, username: next.username }, this.now()) ?? row
    this.deps.clients.forget(row.id)
    await this.deps.vault.set(row.id, 'api_key', next.apiKey)
    await this.storeSession(updated, token)
    await this.notify()
    return this.view(updated)
  }

  /** Ends the session: tells the service when it is reachable, forgets the token; the API key stays. */
  async signOut(accountId: string): Promise<AccountView> {
    const row = this.row(accountId)
    await this.endSession(row)
    await this.notify()
    return this.view(row)
  }

  /** Removes the account: its row, every vault entry and its client. */
  async remove(accountId: string): Promise<{ removed: true }> {
    const row = this.row(accountId)
    await this.endSession(row)
    await this.deps.vault.deleteAll(row.id)
    this.deps.accounts.delete(row.id)
    this.deps.clients.forget(row.id)
    if (this.deps.settings.get<string | null>(ACTIVE_KEY, null) === row.id)
      this.deps.settings.set(ACTIVE_KEY, this.deps.accounts.list()[0]?.id)
    this.deps.log?.('info', `account removed: ${row.id}`)
    await this.notify()
    return { removed: true }
  }

  /** Makes an account the active one. */
  async setActive(accountId: string): Promise<AccountList> {
    const row = this.row(accountId)
    this.deps.settings.set(ACTIVE_KEY, row.id)
    return this.notify()
  }

  /** Forgets the session token after the service refused it (401): the account shows signed out. */
  async sessionRefused(accountId: string): Promise<void> {
    const row = this.deps.accounts.get(accountId)
    if (!row || row.authMethod !== 'password') return
    await this.deps.vault.delete(row.id, 'session_token')
    this.deps.clients.remember(row.id, null)
    await this.notify()
  }

  private async storeSession(row: AccountRow, token: string): Promise<void> {
    await this.deps.vault.set(row.id, 'session_token', token)
    this.deps.clients.remember(row.id, { scheme: 'Bearer', token })
  }

  private async endSession(row: AccountRow): Promise<void> {
    if (row.authMethod !== 'password') return
    const credential = await this.deps.clients.credential(row)
    if (credential) {
      try {
        const client = await this.deps.clients.client(row)
        await client.call('auth.sign_out', {}, { deadlineMs: SIGN_OUT_DEADLINE_MS })
      } catch {
        // Unreachable or already expired: the token is forgotten locally either way.
      }
    }
    await this.deps.vault.delete(row.id, credentialKind(row).kind)
    this.deps.clients.remember(row.id, null)
  }

  private async notify(): Promise<AccountList> {
    const list = await this.list()
    this.deps.changed(list)
    return list
  }
}
