import { BRIDGE_KEY_HEADER, BRIDGE_KEY_PARAM, BRIDGE_KEY_STORAGE } from '@contract/browser-bridge'
import type { EventName } from '@contract/channel-names'
import { failure, parseResult, type Transport } from './transport'

/** What the browser transport needs from its page (injected so tests can stub them). */
export interface BrowserHost {
  fetch: typeof fetch
  EventSource?: typeof EventSource
  /** This tab's page key (null: none, as in a tab the user opened by hand). */
  pageKey: () => string | null
}

/** The page key the launch exchange left in this tab's sessionStorage, or null. */
export function storedPageKey(): string | null {
  try {
    return sessionStorage.getItem(BRIDGE_KEY_STORAGE)
  } catch {
    return null
  }
}

const NO_KEY =
  'This tab has no key for ScanDesk’s local service: a tab opened by hand gets none (one ' +
  'ScanDesk opens, or a duplicated tab, does). Use the tab ScanDesk opened, or open a new launch ' +
  'address: start browser mode again.'

/**
 * The browser-mode host: `POST /bridge/call/<channel>` answers the JSON text of a Result, and
 * `GET /bridge/events` is a server-sent event stream. Both need the HttpOnly session cookie
 * (`credentials: 'same-origin'`) and this tab's page key: in a header on calls, in the query of
 * the stream (EventSource sends no headers). Without a key nothing is sent.
 */
export function createBrowserTransport(host: BrowserHost): Transport {
  let source: EventSource | null = null
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>()
  const attached = new Set<EventName>()

  function attach(event: EventName): void {
    if (!host.EventSource) return
    if (!source) {
      const key = host.pageKey()
      if (!key) return
      source = new host.EventSource(`/bridge/events?${BRIDGE_KEY_PARAM}=${encodeURIComponent(key)}`)
    }
    if (attached.has(event)) return
    attached.add(event)
    source.addEventListener(event, (message) => {
      let payload: unknown
      try {
        payload = JSON.parse((message as MessageEvent<string>).data)
      } catch {
        return
      }
      for (const listener of [...(listeners.get(event) ?? [])]) listener(payload)
    })
  }

  return {
    async request(channel, payload, signal) {
      const key = host.pageKey()
      if (!key) return failure('INTERNAL', NO_KEY)
      let response: Response
      try {
        response = await host.fetch(`/bridge/call/${channel}`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', [BRIDGE_KEY_HEADER]: key },
          body: JSON.stringify(payload ?? {}),
          ...(signal ? { signal } : {}),
        })
      } catch {
        if (signal?.aborted) return failure('CANCELLED', 'The request was cancelled.')
        return failure(
          'OFFLINE',
          'ScanDesk’s local service cannot be reached. Is it still running?',
        )
      }
      if (!response.ok) {
        const hint =
          response.status === 401 || response.status === 403
            ? ' Open ScanDesk again from a new launch address (start browser mode again).'
            : ''
        return failure(
          'INTERNAL',
          `ScanDesk’s local service refused the request (HTTP ${response.status}).${hint}`,
        )
      }
      let text: string
      try {
        text = await response.text()
      } catch {
        if (signal?.aborted) return failure('CANCELLED', 'The request was cancelled.')
        return failure('OFFLINE', 'The connection to ScanDesk’s local service was interrupted.')
      }
      return parseResult(text)
    },
    on(event, listener) {
      let set = listeners.get(event)
      if (!set) listeners.set(event, (set = new Set()))
      set.add(listener)
      attach(event)
      return () => {
        set.delete(listener)
      }
    },
  }
}
