import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

/** Name of the cookie that carries the per-run token. */
export const TOKEN_COOKIE = 'scandesk_token'

/** A fresh per-run token: 32 random bytes, URL-safe base64 (fits in a query string as is). */
export function newToken(): string {
  return randomBytes(32).toString('base64url')
}

/** Compares a presented token with the expected one in constant time (lengths are hidden too). */
export function tokenMatches(expected: string, presented: string | null | undefined): boolean {
  if (typeof presented !== 'string' || presented.length === 0) return false
  const a = createHash('sha256').update(expected).digest()
  const b = createHash('sha256').update(presented).digest()
  return timingSafeEqual(a, b)
}

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

/** The Set-Cookie value that hands the token to the browser (never readable by scripts). */
export function tokenCookie(token: string): string {
  return `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`
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

/** True when the request carries the token in its cookie or in `?token=`. */
export function requestAuthorized(req: IncomingMessage, url: URL, token: string): boolean {
  if (tokenMatches(token, url.searchParams.get('token'))) return true
  return cookieValues(req.headers.cookie, TOKEN_COOKIE).some((v) => tokenMatches(token, v))
}
