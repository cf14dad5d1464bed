// Sending one JSON request of a catalog operation: the request built and checked, its headers, the
// secrets it carries kept out of messages, the call's deadline and cancels (the user's and the
// account's, which also end a wait between retries), and its failure translated.
import axios, { type AxiosResponse } from 'axios'
import { answersFile } from '@contract/catalog/saq'
import type { OperationDef } from '@contract/catalog/types'
import { fail } from '@contract/errors'
import { releaseController, takeController, whenAborted } from './call-abort'
import { addValidatorHeaders, conditionalStatus, type Validators } from './conditional'
import { identifyingHeaders, refuseWhenBlocked, type Connection } from './connection'
import { redactor } from './errors'
import { translateFailure, unsureWrite } from './failures'
import { missingOperation } from './missing-operation'
import type { CallOptions } from './options'
import { prepareRequest, queryOf, type CallInput } from './request'

const SECRET_FIELD = /pass|token|secret|key|otp|code/i

function bodySecrets(data: unknown): string[] {
  if (typeof data !== 'object' || data === null) return []
  return Object.entries(data as Record<string, unknown>)
    .filter(([k, v]) => SECRET_FIELD.test(k) && typeof v === 'string')
    .map(([, v]) => v as string)
}

/**
 * Sends one request of `op` (retried when idempotent) and returns its 2xx answer, or its 304 when
 * `validators` are given; throws an AppFailure otherwise. A download is refused: it streams.
 */
export async function exchange(
  conn: Connection,
  op: OperationDef,
  input: CallInput,
  callOptions: CallOptions,
  validators: Validators | null,
): Promise<AxiosResponse<string>> {
  const { options, limits } = conn
  if (op.responseKind === 'file' || answersFile(op.id, queryOf(input)))
    fail('BAD_REQUEST', `“${op.summary}” is a download; use the download action instead.`)
  const request = prepareRequest(op, input)
  refuseWhenBlocked(conn)
  const { headers, auth } = await identifyingHeaders(conn, op, { Accept: 'application/json' })
  if (request.data !== undefined) headers['Content-Type'] = 'application/json'
  addValidatorHeaders(headers, validators)
  const redact = redactor([options.apiKey, auth?.token, ...bodySecrets(request.data)])

  const accountSignal = options.accountSignal?.()
  const userSignal = callOptions.signal
  if (userSignal?.aborted || accountSignal?.aborted) fail('CANCELLED', 'The request was cancelled.')
  // One controller per call (one an earlier call left unaborted: call-abort.ts), its deadline
  // timer cleared when the call ends (cheaper than AbortSignal.timeout + AbortSignal.any, whose
  // timers stay armed until they fire).
  const controller = takeController()
  // An abort also ends the wait between retries (axios-retry does not watch the signal there).
  let stop: (reason: unknown) => void = () => undefined
  const stopped = new Promise<never>((_resolve, reject) => {
    stop = reject
  })
  stopped.catch(() => undefined)
  const deadline = { hit: false }
  const timer = setTimeout(() => {
    deadline.hit = true
    controller.abort()
    stop(new axios.CanceledError())
  }, callOptions.deadlineMs ?? limits.deadlineMs)
  timer.unref()
  const onUserAbort = () => {
    controller.abort()
    stop(new axios.CanceledError())
  }
  userSignal?.addEventListener('abort', onUserAbort, { once: true })
  const unwatch = accountSignal && whenAborted(accountSignal, onUserAbort)
  try {
    const sent = conn.instance.request<string>({
      method: op.method,
      url: request.url,
      params: request.params,
      data: request.data,
      headers,
      signal: controller.signal,
      'axios-retry': { retries: op.idempotent ? limits.retries : 0 },
      ...(validators ? { validateStatus: conditionalStatus } : {}),
    })
    sent.catch(() => undefined)
    return await Promise.race([sent, stopped])
  } catch (err) {
    const cancelled = !!userSignal?.aborted || !!accountSignal?.aborted
    const failure = translateFailure(conn, err, deadline.hit, cancelled, redact)
    if (cancelled) throw failure
    throw missingOperation(failure, op, options.release) ?? unsureWrite(failure, err, op, conn.host)
  } finally {
    clearTimeout(timer)
    userSignal?.removeEventListener('abort', onUserAbort)
    unwatch?.()
    releaseController(controller)
  }
}
