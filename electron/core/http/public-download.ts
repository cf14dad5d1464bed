// A download of public data from an address outside any account's service (issue 37 §1: the KEV
// and EPSS feeds): no credential of any kind (no API key, no Authorization, no cookie), the
// account's TLS trust and proxy when it has them (never the environment's), a size cap, a total
// deadline and an idle timeout, and a few redirects followed only while each new address passes
// the caller's judge and never from https to anything else. The transfer itself is stream.ts's.
import http from 'node:http'
import https from 'node:https'
import tls from 'node:tls'
import { AppFailure, fail } from '@contract/errors'
import { statusFailure } from './errors'
import type { ProxyConfig } from './options'
import { takeOverBody } from './raw-body'
import {
  faultFailure,
  streamCore,
  type StreamDeps,
  type StreamFault,
  type StreamSink,
} from './stream'

/** Redirects followed at most (a CDN's "current" address to a dated file, http → https …). */
export const PUBLIC_MAX_REDIRECTS = 3

/** What one public download needs. */
export interface PublicDownloadOptions {
  url: string
  /** Largest body accepted, in bytes (announced or counted). */
  maxBytes: number
  /** Says why an address (the first, or a redirect's) may not be fetched; null when it may. */
  judge(url: URL): string | null
  /** PEM certificates trusted in addition to the system's roots (the account's CA bundle). */
  caBundle?: string | null
  /** The account's explicit proxy; never the environment's. */
  proxy?: ProxyConfig
  userAgent?: string
  /** Total time, redirects included (default 2 minutes). */
  deadlineMs?: number
  /** Longest silence on the socket (default 20 s). */
  idleMs?: number
  signal?: AbortSignal
  /** Read before each request: a sentence when no request may leave ScanDesk (OFFLINE). */
  networkBlocked?: () => string | null
}

/** What a public download delivered. */
export interface PublicDownload {
  bytes: Buffer
  /** The address the body came from (after redirects). */
  url: string
  contentType: string | null
}

/** A redirect met by the transfer: where it points, followed (or refused) by `publicDownload`. */
class Redirect extends Error {
  constructor(
    readonly status: number,
    readonly location: string,
  ) {
    super('redirect')
  }
}

const mib = (bytes: number) =>
  bytes < 1024 * 1024 ? `${bytes} bytes` : `${Math.round(bytes / 1024 / 1024)} MiB`

/** Fetches `url` whole into memory under the limits above; an AppFailure says why not. */
export async function publicDownload(options: PublicDownloadOptions): Promise<PublicDownload> {
  const { maxBytes } = options
  const deadlineAt = Date.now() + (options.deadlineMs ?? 120_000)
  const ca = options.caBundle ? [...tls.rootCertificates, options.caBundle] : undefined
  // Never kept alive: one fetch now and then, each with its own sockets.
  const httpAgent = new http.Agent({ keepAlive: false })
  const httpsAgent = new https.Agent({
    keepAlive: false,
    rejectUnauthorized: true,
    ...(ca ? { ca } : {}),
  })
  const headers: Record<string, string> = {
    Accept: '*/*',
    // The file as published: its SHA-256 is the file's, and gzip is undone by the reader.
    'Accept-Encoding': 'identity',
    ...(options.userAgent ? { 'User-Agent': options.userAgent } : {}),
  }
  const tooLarge = () =>
    new AppFailure({
      code: 'TOO_LARGE',
      message: `The answer is larger than ${mib(maxBytes)}.`,
    })
  let url: URL
  try {
    url = new URL(options.url)
  } catch {
    return fail('VALIDATION', 'That is not a full address.')
  }
  try {
    for (let redirects = 0; ; redirects++) {
      const blocked = options.networkBlocked?.()
      if (blocked) fail('OFFLINE', blocked)
      const problem = options.judge(url)
      if (problem) fail('VALIDATION', problem)
      const chunks: Buffer[] = []
      let size = 0
      const sink: StreamSink = {
        start(head) {
          if (head.contentLength !== null && head.contentLength > maxBytes) throw tooLarge()
        },
        write(chunk) {
          size += chunk.length
          if (size > maxBytes) throw tooLarge()
          chunks.push(chunk)
        },
      }
      const host = url.host
      const deps: StreamDeps = {
        http,
        https,
        takeOverBody,
        fault: (f) => feedFault(f, host),
        fromSink: (err) =>
          err instanceof AppFailure
            ? err
            : new AppFailure({ code: 'INTERNAL', message: 'The download failed inside ScanDesk.' }),
      }
      const remaining = deadlineAt - Date.now()
      if (remaining <= 0)
        fail('TIMEOUT', `The feed at ${host} did not answer in time (redirects included).`)
      try {
        const head = await streamCore(
          deps,
          {
            url,
            headers,
            httpAgent,
            httpsAgent,
            ...(options.proxy ? { proxy: options.proxy } : {}),
            deadlineMs: remaining,
            idleMs: options.idleMs ?? 20_000,
          },
          sink,
          options.signal ? { signal: options.signal } : {},
        )
        return { bytes: Buffer.concat(chunks, size), url: url.href, contentType: head.contentType }
      } catch (err) {
        if (!(err instanceof Redirect)) throw err
        url = redirectTarget(url, err, redirects)
      }
    }
  } finally {
    httpAgent.destroy()
    httpsAgent.destroy()
  }
}

/** The address a redirect leads to, or REDIRECT_REFUSED: too many, or away from https. */
function redirectTarget(from: URL, redirect: Redirect, followed: number): URL {
  const refuse = (why: string): never =>
    fail('REDIRECT_REFUSED', `${from.host} redirected the request ${why}.`)
  if (followed >= PUBLIC_MAX_REDIRECTS) refuse(`more than ${PUBLIC_MAX_REDIRECTS} times`)
  let to: URL
  try {
    to = new URL(redirect.location, from)
  } catch {
    return refuse('to an address that does not read')
  }
  if (to.protocol !== 'https:' && to.protocol !== 'http:')
    refuse(`to a ${to.protocol.replace(/:$/, '')} address`)
  if (from.protocol === 'https:' && to.protocol !== 'https:')
    refuse('from https to a plain http address')
  return to
}

/** A transfer's fault as the feeds' failures read (a redirect handed back to be judged). */
function feedFault(f: StreamFault, host: string): Error {
  if (f.kind !== 'status') return faultFailure(f, host, (text) => text)
  if (f.status >= 300 && f.status < 400 && f.location !== undefined)
    return new Redirect(f.status, f.location)
  const { code } = statusFailure(f, (text) => text).error
  return new AppFailure({
    code,
    status: f.status,
    message:
      f.status >= 300 && f.status < 400
        ? `${host} answered a redirect (status ${f.status}) without saying where to.`
        : `${host} answered with status ${f.status} instead of the file.`,
  })
}
