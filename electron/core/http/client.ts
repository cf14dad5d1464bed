// One account's HTTP client, put together from its parts: the connection (options.ts,
// connection.ts), JSON calls (exchange.ts, answers.ts, failures.ts), conditional reads
// (conditional.ts), probes, and streamed downloads (downloads.ts, stream.ts).
import axios from 'axios'
import { findOperation, inRelease } from '@contract/catalog/index'
import type { OperationDef } from '@contract/catalog/types'
import { AppFailure, fail } from '@contract/errors'
import type { Release } from '@contract/releases'
import { readAnswer } from './answers'
import { readOutcome, type ReadOutcome, type Validators } from './conditional'
import { openConnection, refuseWhenBlocked } from './connection'
import { streamDownload } from './downloads'
import { redactor } from './errors'
import { exchange } from './exchange'
import { translateFailure } from './failures'
import type { AccountClientOptions, CallOptions } from './options'
import type { CallInput } from './request'
import type { StreamOptions, StreamResult, StreamSink } from './stream'

/** One account's HTTP client: every request goes to its base URL and nowhere else. */
export interface AccountClient {
  readonly baseUrl: string
  readonly release: Release
  /** Runs catalog operation `opId`; resolves to the checked answer or throws an AppFailure. */
  call(opId: string, input?: CallInput, options?: CallOptions): Promise<unknown>
  /**
   * Runs a GET like `call`, sending the validators of a local copy when given: resolves to the
   * answer with its ETag / Last-Modified, or to notModified when the service answers 304.
   */
  read(
    opId: string,
    input: CallInput,
    validators: Validators | null,
    options?: CallOptions,
  ): Promise<ReadOutcome>
  /**
   * Asks the base URL once, without any credential and without retries: resolves to null when
   * the service answered at all (any status), or to the failure (OFFLINE, TIMEOUT, …).
   */
  probe(options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<AppFailure | null>
  /**
   * Streams file operation `opId` into `sink` (one attempt, no retries, no size cap); resolves
   * once every announced byte arrived or throws an AppFailure (401 → UNAUTHORIZED, a short or
   * overlong body → INTEGRITY_FAILED, TIMEOUT, CANCELLED, OFFLINE, …).
   */
  download(
    opId: string,
    input: CallInput,
    sink: StreamSink,
    options?: StreamOptions,
  ): Promise<StreamResult>
  /** Frees the client's sockets. */
  close(): void
}

/** Creates the client of one account (one axios instance, its own sockets). */
export function createAccountClient(options: AccountClientOptions): AccountClient {
  const conn = openConnection(options)

  function operation(opId: string): OperationDef {
    const op = findOperation(opId)
    if (!op)
      fail('UNKNOWN_OPERATION', `ScanDesk does not know the operation "${opId.slice(0, 60)}".`)
    if (!inRelease(op, options.release))
      fail(
        'NOT_IN_RELEASE',
        `“${op.summary}” is not available in release ${options.release} of the service, which this account uses.`,
      )
    return op
  }

  async function call(opId: string, input: CallInput = {}, callOptions: CallOptions = {}) {
    const op = operation(opId)
    const response = await exchange(conn, op, input, callOptions, null)
    return readAnswer(op, response).data
  }

  async function read(
    opId: string,
    input: CallInput,
    validators: Validators | null,
    callOptions: CallOptions = {},
  ): Promise<ReadOutcome> {
    const op = operation(opId)
    if (op.method !== 'GET') fail('BAD_REQUEST', `“${op.summary}” is not a read.`)
    const response = await exchange(conn, op, input, callOptions, validators)
    return readOutcome(op, response, callOptions.tolerant === true)
  }

  async function probe(
    probeOptions: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<AppFailure | null> {
    try {
      refuseWhenBlocked(conn)
      await conn.instance.request<string>({
        method: 'GET',
        url: '',
        headers: {
          Accept: '*/*',
          ...(options.userAgent ? { 'User-Agent': options.userAgent } : {}),
        },
        timeout: probeOptions.timeoutMs ?? 5_000,
        validateStatus: () => true,
        maxContentLength: 64 * 1024,
        signal:
          probeOptions.signal ?? AbortSignal.timeout((probeOptions.timeoutMs ?? 5_000) + 1_000),
        'axios-retry': { retries: 0 },
      })
      return null
    } catch (err) {
      if (err instanceof AppFailure) return err
      // Too large an answer still means the service is there.
      if (axios.isAxiosError(err) && /maxContentLength/.test(err.message)) return null
      return translateFailure(conn, err, false, !!probeOptions.signal?.aborted, redactor([]))
    }
  }

  async function download(
    opId: string,
    input: CallInput,
    sink: StreamSink,
    streamOptions: StreamOptions = {},
  ): Promise<StreamResult> {
    return streamDownload(conn, operation(opId), input, sink, streamOptions)
  }

  return {
    baseUrl: options.baseUrl,
    release: options.release,
    call,
    read,
    probe,
    download,
    close() {
      conn.httpAgent.destroy()
      conn.httpsAgent.destroy()
    },
  }
}
