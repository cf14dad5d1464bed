import { AppFailure } from '@contract/errors'
import { catalogIfLoaded, loadCatalog } from '../catalog'
import type { AccountClient } from '../http/client'
import { DEFAULT_LIMITS } from '../http/options'

/**
 * How long a call waits for the user to sign in again before it fails with "sign in again": the
 * call's own deadline (a 401 storm must not hold every read; export jobs and bulk runs wait for the
 * sign-in on their own, queueable writes wait in the outbox, reads answer from the copy).
 */
export const REAUTH_WAIT_MS = DEFAULT_LIMITS.deadlineMs

/** What the gate needs to know of an account (from its row when the client was built). */
export interface GateAccount {
  id: string
  label: string
  authMethod: 'password' | 'access_token'
}

/** What the account service does for the gate. */
export interface GateHooks {
  /**
   * The service refused the account's session: forget it and try a silent re-sign-in (with a
   * remembered password). True when a new session was stored (which resumes the gate).
   */
  recover(accountId: string): Promise<boolean>
  /** No silent way back: ask the user, once per pause. */
  prompt(accountId: string, waiting: number): void
}

interface Waiter {
  resolve(): void
  reject(err: unknown): void
}

interface Pause {
  waiters: Set<Waiter>
  prompting: boolean
}

/** The message of calls that stop waiting for a new sign-in. */
export function signedOutMessage(label: string): string {
  return `Signed out: sign in to ${label} again.`
}

function isRefused(err: unknown): boolean {
  return err instanceof AppFailure && err.error.code === 'UNAUTHORIZED' && err.error.status === 401
}

function cancelled(): AppFailure {
  return new AppFailure({ code: 'CANCELLED', message: 'The request was cancelled.' })
}

/**
 * Session expiry, single-flight per account. The first 401 of an authenticated call of a Bearer
 * account pauses that account: later calls wait instead of being sent; the account service
 * tries one silent re-sign-in or prompts once; a new session resumes every waiting call (each
 * retried once), cancelling fails them. Access-token (Basic) accounts never pause: their 401
 * means the token was revoked. Other accounts are never affected.
 */
export class SessionGate {
  private readonly pauses = new Map<string, Pause>()
  private readonly generations = new Map<string, number>()
  private hooks: GateHooks | null = null

  constructor(private readonly waitMs = REAUTH_WAIT_MS) {}

  /** Connects the account service (silent re-sign-in and the prompt). */
  setHooks(hooks: GateHooks): void {
    this.hooks = hooks
  }

  /** The same client, with call(), read() and download() behind the gate (probe() is not). */
  wrap(account: GateAccount, client: AccountClient): AccountClient {
    return {
      baseUrl: client.baseUrl,
      release: client.release,
      call: (opId, input, options) =>
        this.run(account, opId, options?.signal, () => client.call(opId, input, options)),
      read: (opId, input, validators, options) =>
        this.run(account, opId, options?.signal, () =>
          client.read(opId, input, validators, options),
        ),
      probe: (options) => client.probe(options),
      download: (opId, input, sink, options) =>
        this.run(account, opId, options?.signal, () => client.download(opId, input, sink, options)),
      close: () => client.close(),
    }
  }

  /** True while the account's calls wait for a new session. */
  isPaused(accountId: string): boolean {
    return this.pauses.has(accountId)
  }

  /** True once the user was asked to sign in again (AccountView.awaitingReauth). */
  isPrompting(accountId: string): boolean {
    return this.pauses.get(accountId)?.prompting === true
  }

  /** How many calls of the account wait. */
  waiting(accountId: string): number {
    return this.pauses.get(accountId)?.waiters.size ?? 0
  }

  /** A new session was stored: every waiting call is retried with it. Returns how many. */
  resume(accountId: string): number {
    this.bump(accountId)
    const pause = this.pauses.get(accountId)
    if (!pause) return 0
    this.pauses.delete(accountId)
    const waiters = [...pause.waiters]
    for (const w of waiters) w.resolve()
    return waiters.length
  }

  /** Ends a pause without a session: waiting calls fail with NOT_SIGNED_IN. Returns how many. */
  cancel(accountId: string, message: string): number {
    this.bump(accountId)
    const pause = this.pauses.get(accountId)
    if (!pause) return 0
    this.pauses.delete(accountId)
    const waiters = [...pause.waiters]
    for (const w of waiters) w.reject(new AppFailure({ code: 'NOT_SIGNED_IN', message }))
    return waiters.length
  }

  /** Fails every waiting call of every account (core shutting down). */
  cancelAll(message: string): void {
    for (const id of [...this.pauses.keys()]) this.cancel(id, message)
  }

  private generation(accountId: string): number {
    return this.generations.get(accountId) ?? 0
  }

  private bump(accountId: string): void {
    this.generations.set(accountId, this.generation(accountId) + 1)
  }

  private async run<T>(
    account: GateAccount,
    opId: string,
    signal: AbortSignal | undefined,
    send: () => Promise<T>,
  ): Promise<T> {
    const catalog = catalogIfLoaded() ?? (await loadCatalog())
    if (catalog.findOperation(opId)?.auth !== 'user') return send()
    if (account.authMethod === 'access_token') {
      try {
        return await send()
      } catch (err) {
        if (!isRefused(err)) throw err
        throw new AppFailure({
          code: 'NOT_SIGNED_IN',
          message: `The service no longer accepts the access token of ${account.label} (it was revoked or replaced). Add a new access token or sign in with a password.`,
          status: 401,
        })
      }
    }
    if (this.pauses.has(account.id)) await this.wait(account, signal)
    const sentWith = this.generation(account.id)
    try {
      return await send()
    } catch (err) {
      if (!isRefused(err)) throw err
      // Refused with the session in use: pause (or join the pause). Refused with a session
      // replaced since: retry at once with the new one.
      if (this.generation(account.id) === sentWith && !this.pauses.has(account.id))
        this.pause(account)
      if (this.pauses.has(account.id)) await this.wait(account, signal)
    }
    return send()
  }

  private pause(account: GateAccount): void {
    const pause: Pause = { waiters: new Set(), prompting: false }
    this.pauses.set(account.id, pause)
    void this.recoverOrPrompt(account.id, pause)
  }

  private async recoverOrPrompt(accountId: string, pause: Pause): Promise<void> {
    const recovered = await Promise.resolve(this.hooks?.recover(accountId)).catch(() => false)
    if (this.pauses.get(accountId) !== pause) return
    if (recovered === true) {
      this.resume(accountId)
      return
    }
    pause.prompting = true
    this.hooks?.prompt(accountId, pause.waiters.size)
  }

  private wait(account: GateAccount, signal: AbortSignal | undefined): Promise<void> {
    const pause = this.pauses.get(account.id)
    if (!pause) return Promise.resolve()
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(cancelled())
      const finish = (settle: () => void) => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', onAbort)
        pause.waiters.delete(waiter)
        settle()
      }
      const waiter: Waiter = {
        resolve: () => finish(resolve),
        reject: (err) => finish(() => reject(err)),
      }
      const onAbort = () => waiter.reject(cancelled())
      const timer = setTimeout(
        () =>
          waiter.reject(
            new AppFailure({ code: 'NOT_SIGNED_IN', message: signedOutMessage(account.label) }),
          ),
        this.waitMs,
      )
      timer.unref()
      signal?.addEventListener('abort', onAbort, { once: true })
      pause.waiters.add(waiter)
    })
  }
}
