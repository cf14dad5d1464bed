// Raw HTTP helpers of the browser-mode server tests: requests that go out exactly as written, and
// the launch exchange as a browser does it (the cookie, and the page key from the page's script).
import { request } from 'node:http'
import { expect } from 'vitest'
import type { RunningBrowserServer } from './server'

export interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** One raw HTTP request, so Host/Origin/paths go out exactly as written. */
export function send(
  port: number,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: opts.method ?? 'GET',
        headers: { Host: `127.0.0.1:${port}`, ...opts.headers },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        )
      },
    )
    req.on('error', reject)
    if (opts.body !== undefined) req.write(opts.body)
    req.end()
  })
}

/** The page key an exchange page hands to sessionStorage. */
export function pageKeyOf(html: string): string {
  const match = /sessionStorage\.setItem\("scandesk-bridge-key","([A-Za-z0-9_-]{43})"\)/.exec(html)
  if (!match) throw new Error(`no page key in ${html}`)
  return match[1]
}

/**
 * Exchanges a fresh launch token of `srv`: the `name=value` its cookie carries and the page key
 * its page keeps.
 */
export async function exchange(
  srv: RunningBrowserServer,
): Promise<{ cookie: string; key: string }> {
  const answer = await send(srv.port, `/?token=${srv.newLaunch().token}`)
  expect(answer.status).toBe(200)
  const set = answer.headers['set-cookie']
  if (!Array.isArray(set) || set.length !== 1) throw new Error('no session cookie')
  return { cookie: set[0].split(';')[0], key: pageKeyOf(answer.body) }
}

/** Just the cookie of a fresh exchange (for what the cookie alone reaches: the app's files). */
export async function signIn(srv: RunningBrowserServer): Promise<string> {
  return (await exchange(srv)).cookie
}
