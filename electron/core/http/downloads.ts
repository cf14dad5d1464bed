// Streaming a file operation: its absolute URL built from the base URL, its headers (no
// compression, so the announced length is the length on disk), the account's cancel joined to
// the caller's, the download's own deadline. One attempt, no retries, no size cap.
import { answersFile } from '@contract/catalog/saq'
import type { OperationDef } from '@contract/catalog/types'
import { fail } from '@contract/errors'
import { identifyingHeaders, refuseWhenBlocked, type Connection } from './connection'
import { redactor } from './errors'
import { prepareRequest, queryOf, type CallInput } from './request'
import {
  faultFailure,
  streamRequest,
  type StreamFault,
  type StreamOptions,
  type StreamResult,
  type StreamSink,
} from './stream'

/** The absolute URL of a download: the base URL (its path kept) + the encoded path + the query. */
export function downloadUrl(
  base: URL,
  path: string,
  params: Record<string, unknown> | undefined,
): URL {
  const url = new URL(base.href)
  url.pathname = `${base.pathname.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`
  url.search = ''
  url.hash = ''
  for (const [key, value] of Object.entries(params ?? {})) {
    const values = Array.isArray(value) ? value : [value]
    const name = Array.isArray(value) ? `${key}[]` : key
    for (const v of values)
      if (v !== undefined && v !== null) url.searchParams.append(name, String(v))
  }
  return url
}

/**
 * Streams file operation `op` into `sink`: a file operation, or the one JSON operation that
 * answers a file with its query (an SAQ's PDF: `saq.show` with format=pdf); anything else is
 * refused with BAD_REQUEST before anything is sent.
 */
export async function streamDownload(
  conn: Connection,
  op: OperationDef,
  input: CallInput,
  sink: StreamSink,
  streamOptions: StreamOptions,
): Promise<StreamResult> {
  const { options, limits } = conn
  if ((op.responseKind !== 'file' && !answersFile(op.id, queryOf(input))) || op.method !== 'GET')
    fail('BAD_REQUEST', `“${op.summary}” is not a download.`)
  const request = prepareRequest(op, input)
  refuseWhenBlocked(conn)
  const { headers, auth } = await identifyingHeaders(conn, op, {
    Accept: '*/*',
    'Accept-Encoding': 'identity',
  })
  const accountSignal = options.accountSignal?.()
  const signals = [streamOptions.signal, accountSignal].filter((x): x is AbortSignal => !!x)
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0]
  const url = downloadUrl(conn.base, request.url, request.params)
  const redact = redactor([options.apiKey, auth?.token])
  const deadlineMs = streamOptions.deadlineMs ?? limits.downloadDeadlineMs
  const idleMs = streamOptions.idleMs ?? limits.idleMs
  if (sink.thread) {
    const fault = (f: StreamFault) => faultFailure(f, url.host, redact)
    // Its own connection: it waits for one of the account's download places (see options.ts).
    const release = await conn.downloadThreads.take(signal, () =>
      fault({ kind: 'transport', reason: 'cancelled' }),
    )
    try {
      return await sink.thread({
        url: url.href,
        headers,
        ...(options.proxy ? { proxy: options.proxy } : {}),
        ...(conn.ca ? { ca: conn.ca } : {}),
        deadlineMs,
        idleMs,
        ...(signal ? { signal } : {}),
        fault,
      })
    } finally {
      release()
    }
  }
  return streamRequest(
    {
      url,
      headers,
      httpAgent: conn.httpAgent,
      httpsAgent: conn.httpsAgent,
      proxy: options.proxy,
      redact,
      deadlineMs,
      idleMs,
    },
    sink,
    { ...(signal ? { signal } : {}) },
  )
}
