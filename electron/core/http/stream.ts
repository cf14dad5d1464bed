import http, { type ClientRequest, type IncomingMessage } from 'node:http'
import https from 'node:https'
import type { Socket } from 'node:net'
import { AppFailure } from '@contract/errors'
import { ServiceFailure, statusFailure, transportFailure, type Redact } from './errors'
import { takeOverBody } from './raw-body'

/** The headers of a streamed answer, handed to the sink before its first byte. */
export interface StreamHead {
  status: number
  /** Content-Length, or null when the service did not announce one. */
  contentLength: number | null
  contentType: string | null
}

/**
 * Where a streamed body goes. `write` returns nothing to take the next chunk at once, or a
 * promise to hold the connection until it resolves (backpressure); a throw or rejection ends the
 * transfer with that error. Each chunk is a fresh buffer the sink owns (it may move its memory
 * to another thread): nothing here reads a chunk after handing it over.
 */
export interface StreamSink {
  start?(head: StreamHead): void | Promise<void>
  write(chunk: Buffer): void | Promise<void>
  /**
   * When given, the client does not read the body itself: this makes the whole request on a
   * download thread (files/hasher.ts `downloadOnThread`), which reads, hashes and writes the body
   * there, so the main thread only hears the headers and the progress. `start` still sees the
   * headers first; `write` is then never called.
   */
  thread?(request: ThreadRequest): Promise<StreamResult>
}

/** Everything a download thread needs to make one streamed request itself. */
export interface ThreadRequest {
  url: string
  headers: Record<string, string>
  proxy?: StreamTarget['proxy']
  /** The certificates https trusts, when the account adds its own. */
  ca?: string[]
  deadlineMs: number
  idleMs: number
  signal?: AbortSignal
  /** The AppFailure of a fault the thread reports (the account's host and redactions). */
  fault(f: StreamFault): Error
}

/** Options of one streamed download; the limits default to the client's. */
export interface StreamOptions {
  signal?: AbortSignal
  /** Total time for the whole transfer, headers to last byte. */
  deadlineMs?: number
  /** Longest silence from the service (time the sink holds the connection does not count). */
  idleMs?: number
}

/** What a finished stream delivered; the byte count always equals any Content-Length. */
export interface StreamResult extends StreamHead {
  bytes: number
}

/** Everything one streamed request needs from the account's client. */
export interface StreamTarget {
  url: URL
  headers: Record<string, string>
  httpAgent: http.Agent
  httpsAgent: https.Agent
  proxy?: { protocol?: 'http' | 'https'; host: string; port: number }
  redact: Redact
  deadlineMs: number
  idleMs: number
}

/**
 * Why a transfer ended before its last byte, as plain data: `streamCore` runs on the main thread
 * and on download threads (thread-download.ts), and only the main thread makes an AppFailure of
 * it (`faultFailure`), with the account's host and redactions.
 */
export type StreamFault =
  | { kind: 'transport'; code?: string; reason: 'cancelled' | 'deadline' | null }
  | { kind: 'integrity'; message: string }
  | {
      kind: 'status'
      status: number
      json: unknown
      html: boolean
      retryAfter: unknown
      /** A redirect's Location (the service's client refuses it; a public download may follow). */
      location?: string
    }

/** What `streamCore` takes from the thread it runs on (it may use nothing else from outside). */
export interface StreamDeps {
  http: typeof http
  https: typeof https
  takeOverBody: typeof takeOverBody
  /** The error a fault ends the transfer with. */
  fault(f: StreamFault): Error
  /** The error a sink's throw or rejection ends the transfer with. */
  fromSink(err: unknown): Error
}

/** The AppFailure of a fault, as every other call's failures read. */
export function faultFailure(f: StreamFault, host: string, redact: Redact): ServiceFailure {
  if (f.kind === 'transport') return transportFailure(f.code, host, f.reason)
  if (f.kind === 'integrity')
    return new ServiceFailure({ code: 'INTEGRITY_FAILED', message: f.message })
  return statusFailure(f, redact)
}

/**
 * Streams one GET answer into `sink`: no size cap, a total deadline and an idle timeout, no
 * retries. Error statuses map like every other call (401 → UNAUTHORIZED); a body cut short or
 * longer than its Content-Length → INTEGRITY_FAILED. A body of known length still incomplete
 * once the sink has started is read from the socket directly (raw-body.ts); the connection is
 * then closed at the end instead of being kept for another request.
 */
export function streamRequest(
  target: StreamTarget,
  sink: StreamSink,
  options: StreamOptions = {},
): Promise<StreamResult> {
  const host = target.url.host
  const deps: StreamDeps = {
    http,
    https,
    takeOverBody,
    fault: (f) => faultFailure(f, host, target.redact),
    fromSink: (err) =>
      err instanceof AppFailure
        ? err
        : new AppFailure({ code: 'INTERNAL', message: 'The download failed inside ScanDesk.' }),
  }
  return streamCore(deps, target, sink, options)
}

/**
 * `streamRequest`'s transfer itself. It uses nothing from outside its body but its arguments and
 * the platform's globals, so a download thread runs the very same code from its source text
 * (thread-download.ts); a test runs it there.
 */
export function streamCore(
  deps: StreamDeps,
  target: Omit<StreamTarget, 'redact'>,
  sink: StreamSink,
  options: StreamOptions,
): Promise<StreamResult> {
  /** The largest error body read to explain a refusal. */
  const MAX_ERROR_BODY = 64 * 1024
  const mib = (bytes: number): string =>
    bytes < 1024 * 1024 ? `${bytes} bytes` : `${(bytes / 1048576).toFixed(1)} MiB`
  const parseLength = (header: string | undefined): number | null =>
    header === undefined || !/^\d{1,16}$/.test(header.trim()) ? null : Number(header.trim())
  const looksHtml = (text: string, contentType: string | undefined): boolean =>
    /html/i.test(contentType ?? '') || /^\s*<(!doctype|html|head|body)/i.test(text)
  const integrity = (message: string): Error => deps.fault({ kind: 'integrity', message })
  const transport = (code: string | undefined, reason: 'cancelled' | 'deadline' | null) =>
    deps.fault({ kind: 'transport', code, reason })
  /** An error status whose body says nothing (a redirect, or a body that failed). */
  const statusOnly = (status: number) =>
    deps.fault({ kind: 'status', status, json: undefined, html: false, retryAfter: undefined })
  const openRequest = (): ClientRequest => {
    const { url, proxy } = target
    if (proxy) {
      // Like the axios client: the request goes to the proxy with the absolute URL as its path.
      const viaHttps = proxy.protocol === 'https'
      return (viaHttps ? deps.https : deps.http).request({
        host: proxy.host,
        port: proxy.port,
        method: 'GET',
        path: url.href,
        headers: { ...target.headers, host: url.host },
        agent: viaHttps ? target.httpsAgent : target.httpAgent,
      })
    }
    const secure = url.protocol === 'https:'
    return (secure ? deps.https : deps.http).request(url, {
      method: 'GET',
      headers: target.headers,
      agent: secure ? target.httpsAgent : target.httpAgent,
    })
  }

  const signal = options.signal
  if (signal?.aborted) return Promise.reject(transport(undefined, 'cancelled'))
  const idleMs = options.idleMs ?? target.idleMs
  const deadlineMs = options.deadlineMs ?? target.deadlineMs

  return new Promise<StreamResult>((resolve, reject) => {
    let settled = false
    let res: IncomingMessage | null = null
    let head: StreamHead | null = null
    let bytes = 0
    let finished = false
    /** The socket a body taken off the parser arrives on (raw-body.ts), else null. */
    let raw: Socket | null = null
    /** True while the sink holds the connection. */
    let paused = false

    const req = openRequest()
    const deadline = setTimeout(() => settle(transport(undefined, 'deadline')), deadlineMs)
    // Silence while the sink holds the connection does not count (a cleared timer cannot be
    // refreshed again, so the timer stays armed and waits again instead).
    const idle = setTimeout(() => {
      if (paused) idle.refresh()
      else settle(transport('ETIMEDOUT', null))
    }, idleMs)
    const onAbort = () => settle(transport(undefined, 'cancelled'))
    signal?.addEventListener('abort', onAbort, { once: true })

    function settle(error: Error | null): void {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      clearTimeout(idle)
      signal?.removeEventListener('abort', onAbort)
      // A socket read past its parser cannot carry another request.
      if (error || raw) {
        res?.destroy()
        req.destroy()
      }
      if (error) reject(error)
      else resolve({ ...(head as StreamHead), bytes })
    }

    function fromSink(err: unknown): void {
      settle(deps.fromSink(err))
    }

    req.on('error', (err: NodeJS.ErrnoException) => {
      // Read past the parser, a reset after the last byte ends nothing (the sink finishes it).
      if (raw && bytes === head?.contentLength) return
      // The parser finished the announced body, then met more bytes on the connection.
      if (res?.complete && /^HPE_/.test(err.code ?? ''))
        return settle(
          integrity('The service sent more bytes than it announced; the file cannot be trusted.'),
        )
      if (head) return settle(truncated())
      settle(transport(err.code, null))
    })

    function truncated(): Error {
      const length = head?.contentLength
      return integrity(
        length != null
          ? `The connection closed after ${mib(bytes)} of ${mib(length)}; the file is incomplete.`
          : `The connection closed after ${mib(bytes)}; the file is incomplete.`,
      )
    }

    req.on('response', (response) => {
      res = response
      idle.refresh()
      const status = response.statusCode ?? 0
      if (status < 200 || status >= 300) return readError(response, status)
      head = {
        status,
        contentLength: parseLength(response.headers['content-length']),
        contentType: response.headers['content-type'] ?? null,
      }
      const started = (async () => sink.start?.(head as StreamHead))()
      response.pause()
      started.then(() => {
        if (settled) return
        const body = deps.takeOverBody(req, response)
        if (!body) {
          response.on('data', onData)
          response.resume()
          return
        }
        raw = body.socket
        // Every byte arrived (the sink may still hold the last ones): a close now is no cut.
        raw.on('close', () => {
          if (bytes !== head?.contentLength) settle(truncated())
        })
        for (const chunk of body.prefix) onData(chunk)
        if (settled) return
        raw.on('data', onData)
        if (!paused) raw.resume()
      }, fromSink)
      response.on('end', () => {
        finished = true
        if (settled) return
        const length = head?.contentLength
        if (length != null && bytes !== length) return settle(truncated())
        settle(null)
      })
      // Once the body is read past the parser, the socket's own close decides (above).
      response.on('close', () => {
        if (!finished && !raw) settle(truncated())
      })
      response.on('error', () => {
        if (!raw) settle(truncated())
      })
    })

    function onData(chunk: Buffer): void {
      if (settled) return
      idle.refresh()
      const length = head?.contentLength
      // Read past the parser, the announced length is checked here (the parser checked it before).
      if (raw && length != null && bytes + chunk.length > length)
        return settle(
          integrity('The service sent more bytes than it announced; the file cannot be trusted.'),
        )
      bytes += chunk.length
      let pending: void | Promise<void>
      try {
        pending = sink.write(chunk)
      } catch (err) {
        return fromSink(err)
      }
      const done = raw !== null && bytes === length
      if (!pending) {
        if (done) settle(null)
        return
      }
      // The sink is busy: hold the connection, and do not count the wait as silence.
      const source: Socket | IncomingMessage = raw ?? (res as IncomingMessage)
      source.pause()
      paused = true
      pending.then(() => {
        paused = false
        if (settled) return
        if (done) return settle(null)
        idle.refresh()
        source.resume()
      }, fromSink)
    }

    function readError(response: IncomingMessage, status: number): void {
      if (status >= 300 && status < 400) {
        response.resume()
        const location = response.headers.location
        return settle(
          location === undefined
            ? statusOnly(status)
            : deps.fault({
                kind: 'status',
                status,
                json: undefined,
                html: false,
                retryAfter: undefined,
                location,
              }),
        )
      }
      const chunks: Buffer[] = []
      let size = 0
      response.on('data', (chunk: Buffer) => {
        idle.refresh()
        if (size < MAX_ERROR_BODY) chunks.push(chunk)
        size += chunk.length
      })
      response.on('end', () => {
        const text = Buffer.concat(chunks).subarray(0, MAX_ERROR_BODY).toString('utf8')
        const html = looksHtml(text, response.headers['content-type'])
        let json: unknown = undefined
        if (!html && text.trim())
          try {
            json = JSON.parse(text)
          } catch {
            json = undefined
          }
        const retryAfter = response.headers['retry-after']
        settle(deps.fault({ kind: 'status', status, json, html, retryAfter }))
      })
      response.on('error', () => settle(statusOnly(status)))
    }

    req.end()
  })
}
