import { fail } from '@contract/errors'
import type { Release } from '@contract/releases'
import type { AccessTokenState, ReauthRequest } from '@contract/sessions'
import type { AccountClient } from '../http/client'
import type { AuthCredential } from '../http/options'
import type { AccountRow, AccountsRepo } from '../store/accounts-repo'
import type { ClientPool } from './client-pool'
import { signInWithPassword } from './sign-in'
import type { SecretKind, Vault } from './vault'

/** What the session keeper needs (a part of the account service's deps). */
export interface SessionKeeperDeps {
  accounts: AccountsRepo
  vault: Vault
  clients: ClientPool
  now: () => string
  /** Announces the account list after a change. */
  publish: () => Promise<unknown>
  reauthRequired?: (request: ReauthRequest) => void
  log?: (level: 'info' | 'warn' | 'error', message: string) => void
}

const SIGN_OUT_DEADLINE_MS = 5_000

function codeOf(err: unknown): string | undefined {
  return (err as { error?: { code?: string } } | null)?.error?.code
}
const SESSION_ENDED = 'The session ended: the service no longer accepts it.'

/**
 * The sessions of stored accounts: storing a new one (which resumes the gate), remembering the
 * password, switching between password and access token, ending a session at the service, and
 * what the gate asks for when a session is refused (a silent re-sign-in, else one prompt).
 */
export class SessionKeeper {
  constructor(private readonly deps: SessionKeeperDeps) {
    deps.clients.gate.setHooks({
      recover: (id) => this.recover(id),
      prompt: (id, waiting) => void this.prompt(id, waiting),
    })
  }

  /**
   * Stores a new account: the row (no secrets), then its secrets, then caches its credential;
   * a failed step undoes the row and every secret written.
   */
  async insert(
    row: AccountRow,
    secrets: Partial<Record<SecretKind, string | null | undefined>>,
    credential: AuthCredential | null,
  ): Promise<void> {
    try {
      this.deps.accounts.insert(row)
      for (const [kind, value] of Object.entries(secrets) as [SecretKind, string | null][])
        if (value) await this.deps.vault.set(row.id, kind, value)
    } catch (err) {
      this.deps.accounts.delete(row.id)
      await this.deps.vault.deleteAll(row.id).catch(() => undefined)
      throw err
    }
    this.deps.clients.forget(row.id)
    this.deps.clients.remember(row.id, credential)
  }

  /** A client for an account that is not stored (yet): Basic when given an access token. */
  newClient(
    baseUrl: string,
    a: { apiKey: string; release: Release; caBundle?: string | null },
    accessToken?: string,
  ): Promise<AccountClient> {
    return this.deps.clients.create({
      baseUrl,
      apiKey: a.apiKey,
      release: a.release,
      ...(a.caBundle ? { caBundle: a.caBundle } : {}),
      getAuth: () => (accessToken ? { scheme: 'Basic', token: accessToken } : null),
    })
  }

  /** CONFLICT when an account already signs in as that user at that address. */
  refuseDuplicate(baseUrl: string, username: string): void {
    const wanted = username.trim().toLowerCase()
    const duplicate = this.deps.accounts
      .list()
      .find((a) => a.baseUrl === baseUrl && a.username.toLowerCase() === wanted)
    if (duplicate)
      fail('CONFLICT', `“${duplicate.label}” already signs in as ${username} at this address.`)
  }

  /** Stores a Bearer session token and resumes the account's waiting calls. */
  async storeSession(row: AccountRow, token: string): Promise<void> {
    await this.deps.vault.set(row.id, 'session_token', token)
    this.deps.clients.remember(row.id, { scheme: 'Bearer', token })
    this.deps.clients.gate.resume(row.id)
  }

  /** remember true: keep this password; false: delete it; undefined: refresh it when kept. */
  async applyRemember(
    row: AccountRow,
    remember: boolean | undefined,
    password: string | undefined,
  ): Promise<void> {
    const keep = remember ?? row.rememberPassword
    if (keep && password) await this.deps.vault.set(row.id, 'password', password)
    if (!keep) await this.deps.vault.delete(row.id, 'password')
    if (keep !== row.rememberPassword)
      this.deps.accounts.update(row.id, { rememberPassword: keep }, this.deps.now())
  }

  /** Switches how the account signs its requests, with the credential that goes with it. */
  switchMethod(
    row: AccountRow,
    authMethod: AccountRow['authMethod'],
    credential: AuthCredential | null,
  ): void {
    this.deps.accounts.update(row.id, { authMethod }, this.deps.now())
    this.deps.clients.forget(row.id)
    this.deps.clients.remember(row.id, credential)
    this.deps.clients.gate.resume(row.id)
  }

  /**
   * Ends a Bearer session at the service (outside the gate: it may be dead) and forgets it. An
   * impersonation is stopped first and the administrator's sessions are ended too.
   */
  async endSession(row: AccountRow): Promise<void> {
    if (row.authMethod !== 'password') return
    const session = (await this.deps.clients.credential(row))?.token
    if (row.impersonating) {
      const answer = (await this.callWith(row, session, 'auth.stop_impersonation')) as {
        token?: unknown
      } | null
      const stashed = await this.deps.vault.get(row.id, 'impersonator_token')
      const fresh = typeof answer?.token === 'string' ? answer.token : null
      for (const token of new Set([fresh, stashed]))
        await this.callWith(row, token, 'auth.sign_out')
      await this.deps.vault.delete(row.id, 'impersonator_token')
      this.deps.accounts.update(row.id, { impersonating: null }, this.deps.now())
    } else await this.callWith(row, session, 'auth.sign_out')
    await this.deps.vault.delete(row.id, 'session_token')
    this.deps.clients.remember(row.id, null)
  }

  /** One call with a given Bearer token, outside the gate; null when it failed. */
  async callWith(
    row: AccountRow,
    token: string | null | undefined,
    opId: string,
  ): Promise<unknown> {
    if (!token) return null
    try {
      const client = await this.deps.clients.oneOff(row, { scheme: 'Bearer', token })
      try {
        return await client.call(opId, {}, { deadlineMs: SIGN_OUT_DEADLINE_MS })
      } finally {
        client.close()
      }
    } catch {
      return null // Unreachable or already ended: the token is forgotten locally either way.
    }
  }

  /** Generates, revokes or checks the account's access token (the token never leaves main). */
  async accessToken(
    row: AccountRow,
    client: AccountClient,
    action: 'generate' | 'revoke' | 'check',
  ): Promise<AccessTokenState> {
    const state = (inUse: boolean, valid: boolean | null): AccessTokenState => ({
      accountId: row.id,
      inUse,
      valid,
      checkedAt: this.deps.now(),
    })
    if (action === 'check') {
      if (row.authMethod !== 'access_token') return { ...state(false, null), checkedAt: null }
      try {
        await client.call('user.token_validity')
        return state(true, true)
      } catch (err) {
        if (codeOf(err) === 'NOT_SIGNED_IN') return state(true, false)
        throw err
      }
    }
    if (action === 'generate') {
      if (row.authMethod !== 'password')
        fail('CONFLICT', `${row.label} already uses an access token.`)
      const answer = (await client.call('user.generate_access_token')) as {
        data: { access_token: string }
      }
      const token = answer.data.access_token
      await this.endSession(row)
      await this.deps.vault.set(row.id, 'access_token', token)
      this.switchMethod(row, 'access_token', { scheme: 'Basic', token })
      this.deps.log?.('info', `account ${row.id} now uses an access token`)
      await this.deps.publish()
      return state(true, true)
    }
    try {
      await client.call('user.revoke_access_token')
    } catch (err) {
      // Already revoked at the service: forget it here too.
      if (codeOf(err) !== 'NOT_SIGNED_IN') throw err
    }
    if (row.authMethod === 'access_token') {
      await this.deps.vault.delete(row.id, 'access_token')
      this.switchMethod(row, 'password', null)
      await this.deps.publish()
    }
    return state(false, false)
  }

  /** Gate hook: the session was refused; forget it and try the remembered password once. */
  private async recover(accountId: string): Promise<boolean> {
    const row = this.deps.accounts.get(accountId)
    if (!row) return false
    await this.deps.vault.delete(row.id, 'session_token')
    this.deps.clients.remember(row.id, null)
    if (row.impersonating) {
      // The impersonated session ended: never fall back to the administrator silently.
      await this.deps.vault.delete(row.id, 'impersonator_token')
      this.deps.accounts.update(row.id, { impersonating: null }, this.deps.now())
      return false
    }
    const password = row.rememberPassword ? await this.deps.vault.get(row.id, 'password') : null
    if (!password) return false
    try {
      const client = await this.deps.clients.client(row)
      const answer = await signInWithPassword(client, row.username, password)
      if (!('token' in answer)) return false // a second factor cannot be silent
      await this.storeSession(row, answer.token)
      this.deps.log?.('info', `account ${row.id} signed in again with the remembered password`)
      await this.deps.publish()
      return true
    } catch {
      return false
    }
  }

  /** Gate hook: asks the renderer for one sign-in. */
  private async prompt(accountId: string, waiting: number): Promise<void> {
    const row = this.deps.accounts.get(accountId)
    if (!row) return
    this.deps.reauthRequired?.({
      accountId: row.id,
      label: row.label,
      username: row.username,
      waiting,
      reason: SESSION_ENDED,
    })
    await this.deps.publish().catch(() => undefined)
  }
}
