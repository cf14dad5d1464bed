import type { CoreEvents } from '../events'

/** Tracks whether each account's service answered last time; emits 'connectivity' on changes. */
export class Connectivity {
  private readonly offline = new Set<string>()

  constructor(private readonly events: CoreEvents) {}

  /** Records the outcome of a call: online when the service answered at all. */
  report(accountId: string, online: boolean): void {
    const wasOffline = this.offline.has(accountId)
    if (online === !wasOffline) return
    if (online) this.offline.delete(accountId)
    else this.offline.add(accountId)
    this.events.emit('connectivity', { accountId, online, checkedAt: new Date().toISOString() })
  }

  /** True when the last call to the account failed with OFFLINE. */
  isOffline(accountId: string): boolean {
    return this.offline.has(accountId)
  }

  /** Forgets a removed account. */
  forget(accountId: string): void {
    this.offline.delete(accountId)
  }
}
