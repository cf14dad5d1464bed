// A stand-in for the preload's window.scandesk in unit tests: handlers per channel answer with
// the JSON text of a Result, like main does, and `emit` pushes events to subscribers.
import { CHANNEL_NAMES, type ChannelName, type EventName } from '@contract/channel-names'
import type { ScanDeskBridge } from '@contract/channels'
import type { AppError, Result } from '@contract/errors'
import { CACHE_MAX_BYTES, type CacheStatus, type ConnectivityOverview } from '@contract/offline'

type Handler = (payload: any) => unknown // eslint-disable-line @typescript-eslint/no-explicit-any

/** A handler's answer: plain data (ok), a failure, or a promise of either. */
export class Fail {
  constructor(readonly error: AppError) {}
}

/** A failed call with field errors, as main reports a 422 (the service refused the values). */
export function invalid(fieldErrors: Record<string, string[]>, message = 'The service refused.') {
  return new Fail({ code: 'VALIDATION', status: 422, message, fieldErrors })
}

export interface FakeScandesk {
  bridge: ScanDeskBridge
  calls: { channel: ChannelName; payload: unknown }[]
  handle(channel: ChannelName, handler: Handler): void
  emit(event: EventName, payload: unknown): void
  listenerCount(event: EventName): number
}

const overview = (over: Partial<ConnectivityOverview> = {}): ConnectivityOverview => ({
  workOffline: false,
  network: null,
  accounts: [],
  ...over,
})

/** An empty offline copy of one account, kept on disk. */
export const emptyCache = (accountId: string): CacheStatus => ({
  accountId,
  entries: 0,
  bytes: 0,
  maxBytes: CACHE_MAX_BYTES.default,
  persisted: true,
  message: null,
  oldest: null,
  newest: null,
})

/** What the offline channels answer unless a test says otherwise: nothing known, nothing kept. */
const OFFLINE_DEFAULTS: [ChannelName, Handler][] = [
  ['connectivity.get', () => overview()],
  ['connectivity.setWorkOffline', (p: { on: boolean }) => overview({ workOffline: p.on })],
  ['connectivity.network', (p: { online: boolean }) => overview({ network: p.online })],
  ['cache.status', (p: { accountId: string }) => emptyCache(p.accountId)],
  ['cache.clear', (p: { accountId: string }) => emptyCache(p.accountId)],
  ['outbox.list', () => []],
  ['outbox.retry', () => []],
  ['outbox.discard', () => ({ discarded: true })],
]

/** Installs a fresh fake as window.scandesk and returns it. */
export function installFakeScandesk(): FakeScandesk {
  const handlers = new Map<ChannelName, Handler>(OFFLINE_DEFAULTS)
  const listeners = new Map<EventName, Set<(p: unknown) => void>>()
  const calls: FakeScandesk['calls'] = []
  const bridge = {
    on(event: EventName, listener: (p: unknown) => void) {
      let set = listeners.get(event)
      if (!set) listeners.set(event, (set = new Set()))
      set.add(listener)
      return () => set.delete(listener)
    },
  } as unknown as ScanDeskBridge
  for (const channel of CHANNEL_NAMES) {
    ;(bridge as unknown as Record<string, (p: unknown) => Promise<string>>)[channel] = async (
      payload,
    ) => {
      calls.push({ channel, payload })
      const handler = handlers.get(channel)
      if (!handler) {
        const r: Result<never> = {
          ok: false,
          error: { code: 'INTERNAL', message: `no fake for ${channel}` },
        }
        return JSON.stringify(r)
      }
      const value = await handler(payload)
      const r: Result<unknown> =
        value instanceof Fail ? { ok: false, error: value.error } : { ok: true, data: value }
      return JSON.stringify(r)
    }
  }
  window.scandesk = bridge
  return {
    bridge,
    calls,
    handle: (channel, handler) => void handlers.set(channel, handler),
    emit: (event, payload) => listeners.get(event)?.forEach((l) => l(payload)),
    listenerCount: (event) => listeners.get(event)?.size ?? 0,
  }
}

/** Removes the fake installed as window.scandesk (after a test). */
export function uninstallFakeScandesk(): void {
  delete window.scandesk
}

/** A deferred promise, to hold an answer back until the test releases it. */
export function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}
