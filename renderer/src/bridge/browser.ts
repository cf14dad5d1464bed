import type { EventName } from '@contract/channel-names'
import { failure, parseResult, type Transport } from './transport'

/** What the browser transport needs from its page (injected so tests can stub them). */
export interface BrowserHost {
  fetch: typeof fetch
  EventSource?: typeof EventSource
}

/**
 * The browser-mode host: `POST /bridge/call/<channel>` answers the JSON text of a Result, and
 * `GET /bridge/events` is a server-sent event stream. The per-run token rides in an HttpOnly
 * cookie, so requests only need `credentials: 'same-origin'`.
 */
export function createBrowserTransport(host: BrowserHost): Transport {
  let source: EventSource | null = null
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>()
  const attached = new Set<EventName>()

  function attach(event: EventName): void {
    if (!host.EventSource) return
    source ??= new host.EventSource('/bridge/events')
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
    async request(channel, payload) {
      let response: Response
      try {
        response = await host.fetch(`/bridge/call/${channel}`, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(payload ?? {}),
        })
      } catch {
        return failure(
          'OFFLINE',
          'ScanDesk’s local service cannot be reached. Is it still running?',
        )
      }
      if (!response.ok) {
        const hint =
          response.status === 401 || response.status === 403
            ? ' Open ScanDesk again from the address it printed.'
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
