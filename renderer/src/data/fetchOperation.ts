import type { InputOf, OperationId, OutputOf } from '@contract/catalog'
import type { Result } from '@contract/errors'
import {
  callApi,
  callDynamic,
  cancelRequest,
  newRequestId,
  type DynamicInput,
} from '@/bridge/bridge'
import { OperationError } from './errors'

/** One answer of a read: the parsed data and where and when it came from. */
export interface Answer<T> {
  data: T
  fetchedAt: string
  fromCache: boolean
  /** Sentences main adds when part of the answer was read tolerantly (shown once by the view). */
  warnings?: string[]
}

/**
 * Sends one read and throws a failure as an OperationError. An abort of `signal` (a superseded
 * or unwatched read) cancels the request in main, lets go of it in the page (in browser mode its
 * HTTP request: a screen left frees its connections for the next one's reads) and rejects with
 * the signal's reason, which the query cache ignores.
 */
async function send<T>(
  signal: AbortSignal | undefined,
  call: (
    requestId: string | undefined,
    signal: AbortSignal | undefined,
  ) => Promise<Result<Answer<T>>>,
): Promise<Answer<T>> {
  const requestId = signal ? newRequestId() : undefined
  const onAbort = () => requestId && cancelRequest(requestId)
  signal?.addEventListener('abort', onAbort, { once: true })
  try {
    const result = await call(requestId, signal)
    if (signal?.aborted) throw signal.reason
    if (!result.ok) throw new OperationError(result.error)
    return result.data
  } finally {
    signal?.removeEventListener('abort', onAbort)
  }
}

/** Reads one operation known at compile time (typed input and answer). */
export function fetchOperation<Id extends OperationId>(
  accountId: string,
  op: Id,
  input: InputOf<Id>,
  signal?: AbortSignal,
): Promise<Answer<OutputOf<Id>>> {
  return send(signal, (requestId, s) => callApi(accountId, op, input, requestId, s))
}

/** Reads one operation chosen at run time (untyped answer, checked by main). */
export function fetchDynamic(
  accountId: string,
  op: OperationId,
  input: DynamicInput,
  signal?: AbortSignal,
): Promise<Answer<unknown>> {
  return send(signal, (requestId, s) => callDynamic(accountId, op, input, requestId, s))
}
