import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { CHANNEL_NAMES, EVENT_NAMES } from '@contract/channel-names'
import type { Result } from '@contract/errors'
import type { CoreEvents } from '../events'
import type { CallContext } from '../handlers/dispatch'
import {
  findStaticFile,
  NO_CONTENT_POLICY,
  resolveStaticPath,
  sendStaticFile,
} from './static-files'
import { BRIDGE_KEY_HEADER, BRIDGE_KEY_PARAM } from '@contract/browser-bridge'
import { exchangePage, REFUSED_LAUNCH } from './exchange'
import { cookieValues, hostAllowed, isLaunchExchange, originAllowed } from './security'
import {
  LAUNCH_TTL_MS,
  LaunchTokens,
  Sessions,
  sessionCookie,
  sessionCookieName,
  type IssuedLaunch,
} from './session'

/** Largest accepted bridge request body. */
export const MAX_BODY_BYTES = 1024 * 1024

/** What the bridge needs of the core: its dispatcher and its event bus. */
export interface BridgeCore {
  dispatch(channel: string, payload: unknown, ctx: CallContext): Promise<string>
  events: CoreEvents
}

/** Options of the browser-mode server. */
export interface BrowserServerOptions {
  core: BridgeCore
  /** Folder of the built renderer (out/renderer). */
  rendererDir: string
  /** 0 (default) picks a free port. */
  port?: number
  /** Interval of SSE heartbeat comments; 15 s unless a test shortens it. */
  heartbeatMs?: number
  /** How long a launch token stays valid; 2 minutes unless a test shortens it. */
  launchTtlMs?: number
  log?: (level: 'info' | 'warn' | 'error', message: string) => void
}

/** A one-time launch address: http://127.0.0.1:<port>/?token=<token>, and how it ends. */
export interface LaunchTicket extends IssuedLaunch {
  url: string
}

/** A running browser-mode server. */
export interface RunningBrowserServer {
  port: number
  /** http://127.0.0.1:<port>/ (needs a session; a launch address gives one). */
  origin: string
  /** Name of this run's session cookie (scandesk-<port>-<random>). */
  cookieName: string
  /** Issues a launch token and returns its address: valid once, for the launch TTL. */
  newLaunch(): LaunchTicket
  close(): Promise<void>
}

const BASE_HEADERS = {
  // JSON, text and events load nothing and may be framed by nobody (renderer files send theirs).
  'Content-Security-Policy': NO_CONTENT_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
}

const channels = new Set<string>(CHANNEL_NAMES)

function sendText(res: ServerResponse, status: number, text: string, extra = {}): void {
  res.writeHead(status, {
    ...BASE_HEADERS,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    ...extra,
  })
  res.end(text)
}

/** What a bridge request without this tab's page key gets (401). */
const NO_PAGE_KEY =
  'This tab has no key for ScanDesk’s bridge. Use the tab ScanDesk opened, or open a new ' +
  'launch address (start browser mode again).'

function sendJsonText(res: ServerResponse, json: string): void {
  res.writeHead(200, {
    ...BASE_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(json)),
  })
  res.end(json)
}

/** Reads the body up to MAX_BODY_BYTES; resolves null when it is larger. */
function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0)
    if (declared > MAX_BODY_BYTES) {
      resolve(null)
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    let done = false
    req.on('data', (chunk: Buffer) => {
      if (done) return
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        done = true
        resolve(null)
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => {
      if (!done) resolve(Buffer.concat(chunks))
    })
    req.on('error', reject)
  })
}

function validationResult(message: string): string {
  const result: Result<never> = { ok: false, error: { code: 'VALIDATION', message } }
  return JSON.stringify(result)
}

/**
 * Starts the loopback HTTP bridge of browser mode: launch-token exchange (session cookie and page
 * key), Host/Origin checks, POST /bridge/call/<channel> and GET /bridge/events (SSE), both with
 * the cookie and the page key, and the renderer's static files (the cookie).
 */
export async function startBrowserServer(
  options: BrowserServerOptions,
): Promise<RunningBrowserServer> {
  const { core, rendererDir } = options
  const heartbeatMs = options.heartbeatMs ?? 15_000
  const log = options.log ?? (() => {})
  const launches = new LaunchTokens(options.launchTtlMs ?? LAUNCH_TTL_MS)
  const sessions = new Sessions()
  let cookieName = ''
  const streams = new Set<ServerResponse>()
  const sockets = new Set<Socket>()
  let port = 0

  async function handleCall(req: IncomingMessage, res: ServerResponse, channel: string) {
    if (req.method !== 'POST') return sendText(res, 405, 'Method not allowed', { Allow: 'POST' })
    const type = String(req.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase()
    if (type !== 'application/json') return sendText(res, 415, 'Use application/json')
    const body = await readBody(req)
    if (body === null) {
      sendText(res, 413, 'Request body is larger than 1 MiB', { Connection: 'close' })
      req.resume()
      return
    }
    let payload: unknown = undefined
    if (body.length > 0) {
      try {
        payload = JSON.parse(body.toString('utf8'))
      } catch {
        return sendJsonText(res, validationResult('The request body is not valid JSON.'))
      }
    }
    sendJsonText(res, await core.dispatch(channel, payload, { origin: 'browser' }))
  }

  function handleEvents(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== 'GET') return sendText(res, 405, 'Method not allowed', { Allow: 'GET' })
    res.writeHead(200, {
      ...BASE_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      Connection: 'keep-alive',
    })
    res.write(': connected\n\n')
    streams.add(res)
    const off = core.events.onAny((name, payload) => {
      res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`)
    }, EVENT_NAMES)
    const timer = setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs)
    const stop = () => {
      clearInterval(timer)
      off()
      streams.delete(res)
    }
    req.on('close', stop)
    res.on('close', stop)
  }

  async function handleStatic(req: IncomingMessage, res: ServerResponse, pathname: string) {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendText(res, 405, 'Method not allowed', { Allow: 'GET, HEAD' })
    let found = await findStaticFile(rendererDir, pathname)
    // History-mode routes (no extension) get the app shell; traversal never does.
    const inside = resolveStaticPath(rendererDir, pathname) !== null
    if (!found && inside && !/\.[a-z0-9]+$/i.test(pathname))
      found = await findStaticFile(rendererDir, '/index.html')
    if (!found && pathname === '/favicon.ico') {
      // Browsers ask for it unprompted; a 404 would show up as a console error.
      res.writeHead(204, BASE_HEADERS)
      return res.end()
    }
    if (!found) return sendText(res, 404, 'Not found')
    sendStaticFile(res, found, req.method === 'HEAD')
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (!hostAllowed(req, port)) return sendText(res, 403, 'Forbidden host')
    if (!originAllowed(req, port)) return sendText(res, 403, 'Forbidden origin')
    const raw = req.url ?? '/'
    if (!raw.startsWith('/')) return sendText(res, 400, 'Bad request')
    const queryAt = raw.indexOf('?')
    const pathname = queryAt < 0 ? raw : raw.slice(0, queryAt)
    const url = new URL(`http://127.0.0.1${queryAt < 0 ? '' : raw.slice(queryAt)}`)
    // A token is taken only where it is exchanged; anywhere else it is refused outright (even
    // with a good cookie), so no other path learns to carry one.
    if (url.searchParams.has('token')) {
      if (!isLaunchExchange(req.method, pathname)) {
        // Spent too: a token that turned up somewhere else is not trusted any more.
        launches.redeem(url.searchParams.get('token'))
        return sendText(res, 400, 'A launch token is accepted only by GET /?token=…')
      }
      if (!launches.redeem(url.searchParams.get('token'))) return sendText(res, 401, REFUSED_LAUNCH)
      const { session, key } = sessions.create()
      const page = exchangePage(key)
      res.writeHead(200, {
        ...BASE_HEADERS,
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': page.contentSecurityPolicy,
        'Set-Cookie': sessionCookie(cookieName, session),
      })
      return res.end(page.html)
    }
    const cookies = cookieValues(req.headers.cookie, cookieName)
    if (!cookies.some((value) => sessions.has(value)))
      return sendText(res, 401, 'Open the launch address that browser mode printed or opened.')
    // The bridge needs the page key besides the cookie (which other ports' servers receive too):
    // in a header, or on the event stream, which EventSource opens without headers, in the query.
    if (pathname.startsWith('/bridge/')) {
      const header = req.headers[BRIDGE_KEY_HEADER.toLowerCase()]
      const key =
        typeof header === 'string'
          ? header
          : pathname === '/bridge/events'
            ? url.searchParams.get(BRIDGE_KEY_PARAM)
            : null
      if (!sessions.keyFits(cookies, key)) return sendText(res, 401, NO_PAGE_KEY)
    }
    if (pathname.startsWith('/bridge/call/')) {
      const channel = pathname.slice('/bridge/call/'.length)
      if (!channels.has(channel)) return sendText(res, 404, 'Unknown channel')
      return handleCall(req, res, channel)
    }
    if (pathname === '/bridge/events') return handleEvents(req, res)
    if (pathname.startsWith('/bridge/')) return sendText(res, 404, 'Not found')
    return handleStatic(req, res, pathname)
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log('error', `browser bridge: ${err instanceof Error ? err.message : String(err)}`)
      if (!res.headersSent) sendText(res, 500, 'Internal error')
      else res.destroy()
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  port = (server.address() as AddressInfo).port
  cookieName = sessionCookieName(port)
  const origin = `http://127.0.0.1:${port}/`

  return {
    port,
    origin,
    cookieName,
    newLaunch() {
      const issued = launches.issue()
      return { ...issued, url: `${origin}?token=${issued.token}` }
    },
    close: () =>
      new Promise<void>((resolve) => {
        launches.closeAll()
        sessions.clear()
        for (const res of streams) res.end()
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
      }),
  }
}
