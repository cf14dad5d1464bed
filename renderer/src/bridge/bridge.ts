import type { ChannelName, EventName } from '@contract/channel-names'
import type {
  ApiCallOutput,
  ChannelInput,
  ChannelOutput,
  EventPayload,
  ScanDeskBridge,
} from '@contract/channels'
import type { InputOf, OperationId, OutputOf } from '@contract/catalog'
import type { Result } from '@contract/errors'
import { createBrowserTransport, storedPageKey } from './browser'
import { createElectronTransport } from './electron'
import type { Transport } from './transport'

let chosen: { host: ScanDeskBridge | undefined; transport: Transport } | null = null

// Chosen on first use (and again if the preload object changes, which only tests do).
function transport(): Transport {
  const host = window.scandesk
  if (!chosen || chosen.host !== host) {
    chosen = {
      host,
      transport: host
        ? createElectronTransport(host)
        : createBrowserTransport({
            fetch: window.fetch.bind(window),
            EventSource: typeof EventSource === 'function' ? EventSource : undefined,
            pageKey: storedPageKey,
          }),
    }
  }
  return chosen.transport
}

/** Which host the renderer runs in. */
export function bridgeKind(): 'electron' | 'browser' {
  return window.scandesk ? 'electron' : 'browser'
}

/** Sends one request to main; always resolves to a Result. */
export function request<C extends ChannelName>(
  channel: C,
  payload: ChannelInput<C>,
  signal?: AbortSignal,
): Promise<Result<ChannelOutput<C>>> {
  return transport().request(channel, payload, signal) as Promise<Result<ChannelOutput<C>>>
}

/** Subscribes to an event pushed by main; returns the unsubscribe function. */
export function on<E extends EventName>(
  event: E,
  listener: (payload: EventPayload<E>) => void,
): () => void {
  return transport().on(event, listener as (payload: unknown) => void)
}

/** The answer of one catalog operation (main has checked `data` against its response schema). */
export type ApiAnswer<Id extends OperationId> = Omit<ApiCallOutput, 'data'> & { data: OutputOf<Id> }

/**
 * Calls one catalog operation for an account through main; `signal` lets go of the request on
 * this side (the caller cancels it in main with `requestId`).
 */
export function callApi<Id extends OperationId>(
  accountId: string,
  op: Id,
  input: InputOf<Id> = {},
  requestId?: string,
  signal?: AbortSignal,
): Promise<Result<ApiAnswer<Id>>> {
  return request(
    'api.call',
    {
      accountId,
      op,
      input: input as ChannelInput<'api.call'>['input'],
      ...(requestId ? { requestId } : {}),
    },
    signal,
  ) as Promise<Result<ApiAnswer<Id>>>
}

/** The input of an operation chosen at run time (registry screens); main checks it against the catalog. */
export interface DynamicInput {
  path?: Record<string, string>
  query?: Record<string, unknown>
  body?: unknown
}

/** Calls an operation known only at run time (the generic screens); the answer is untyped. */
export function callDynamic(
  accountId: string,
  op: OperationId,
  input: DynamicInput,
  requestId?: string,
  signal?: AbortSignal,
): Promise<Result<ApiCallOutput>> {
  return request('api.call', { accountId, op, input, ...(requestId ? { requestId } : {}) }, signal)
}

/** A fresh id for a cancellable request. */
export function newRequestId(): string {
  const bytes = new Uint8Array(12)
  crypto.getRandomValues(bytes)
  return 'r' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

/** Asks main to cancel a request started with `requestId` (best effort). */
export function cancelRequest(requestId: string): void {
  void request('api.cancel', { requestId })
}
