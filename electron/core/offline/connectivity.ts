import { AppFailure } from '@contract/errors'
import type { Connectivity, ConnectivityOverview, ConnectivityState } from '@contract/offline'
import type { CoreEvents } from '../events'
import type { SettingsRepo } from '../store/settings-repo'

/** The settings key of the "Work offline" switch. */
export const WORK_OFFLINE_KEY = 'workOffline'

/** What a real request showed: the service answered (any status), or it could not be reached. */
export type Outcome = { answered: true } | { answered: false; message: string }

/** True when a failure means the service was not reached (not: it answered with a refusal). */
export function isUnreachable(err: unknown): boolean {
  if (!(err instanceof AppFailure)) return false
  const { code, status } = err.error
  if (code === 'OFFLINE' || code === 'TIMEOUT') return true
  return code === 'SERVER' && (status === 502 || status === 503 || status === 504)
}

/** What the monitor needs from the rest of the core. */
export interface ConnectivityDeps {
  events: CoreEvents
  settings: SettingsRepo
  /** Asks the account's service once (no credential); null when it answered, else the failure. */
  probe: (accountId: string) => Promise<AppFailure | null>
  /** Whether the account has a session (null for an account that is gone). */
  signedIn: (accountId: string) => boolean | null
  /** Probe backoff: first wait and ceiling (defaults 2 s and 1 min). */
  backoff?: { baseMs: number; maxMs: number }
  now?: () => Date
  random?: () => number
  log?: (level: 'info' | 'warn' | 'error', message: string) => void
}

interface AccountTrack {
  outcome: 'none' | 'answered' | 'unreachable'
  message: string | null
  checkedAt: string
  failures: number
  timer: NodeJS.Timeout | null
  nextCheckAt: string | null
  probing: Promise<Connectivity> | null
  /** The last state announced, to emit changes only. */
  announced: string | null
}

const WORK_OFFLINE_MESSAGE = '“Work offline” is on: ScanDesk sends no request.'
const NO_NETWORK_MESSAGE = 'This computer has no network connection.'

/**
 * Connectivity per account, decided from real request outcomes, a light probe of the service
 * (GET of its base URL, no credential) with exponential backoff while it cannot be reached, the
 * OS's network state and the user's "Work offline" switch. Announces every change
 * ('connectivity'), and tells listeners when an account is back online (outbox replay, waiting
 * export jobs).
 */
export class ConnectivityMonitor {
  private readonly tracks = new Map<string, AccountTrack>()
  private network: boolean | null = null
  private workOffline: boolean
  private readonly onlineListeners = new Set<(accountId: string) => void>()
  private closed = false

  constructor(private readonly deps: ConnectivityDeps) {
    this.workOffline = deps.settings.get<boolean>(WORK_OFFLINE_KEY, false) === true
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date()
  }

  private track(accountId: string): AccountTrack {
    let t = this.tracks.get(accountId)
    if (!t) {
      t = {
        outcome: 'none',
        message: null,
        checkedAt: this.now().toISOString(),
        failures: 0,
        timer: null,
        nextCheckAt: null,
        probing: null,
        announced: null,
      }
      this.tracks.set(accountId, t)
    }
    return t
  }

  private stateOf(accountId: string, t: AccountTrack): ConnectivityState {
    if (this.workOffline) return 'work-offline'
    if (this.deps.signedIn(accountId) === false) return 'signed-out'
    if (this.network === false) return 'offline'
    if (t.outcome === 'answered') return 'online'
    if (t.outcome === 'unreachable') return 'unreachable'
    return 'checking'
  }

  /** The account's connectivity now. */
  get(accountId: string): Connectivity {
    const t = this.track(accountId)
    const state = this.stateOf(accountId, t)
    const message =
      state === 'work-offline'
        ? WORK_OFFLINE_MESSAGE
        : state === 'offline'
          ? NO_NETWORK_MESSAGE
          : state === 'unreachable'
            ? t.message
            : state === 'signed-out'
              ? 'Signed out: sign in to see this account’s screens again, online or from this computer.'
              : state === 'checking'
                ? t.message
                : null
    return {
      accountId,
      state,
      online: state === 'online',
      checkedAt: t.checkedAt,
      message,
      nextCheckAt: state === 'online' || state === 'work-offline' ? null : t.nextCheckAt,
    }
  }

  /** The switches and the state of every account given. */
  overview(accountIds: readonly string[]): ConnectivityOverview {
    return {
      workOffline: this.workOffline,
      network: this.network,
      accounts: accountIds.map((id) => this.get(id)),
    }
  }

  /**
   * Why no request may leave ScanDesk at all ("Work offline", no network), or null. Every
   * account client reads it before sending.
   */
  blockedReason(): string | null {
    if (this.workOffline) return WORK_OFFLINE_MESSAGE
    if (this.network === false) return NO_NETWORK_MESSAGE
    return null
  }

  /** True when the service is known not to answer now: reads go to the offline copy first. */
  knownUnreachable(accountId: string): boolean {
    return this.blockedReason() !== null || this.track(accountId).outcome === 'unreachable'
  }

  /** Records what a real request showed. */
  report(accountId: string, outcome: Outcome): void {
    if (this.closed) return
    const t = this.track(accountId)
    t.checkedAt = this.now().toISOString()
    if (outcome.answered) {
      t.outcome = 'answered'
      t.message = null
      t.failures = 0
      this.cancelProbe(t)
    } else {
      t.outcome = 'unreachable'
      t.message = outcome.message
      this.scheduleProbe(accountId, t)
    }
    this.announce(accountId)
  }

  /**
   * Records what any request of the account showed (null: it succeeded): unreachable failures
   * made by the service's absence, answers (even refusals) as reached. Refusals made here
   * ("Work offline", no network) and cancellations say nothing about the service.
   */
  observe(accountId: string, failure: unknown): void {
    if (failure === null) return this.report(accountId, { answered: true })
    if (isUnreachable(failure)) {
      if (this.blockedReason()) return
      const message = failure instanceof AppFailure ? failure.error.message : 'No answer.'
      return this.report(accountId, { answered: false, message })
    }
    if (failure instanceof AppFailure && failure.error.status !== undefined)
      this.report(accountId, { answered: true })
  }

  /** A read was served from the copy while unreachable: check again soon (not before the backoff). */
  nudge(accountId: string): void {
    const t = this.track(accountId)
    if (!t.timer && !t.probing && t.outcome === 'unreachable') this.scheduleProbe(accountId, t)
  }

  /** Checks the service now (a probe), unless requests are blocked. */
  check(accountId: string): Promise<Connectivity> {
    const t = this.track(accountId)
    if (this.blockedReason()) return Promise.resolve(this.get(accountId))
    this.cancelProbe(t)
    t.probing ??= (async () => {
      try {
        const failure = await this.deps.probe(accountId)
        if (this.closed) return this.get(accountId)
        if (failure && isUnreachable(failure))
          this.report(accountId, { answered: false, message: failure.message })
        else if (failure) {
          // Could not even try (no API key on this computer): say so, keep the state.
          t.message = failure.message
          this.announce(accountId, true)
        } else this.report(accountId, { answered: true })
      } finally {
        t.probing = null
      }
      return this.get(accountId)
    })()
    return t.probing
  }

  /** The OS (or the browser) says the network is up or down. */
  setNetwork(online: boolean | null): ConnectivityOverview {
    const was = this.network
    this.network = online
    if (was !== online) {
      this.deps.log?.('info', `network ${online === null ? 'unknown' : online ? 'up' : 'down'}`)
      // No probe while the OS says there is no network: the next check follows its return.
      if (online === false) for (const t of this.tracks.values()) this.cancelProbe(t)
      this.emitMode()
      for (const id of this.tracks.keys()) this.announce(id)
      if (online) this.recheck()
    }
    return this.overview([...this.tracks.keys()])
  }

  /** Turns "Work offline" on or off (kept across restarts). */
  setWorkOffline(on: boolean): void {
    if (on === this.workOffline) return
    this.workOffline = on
    this.deps.settings.set(WORK_OFFLINE_KEY, on)
    this.emitMode()
    for (const [id, t] of this.tracks) {
      if (on) this.cancelProbe(t)
      this.announce(id)
    }
    if (!on) this.recheck()
  }

  /** Woke from sleep or the network came back: every account not online is checked now. */
  recheck(): void {
    for (const [id, t] of this.tracks) {
      t.failures = 0
      void this.check(id)
    }
  }

  /** The account's session started or ended: its state may have changed. */
  sessionChanged(accountId: string): void {
    if (this.tracks.has(accountId)) this.announce(accountId)
  }

  /** Calls `listener(accountId)` each time an account becomes online. Returns the unsubscribe. */
  onOnline(listener: (accountId: string) => void): () => void {
    this.onlineListeners.add(listener)
    return () => this.onlineListeners.delete(listener)
  }

  /** Forgets a removed account. */
  forget(accountId: string): void {
    const t = this.tracks.get(accountId)
    if (t) this.cancelProbe(t)
    this.tracks.delete(accountId)
  }

  /** Stops every probe. */
  close(): void {
    this.closed = true
    for (const t of this.tracks.values()) this.cancelProbe(t)
  }

  private delay(failures: number): number {
    const { baseMs, maxMs } = this.deps.backoff ?? { baseMs: 2_000, maxMs: 60_000 }
    const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(failures, 20))
    // Half fixed, half jitter: never a storm of probes, never much later than the ceiling.
    return Math.round(ceiling / 2 + (ceiling / 2) * (this.deps.random?.() ?? Math.random()))
  }

  private scheduleProbe(accountId: string, t: AccountTrack): void {
    if (this.closed || this.blockedReason()) return
    this.cancelProbe(t)
    const wait = this.delay(t.failures)
    t.failures++
    t.nextCheckAt = new Date(this.now().getTime() + wait).toISOString()
    t.timer = setTimeout(() => {
      t.timer = null
      void this.check(accountId)
    }, wait)
    t.timer.unref()
  }

  private cancelProbe(t: AccountTrack): void {
    if (t.timer) clearTimeout(t.timer)
    t.timer = null
    t.nextCheckAt = null
  }

  private emitMode(): void {
    this.deps.events.emit('connectivity.mode', {
      workOffline: this.workOffline,
      network: this.network,
    })
  }

  private announce(accountId: string, force = false): void {
    const t = this.track(accountId)
    const current = this.get(accountId)
    const key = `${current.state}|${current.message ?? ''}`
    if (!force && key === t.announced) return
    const wasOnline = t.announced?.startsWith('online|') ?? false
    t.announced = key
    this.deps.events.emit('connectivity', current)
    if (current.online && !wasOnline)
      for (const listener of this.onlineListeners) {
        try {
          listener(accountId)
        } catch (err) {
          this.deps.log?.('error', `online listener failed: ${String(err).slice(0, 120)}`)
        }
      }
  }
}
