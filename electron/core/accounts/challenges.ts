import { randomBytes } from 'node:crypto'
import type { AccountView } from '@contract/accounts'
import { AppFailure, fail } from '@contract/errors'
import type { ChallengeView, SecondFactorMethod, SignInOutcome } from '@contract/sessions'
import type { AccountClient } from '../http/client'
import {
  CHALLENGE_OVER,
  finishChallenge,
  maskPhone,
  sendSmsCode,
  type ServiceChallenge,
} from './sign-in'

/** How long a challenge lives when the service did not say (and the longest we accept). */
export const CHALLENGE_TTL_MS = 5 * 60_000
const MAX_TTL_MS = 30 * 60_000
/** Pending challenges kept at most (the oldest is dropped first). */
export const MAX_CHALLENGES = 50

/**
 * A pending second-factor step, kept in main only: the service's otp_token and, for an account
 * being added, everything needed to store it once the second factor succeeds (API key included).
 */
export interface Challenge<Pending = unknown> {
  id: string
  /** The account being signed in, or null while adding one (then `pending` is set). */
  accountId: string | null
  label: string
  username: string
  otpToken: string
  methods: SecondFactorMethod[]
  defaultMethod: SecondFactorMethod | null
  /** Epoch ms. */
  expiresAt: number
  phoneHint: string | null
  /** Epoch ms, or null before the first SMS. */
  smsResendAt: number | null
  /** Remember-password choice of the sign-in (undefined: keep the account's setting). */
  remember: boolean | undefined
  /** The password typed for this sign-in, kept only when it may have to be remembered. */
  password: string | undefined
  pending: Pending | null
}

/** What a new challenge is made of (the store adds id and expiry). */
export type NewChallenge<Pending> = Omit<
  Challenge<Pending>,
  'id' | 'otpToken' | 'methods' | 'defaultMethod' | 'expiresAt' | 'phoneHint' | 'smsResendAt'
> & { service: ServiceChallenge }

/** A fresh random id for a challenge (or a link): 24 base64url characters. */
export function newFlowId(): string {
  return randomBytes(18).toString('base64url')
}

/**
 * Pending challenges in memory, by random id. An expired one is dropped (also by a timer, so
 * its secrets do not linger) and any later use answers CHALLENGE_EXPIRED.
 */
/** The service's SMS resend cooldown, assumed for the code it texts with a new challenge. */
const FIRST_SMS_COOLDOWN_MS = 30_000

export class ChallengeStore<Pending = unknown> {
  private readonly items = new Map<string, Challenge<Pending>>()
  private readonly timers = new Map<string, NodeJS.Timeout>()

  constructor(private readonly now: () => number = Date.now) {}

  /** Stores a challenge; its expiry is the service's expires_at when plausible, else 5 min. */
  create(input: NewChallenge<Pending>): Challenge<Pending> {
    const { service, ...rest } = input
    const now = this.now()
    const said = service.expiresAt ? Date.parse(service.expiresAt) : NaN
    const expiresAt =
      Number.isFinite(said) && said > now && said <= now + MAX_TTL_MS
        ? said
        : now + CHALLENGE_TTL_MS
    const challenge: Challenge<Pending> = {
      ...rest,
      id: newFlowId(),
      otpToken: service.otpToken,
      methods: service.methods,
      defaultMethod: service.defaultMethod,
      expiresAt,
      phoneHint: null,
      // With SMS as the default method the service texts the first code with the challenge
      // (decided; docs/decisions-sessions.md): the step offers "Resend" after the cooldown.
      smsResendAt:
        service.defaultMethod === 'sms' && service.methods.includes('sms')
          ? now + FIRST_SMS_COOLDOWN_MS
          : null,
    }
    while (this.items.size >= MAX_CHALLENGES) this.drop(this.items.keys().next().value as string)
    this.items.set(challenge.id, challenge)
    const timer = setTimeout(() => this.drop(challenge.id), expiresAt - now)
    timer.unref()
    this.timers.set(challenge.id, timer)
    return challenge
  }

  /** The live challenge, or CHALLENGE_EXPIRED (an expired one is dropped). */
  get(id: string): Challenge<Pending> {
    const challenge = this.items.get(id)
    if (challenge && challenge.expiresAt > this.now()) return challenge
    this.drop(id)
    return fail('CHALLENGE_EXPIRED', CHALLENGE_OVER)
  }

  /** Forgets a challenge; true when it was pending. */
  drop(id: string): boolean {
    clearTimeout(this.timers.get(id))
    this.timers.delete(id)
    return this.items.delete(id)
  }

  /** Forgets every challenge of an account (signed out or removed). */
  dropAccount(accountId: string): void {
    for (const c of [...this.items.values()]) if (c.accountId === accountId) this.drop(c.id)
  }

  /** Forgets every challenge (core shutting down). */
  clear(): void {
    for (const id of [...this.items.keys()]) this.drop(id)
  }

  /** How many challenges are pending. */
  get size(): number {
    return this.items.size
  }

  /** What the renderer may see of a challenge: no token, no pending secret. */
  view(c: Challenge<Pending>): ChallengeView {
    return {
      challengeId: c.id,
      accountId: c.accountId,
      label: c.label,
      username: c.username,
      methods: [...c.methods],
      defaultMethod: c.defaultMethod,
      expiresAt: new Date(c.expiresAt).toISOString(),
      phoneHint: c.phoneHint,
      smsResendAt: c.smsResendAt === null ? null : new Date(c.smsResendAt).toISOString(),
    }
  }
}

/** What the challenge flows need from the account service. */
export interface ChallengeFlowDeps<Pending> {
  now: () => number
  /** The client to finish a challenge with; `owned` clients are closed afterwards. */
  clientOf(c: Challenge<Pending>): Promise<{ client: AccountClient; owned: boolean }>
  /** Stores the session of a finished challenge (adds the pending account, or signs it in). */
  complete(c: Challenge<Pending>, token: string): Promise<AccountView>
}

/** The second-factor step of every password sign-in: open, send SMS, finish, cancel. */
export class SignInChallenges<Pending> {
  private readonly store: ChallengeStore<Pending>

  constructor(private readonly deps: ChallengeFlowDeps<Pending>) {
    this.store = new ChallengeStore<Pending>(deps.now)
  }

  /** Keeps a new challenge and answers what the renderer may see of it. */
  open(input: NewChallenge<Pending>): SignInOutcome {
    const c = this.store.create({ ...input, password: input.remember ? input.password : undefined })
    return { status: 'challenge', challenge: this.store.view(c) }
  }

  /** Finishes a challenge with a code; a wrong code keeps it, an expired one is dropped. */
  async secondFactor(
    challengeId: string,
    method: SecondFactorMethod,
    code: string,
  ): Promise<SignInOutcome> {
    const c = this.store.get(challengeId)
    if (!c.methods.includes(method))
      fail('VALIDATION', 'This sign-in does not offer that method.', {
        fieldErrors: { method: [`must be one of ${c.methods.join(', ')}`] },
      })
    const token = await this.using(c, (client) => finishChallenge(client, c.otpToken, method, code))
    this.store.drop(c.id)
    return { status: 'signedIn', account: await this.deps.complete(c, token) }
  }

  /** Sends (or resends) the SMS code; the view shows the masked phone and the resend time. */
  async sendSms(challengeId: string): Promise<ChallengeView> {
    const c = this.store.get(challengeId)
    if (!c.methods.includes('sms')) fail('BAD_REQUEST', 'This sign-in does not offer SMS codes.')
    try {
      const sent = await this.using(c, (client) => sendSmsCode(client, c.otpToken))
      c.phoneHint = maskPhone(sent.phoneNumber)
      c.smsResendAt = this.deps.now() + sent.resendAfterMs
    } catch (err) {
      const wait = err instanceof AppFailure ? err.error : null
      if (wait?.code === 'RATE_LIMITED' && wait.retryAfterMs !== undefined)
        c.smsResendAt = this.deps.now() + wait.retryAfterMs
      throw err
    }
    return this.store.view(c)
  }

  /** Forgets a challenge (its dialog was closed). */
  cancel(challengeId: string): { cancelled: boolean } {
    return { cancelled: this.store.drop(challengeId) }
  }

  /** Forgets every challenge of an account (signed out or removed). */
  dropAccount(accountId: string): void {
    this.store.dropAccount(accountId)
  }

  /** Forgets every challenge. */
  clear(): void {
    this.store.clear()
  }

  private async using<T>(
    c: Challenge<Pending>,
    work: (client: AccountClient) => Promise<T>,
  ): Promise<T> {
    const { client, owned } = await this.deps.clientOf(c)
    try {
      return await work(client)
    } catch (err) {
      if (err instanceof AppFailure && err.error.code === 'CHALLENGE_EXPIRED') this.store.drop(c.id)
      throw err
    } finally {
      if (owned) client.close()
    }
  }
}
