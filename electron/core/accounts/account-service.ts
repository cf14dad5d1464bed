import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import { normaliseBaseUrl, type addAccountInput, type AccountView } from '@contract/accounts'
import type { AccountList } from '@contract/channels'
import { fail } from '@contract/errors'
import type {
  AccessTokenState,
  ChallengeView,
  ReauthRequest,
  SecondFactorMethod,
  SignInOutcome,
} from '@contract/sessions'
import type { AccountClient } from '../http/client'
import type { AccountRow, AccountsRepo } from '../store/accounts-repo'
import type { SettingsRepo } from '../store/settings-repo'
import { SignInChallenges, type Challenge } from './challenges'
import { credentialKind, type ClientPool } from './client-pool'
import { signedOutMessage } from './session-gate'
import { SessionKeeper } from './session-keeper'
import { checkAccessToken, signInWithPassword, type PasswordAnswer } from './sign-in'
import type { SecretKind, Vault } from './vault'

/** The parsed payload of accounts.add with its API key in hand (typed, or copied in main). */
export type AddAccountInput = Omit<z.output<typeof addAccountInput>, 'apiKey' | 'apiKeyFrom'> & {
  apiKey: string
}

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
  /** Called once per pause when the user must sign in again (core emits 'accounts.reauthRequired'). */
  reauthRequired?: (request: ReauthRequest) => void
  now?: () => Date
  log?: (level: 'info' | 'warn' | 'error', message: string) => void
}

/** An account being added while its second factor is pending. */
interface PendingAdd {
  input: AddAccountInput
  baseUrl: string
  options: AddOptions
}

const ACTIVE_KEY = 'active_account_id'

/**
 * Accounts: add (password, second factor, access token), sign in and out, remembered passwords,
 * session expiry, remove, list, the active account. Secrets stay in the vault and in main.
 */
export class AccountService {
  private readonly challenges: SignInChallenges<PendingAdd>
  private readonly sessions: SessionKeeper
  private listRevision = 0

  constructor(private readonly deps: AccountServiceDeps) {
    this.sessions = new SessionKeeper({
      ...deps,
      now: () => this.now(),
      publish: () => this.publish(),
    })
    this.challenges = new SignInChallenges<PendingAdd>({
      now: () => this.clock().getTime(),
      clientOf: (c) => this.challengeClient(c),
      complete: (c, token) => this.completeChallenge(c, token),
    })
  }

  private clock(): Date {
    return this.deps.now?.() ?? new Date()
  }

  private now(): string {
    return this.clock().toISOString()
  }

  /** The stored row, or UNKNOWN_ACCOUNT. */
  row(accountId: string): AccountRow {
    return (
      this.deps.accounts.get(accountId) ?? fail('UNKNOWN_ACCOUNT', 'That account does not exist.')
    )
  }

  /** The gated client of a stored account (every authenticated call goes through the gate). */
  async clientFor(accountId: string): Promise<AccountClient> {
    return this.deps.clients.client(this.row(accountId))
  }

  /** What the renderer may see of one account. */
  async view(row: AccountRow): Promise<AccountView> {
    const [credential, status] = await Promise.all([
      this.deps.clients.credential(row),
      this.deps.vault.status(),
    ])
    const gate = this.deps.clients.gate
    return {
      id: row.id,
      label: row.label,
      baseUrl: row.baseUrl,
      username: row.username,
      release: row.release,
      color: row.color,
      authMethod: row.authMethod,
      signedIn: credential !== null && !gate.isPaused(row.id),
      impersonating: row.impersonating,
      rememberPassword: row.rememberPassword,
      hasCaBundle: row.caBundle !== null,
      awaitingReauth: gate.isPrompting(row.id),
      secretsInMemoryOnly: !status.available,
      isDemo: row.isDemo,
      createdAt: row.createdAt,
    }
  }

  /** Every account and the active one. */
  async list(): Promise<AccountList> {
    // Read at once (the revision, the rows, the active one), then the views, which wait.
    const revision = ++this.listRevision
    const rows = this.deps.accounts.list()
    let activeId = this.deps.settings.get<string | null>(ACTIVE_KEY, null)
    if (!rows.some((r) => r.id === activeId)) activeId = rows[0]?.id ?? null
    const accounts = await Promise.all(rows.map((r) => this.view(r)))
    return { accounts, activeId, revision }
  }

  /** Announces the current list (after a change made here or by the sessions handlers). */
  async notify(): Promise<void> {
    await this.publish()
  }

  /** The demo service's account, if any. */
  findDemo(): AccountRow | undefined {
    return this.deps.accounts.findDemo()
  }

  /**
   * Adds an account. With a password it signs in first: a refused sign-in stores nothing, and a
   * second-factor challenge keeps the whole form in main until the code succeeds. With an access
   * token it checks the token and reads the user's e-mail first.
   */
  async add(input: AddAccountInput, options: AddOptions = {}): Promise<SignInOutcome> {
    const baseUrl = normaliseBaseUrl(input.baseUrl)
    const client = await this.sessions.newClient(baseUrl, input, input.accessToken)
    try {
      if (input.authMethod === 'access_token') {
        const { email } = await checkAccessToken(client)
        const filled = { ...input, username: input.username || email }
        this.sessions.refuseDuplicate(baseUrl, filled.username)
        return this.signedIn(await this.store({ input: filled, baseUrl, options }, null))
      }
      this.sessions.refuseDuplicate(baseUrl, input.username)
      const answer = await signInWithPassword(client, input.username, input.password ?? '')
      if ('challenge' in answer)
        return this.challenges.open({
          accountId: null,
          label: input.label,
          username: input.username,
          service: answer.challenge,
          remember: input.rememberPassword,
          password: input.password,
          pending: { input, baseUrl, options },
        })
      return this.signedIn(await this.store({ input, baseUrl, options }, answer.token))
    } finally {
      client.close()
    }
  }

  /** Signs in again with the password (the API key comes from the vault); may answer a challenge. */
  async signIn(accountId: string, password: string, remember?: boolean): Promise<SignInOutcome> {
    const row = this.row(accountId)
    if (row.authMethod !== 'password')
      fail('BAD_REQUEST', `${row.label} signs in with an access token, not a password.`)
    const answer = await signInWithPassword(await this.clientFor(row.id), row.username, password)
    if ('challenge' in answer)
      return this.challenges.open({
        accountId: row.id,
        label: row.label,
        username: row.username,
        service: answer.challenge,
        remember,
        password,
        pending: null,
      })
    return this.signedIn(await this.afterSignIn(row, answer.token, remember, password))
  }

  /** Finishes a challenge with a code; a wrong code keeps it, an expired one is dropped. */
  secondFactor(
    challengeId: string,
    method: SecondFactorMethod,
    code: string,
  ): Promise<SignInOutcome> {
    return this.challenges.secondFactor(challengeId, method, code)
  }

  /** Sends (or resends) the challenge's SMS code; the view shows the masked phone and the wait. */
  sendSms(challengeId: string): Promise<ChallengeView> {
    return this.challenges.sendSms(challengeId)
  }

  /** Forgets a pending challenge (the dialog was closed). */
  async cancelChallenge(challengeId: string): Promise<{ cancelled: boolean }> {
    return this.challenges.cancel(challengeId)
  }

  /** Turns the remembered password on (with the password) or off (deleting it). */
  async setRemember(accountId: string, remember: boolean, password?: string): Promise<AccountView> {
    const row = this.row(accountId)
    if (row.authMethod !== 'password')
      fail('BAD_REQUEST', `${row.label} signs in with an access token; there is no password.`)
    if (remember && !password)
      fail('VALIDATION', 'Type the password to remember.', {
        fieldErrors: { password: ['is required to remember it'] },
      })
    if (remember && !(await this.secretsPersist()))
      fail(
        'KEYCHAIN_UNAVAILABLE',
        'ScanDesk cannot remember the password now: the system keychain is not available, so it would be kept in memory only and forgotten when ScanDesk quits. Try again when the keychain is back.',
      )
    await this.sessions.applyRemember(row, remember, password)
    await this.publish()
    if (!remember)
      await this.reportUndeleted(
        row,
        ['password'],
        `ScanDesk no longer uses the remembered password of ${row.label}`,
        'the password',
      )
    return this.view(this.row(row.id))
  }

  /** Generates, revokes or checks the account's access token (the token never leaves main). */
  async accessToken(
    accountId: string,
    action: 'generate' | 'revoke' | 'check',
  ): Promise<AccessTokenState> {
    const row = this.row(accountId)
    return this.sessions.accessToken(row, await this.clientFor(row.id), action)
  }

  /** Gives up on re-signing in: the waiting calls fail with NOT_SIGNED_IN. */
  async cancelReauth(accountId: string): Promise<{ cancelled: number }> {
    const row = this.row(accountId)
    const cancelled = this.deps.clients.gate.cancel(row.id, signedOutMessage(row.label))
    await this.publish()
    return { cancelled }
  }

  /** Stores a Bearer session obtained elsewhere (SSO link, impersonation) and resumes the account. */
  async adoptSession(accountId: string, token: string): Promise<AccountView> {
    const row = this.row(accountId)
    if (row.authMethod !== 'password')
      fail('BAD_REQUEST', `${row.label} signs in with an access token, not a session.`)
    await this.sessions.storeSession(row, token)
    await this.publish()
    return this.view(this.row(row.id))
  }

  /** Points an account at a new address and API key and signs in (the demo's port changes). */
  async reconnect(
    accountId: string,
    next: { baseUrl: string; apiKey: string; username: string; password: string },
  ): Promise<AccountView> {
    const row = this.row(accountId)
    const baseUrl = normaliseBaseUrl(next.baseUrl)
    const client = await this.sessions.newClient(baseUrl, {
      apiKey: next.apiKey,
      release: row.release,
    })
    let answer: PasswordAnswer
    try {
      answer = await signInWithPassword(client, next.username, next.password)
    } finally {
      client.close()
    }
    if (!('token' in answer))
      return fail('UNAUTHORIZED', 'This user needs a second factor; it cannot reconnect silently.')
    const updated =
      this.deps.accounts.update(row.id, { baseUrl, username: next.username }, this.now()) ?? row
    this.deps.clients.forget(row.id)
    await this.deps.vault.set(row.id, 'api_key', next.apiKey)
    await this.sessions.storeSession(updated, answer.token)
    await this.publish()
    return this.view(updated)
  }

  /** Points every account at one address to its new one (the demo's users follow its port). */
  async moveService(from: string, to: string): Promise<void> {
    const moving = this.deps.accounts.list().filter((r) => r.baseUrl === from)
    for (const r of moving) {
      this.deps.accounts.update(r.id, { baseUrl: to }, this.now())
      this.deps.clients.forget(r.id)
    }
    if (moving.length) await this.publish()
  }

  /**
   * Ends the session (stopping an impersonation first); the API key stays. The session always ends
   * here; KEYCHAIN_UNAVAILABLE afterwards when the keychain still holds it (deleted at next start).
   */
  async signOut(accountId: string): Promise<AccountView> {
    const row = this.row(accountId)
    // Signed out by the user: the offline copy is not served until the next sign-in.
    this.deps.accounts.update(row.id, { copyLocked: true }, this.now())
    await this.endSession(row)
    await this.publish()
    await this.reportUndeleted(
      row,
      ['session_token', 'impersonator_token'],
      `${row.label} is signed out in ScanDesk`,
      'its session',
    )
    return this.view(this.row(row.id))
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
    await this.publish()
    await this.reportUndeleted(
      row,
      null,
      `${row.label} is removed from ScanDesk`,
      'its saved secrets',
    )
    return { removed: true }
  }

  /** Makes an account the active one. */
  async setActive(accountId: string): Promise<AccountList> {
    const row = this.row(accountId)
    this.deps.settings.set(ACTIVE_KEY, row.id)
    return this.publish()
  }

  /** Forgets every pending challenge (core shutting down). */
  close(): void {
    this.challenges.clear()
    this.deps.clients.gate.cancelAll('ScanDesk is closing.')
  }

  /** Fails waiting calls and pending challenges, then ends the session at the service. */
  private async endSession(row: AccountRow): Promise<void> {
    this.deps.clients.gate.cancel(row.id, signedOutMessage(row.label))
    this.deps.clients.abortCalls(row.id)
    this.challenges.dropAccount(row.id)
    await this.sessions.endSession(row)
  }

  /** True when secrets written now outlive this run (the keychain works). */
  private async secretsPersist(): Promise<boolean> {
    return (await this.deps.vault.status()).available
  }

  /**
   * After a change made here: KEYCHAIN_UNAVAILABLE when the keychain could not delete some of the
   * account's secrets (kinds, or any when null). The vault has recorded them and deletes them when
   * the keychain answers again, at the latest at the next start.
   */
  private async reportUndeleted(
    row: AccountRow,
    kinds: readonly SecretKind[] | null,
    done: string,
    what: string,
  ): Promise<void> {
    const left = (this.deps.vault.undeleted?.(row.id) ?? []).filter(
      (k) => !kinds || kinds.includes(k),
    )
    if (left.length === 0) return
    this.deps.log?.('warn', `keychain delete deferred for account ${row.id}: ${left.join(', ')}`)
    fail(
      'KEYCHAIN_UNAVAILABLE',
      `${done}, but the system keychain could not be reached to delete ${what} there. ScanDesk will finish the delete when the keychain answers again, at the latest the next time it starts.`,
    )
  }

  private signedIn(account: AccountView): SignInOutcome {
    return { status: 'signedIn', account }
  }

  private async challengeClient(
    c: Challenge<PendingAdd>,
  ): Promise<{ client: AccountClient; owned: boolean }> {
    const p = c.pending
    if (!p) return { client: await this.clientFor(c.accountId ?? ''), owned: false }
    return { client: await this.sessions.newClient(p.baseUrl, p.input), owned: true }
  }

  private async afterSignIn(
    row: AccountRow,
    token: string,
    remember: boolean | undefined,
    password: string | undefined,
  ): Promise<AccountView> {
    await this.sessions.storeSession(row, token)
    if (remember === true && !row.rememberPassword && !(await this.secretsPersist())) {
      // Signed in; the password is not remembered while it could only be kept in memory.
      this.deps.log?.('warn', `account ${row.id}: password not remembered, keychain unavailable`)
      remember = undefined
    }
    await this.sessions.applyRemember(row, remember, password)
    await this.publish()
    return this.view(this.row(row.id))
  }

  private async completeChallenge(c: Challenge<PendingAdd>, token: string): Promise<AccountView> {
    if (c.pending) {
      this.sessions.refuseDuplicate(c.pending.baseUrl, c.pending.input.username)
      return this.store(c.pending, token)
    }
    return this.afterSignIn(this.row(c.accountId ?? ''), token, c.remember, c.password)
  }

  /** Stores a new account: the row (no secrets), then its secrets; undone when a step fails. */
  private async store(pending: PendingAdd, sessionToken: string | null): Promise<AccountView> {
    const { input, baseUrl, options } = pending
    const now = this.now()
    const remember =
      input.authMethod === 'password' &&
      input.rememberPassword === true &&
      (await this.secretsPersist())
    const row: AccountRow = {
      id: randomUUID(),
      label: input.label,
      baseUrl,
      username: input.username,
      release: input.release,
      color: input.color,
      authMethod: input.authMethod,
      isDemo: options.isDemo === true,
      allowInsecureHttp: input.allowInsecureHttp === true,
      caBundle: input.caBundle ?? null,
      rememberPassword: remember,
      impersonating: null,
      createdAt: now,
      updatedAt: now,
    }
    const token = sessionToken ?? input.accessToken ?? ''
    await this.sessions.insert(
      row,
      {
        api_key: input.apiKey,
        session_token: sessionToken,
        access_token: input.authMethod === 'access_token' ? input.accessToken : null,
        password: remember ? input.password : null,
      },
      token ? { scheme: credentialKind(row).scheme, token } : null,
    )
    if (!this.deps.accounts.get(this.deps.settings.get<string>(ACTIVE_KEY, '')))
      this.deps.settings.set(ACTIVE_KEY, row.id)
    this.deps.log?.('info', `account added: ${row.id}`)
    await this.publish()
    return this.view(row)
  }

  private async publish(): Promise<AccountList> {
    const list = await this.list()
    this.deps.changed(list)
    return list
  }
}
