import type { ChannelName, EventName } from '@contract/channel-names'
import type { ScanDeskBridge } from '@contract/channels'
import type { AppError, Result } from '@contract/errors'

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in browser mode. */
    scandesk?: ScanDeskBridge
  }
}

/** One host's way of reaching main: a request per channel, and pushed events. */
export interface Transport {
  /**
   * Sends one request; always resolves to a Result (transport failures become errors). An abort
   * of `signal` lets go of the request where the host can (browser mode: the HTTP request, so it
   * holds none of the page's connections); main is told apart, with `api.cancel`.
   */
  request(channel: ChannelName, payload: unknown, signal?: AbortSignal): Promise<Result<unknown>>
  /** Subscribes to one pushed event; returns the unsubscribe function. */
  on(event: EventName, listener: (payload: unknown) => void): () => void
}

/** A failed Result with the given code and message. */
export function failure(code: AppError['code'], message: string): Result<never> {
  return { ok: false, error: { code, message } }
}

/** Parses the JSON text of a Result as main sends it; anything else is an INTERNAL error. */
export function parseResult(text: unknown): Result<unknown> {
  if (typeof text !== 'string')
    return failure('INTERNAL', 'ScanDesk sent an answer it cannot read.')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return failure('INTERNAL', 'ScanDesk sent an answer it cannot read.')
  }
  if (typeof value === 'object' && value !== null && 'ok' in value) {
    const r = value as { ok: unknown; data?: unknown; error?: unknown }
    if (r.ok === true) return { ok: true, data: r.data }
    if (r.ok === false && isErrorLike(r.error)) return { ok: false, error: r.error }
  }
  return failure('INTERNAL', 'ScanDesk sent an answer it cannot read.')
}

function isErrorLike(value: unknown): value is AppError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AppError).code === 'string' &&
    typeof (value as AppError).message === 'string'
  )
}
