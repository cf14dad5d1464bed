import type { IncomingMessage } from 'node:http'

/** Every value the request's Cookie header gives for `name` (a browser may send several). */
export function cookieValues(header: string | undefined, name: string): string[] {
  if (!header) return []
  const out: string[] = []
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    if (part.slice(0, eq).trim() === name) out.push(part.slice(eq + 1).trim())
  }
  return out
}

/** True when the Host header names this server on loopback (defeats DNS rebinding). */
export function hostAllowed(req: IncomingMessage, port: number): boolean {
  const host = req.headers.host
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`
}

/** True when the request has no Origin header or comes from this server's own origin. */
export function originAllowed(req: IncomingMessage, port: number): boolean {
  const origin = req.headers.origin
  if (origin === undefined) return true
  return origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`
}

/** True when the request asks to exchange a launch token: `GET /?token=…`, nothing else. */
export function isLaunchExchange(method: string | undefined, pathname: string): boolean {
  return method === 'GET' && pathname === '/'
}
