import type { AccountView } from '@contract/accounts'
import type { DemoDirectory } from '@contract/channels'
import { fail } from '@contract/errors'
import type { SignInOutcome } from '@contract/sessions'
import type { AccountRow } from '../store/accounts-repo'
import type { AccountService } from './account-service'

/** One user of the demo service, with the public demo password (kept in main). */
export interface DemoServiceUser {
  username: string
  password: string
  twoFactor: 'none' | 'app' | 'sms'
  about: string
}

/** A running embedded sandbox with the demo user's credentials. */
export interface DemoService {
  baseUrl: string
  apiKey: string
  username: string
  password: string
  /** Every demo user of its seed (the demo user among them). */
  users: readonly DemoServiceUser[]
  close(): Promise<void>
}

/** Colours of the demo's other users' accounts, in the order of the service's users. */
const USER_COLORS = ['#16a085', '#e6a23c', '#3366ff', '#d35400', '#9b59b6']

/** The demo account's fixed look. */
export const DEMO_ACCOUNT = { label: 'Demo service', color: '#7c3aed', release: 'latest' } as const

/**
 * "Try the demo service": starts the embedded sandbox once per run and keeps the demo account
 * pointed at it (its port changes every run), signed in.
 */
export class DemoAccounts {
  private service: Promise<DemoService> | null = null
  private connecting: Promise<AccountView> | null = null
  private connected = false

  constructor(
    private readonly accounts: AccountService,
    private readonly startService: (() => Promise<DemoService>) | undefined,
    private readonly log?: (level: 'info' | 'warn' | 'error', message: string) => void,
  ) {}

  /** Starts (or reuses) the demo service and adds or reconnects the demo account. */
  start(): Promise<AccountView> {
    this.connecting ??= this.connect().finally(() => {
      this.connecting = null
    })
    return this.connecting
  }

  /**
   * True when a call for this account needs the demo service started first (this run has not yet):
   * the demo account, or another user of its service (an account at the demo's address).
   */
  needsStart(row: AccountRow): boolean {
    if (this.connected) return false
    if (row.isDemo) return true
    const demo = this.accounts.findDemo()
    return demo !== undefined && demo.baseUrl === row.baseUrl
  }

  /** Before a call to an account of the demo service: makes sure the service runs this run. */
  async ensureFor(row: AccountRow): Promise<void> {
    if (this.needsStart(row)) await this.start()
  }

  /**
   * The demo service's address and its other users, for the account panel; null without a demo
   * account. Starts the service if this run has not (as any call of the demo account would), but
   * leaves the active account alone.
   */
  async directory(): Promise<DemoDirectory | null> {
    if (!this.accounts.findDemo()) return null
    const service = await this.running()
    return {
      baseUrl: service.baseUrl,
      users: service.users
        .filter((u) => u.username !== service.username)
        .map(({ username, about, twoFactor }) => ({ username, about, twoFactor })),
    }
  }

  /**
   * Adds another user of the demo service as an account of its own, signing in with the demo's
   * password (which never leaves main): signed in, or a second-factor challenge to finish.
   */
  async addUser(username: string): Promise<SignInOutcome> {
    const demo = this.accounts.findDemo()
    if (!demo) return fail('NOT_FOUND', 'There is no demo account: try the demo service first.')
    const service = await this.running()
    const index = service.users.findIndex((u) => u.username === username.toLowerCase())
    const user = service.users[index]
    if (!user || user.username === service.username)
      return fail('NOT_FOUND', `The demo service has no other user ${username}.`)
    return this.accounts.add({
      label: `Demo ${user.username.split('@')[0]}`,
      color: USER_COLORS[index % USER_COLORS.length],
      release: demo.release,
      baseUrl: service.baseUrl,
      apiKey: service.apiKey,
      authMethod: 'password',
      username: user.username,
      password: user.password,
    })
  }

  /** Stops the demo service if it was started. */
  async close(): Promise<void> {
    const service = this.service
    this.service = null
    this.connected = false
    if (service) await service.then((s) => s.close()).catch(() => undefined)
  }

  private running(): Promise<DemoService> {
    const start = this.startService
    if (!start) return fail('BAD_REQUEST', 'The demo service is not available in this build.')
    this.service ??= start().catch((err: unknown) => {
      this.service = null
      this.log?.('error', `demo service did not start: ${err instanceof Error ? err.message : ''}`)
      return fail('INTERNAL', 'The demo service could not be started.')
    })
    return this.service
  }

  private async connect(): Promise<AccountView> {
    const service = await this.running()
    const existing = this.accounts.findDemo()
    const view = existing
      ? await this.accounts.reconnect(existing.id, service)
      : await this.added(service)
    // The service's other users (added from the demo account's menu) follow its new port.
    if (existing && existing.baseUrl !== view.baseUrl)
      await this.accounts.moveService(existing.baseUrl, view.baseUrl)
    this.connected = true
    await this.accounts.setActive(view.id)
    return view
  }

  private async added(service: DemoService): Promise<AccountView> {
    const outcome = await this.accounts.add(
      {
        ...DEMO_ACCOUNT,
        baseUrl: service.baseUrl,
        apiKey: service.apiKey,
        authMethod: 'password',
        username: service.username,
        password: service.password,
      },
      { isDemo: true },
    )
    if (outcome.status !== 'signedIn') {
      if (outcome.status === 'challenge')
        await this.accounts.cancelChallenge(outcome.challenge.challengeId)
      return fail('INTERNAL', 'The demo user asks for a second factor; the demo cannot sign in.')
    }
    return outcome.account
  }
}
