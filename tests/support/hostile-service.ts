// A hostile service on 127.0.0.1: it answers every request the way real proxies and broken
// deployments do — wrong content types, HTML error pages, truncated, endless and dripping bodies,
// JSON with prototype keys, 100,000-deep nesting, numbers out of range, ids off the rule,
// redirects to another origin and to file:, Retry-After junk, and a 401 for everything. Sign-in
// (`/auth/sign_in`) always works, so an account can be added and then meet the mode. A second
// server stands for "elsewhere": it records whatever reaches it (a credential must never).
// For tests only; both servers stop with `close()`.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** How the hostile service answers every request but sign-in. */
export const HOSTILE_MODES = [
  'plain-text-json',
  'html-200',
  'html-502',
  'truncated',
  'prototype-keys',
  'deep-nesting',
  'numbers-out-of-range',
  'ids-off-rule',
  'redirect-elsewhere',
  'redirect-file',
  'retry-after-junk',
  'unauthorized',
  'endless',
  'drip',
] as const
export type HostileMode = (typeof HOSTILE_MODES)[number]

/** The modes whose answers never end: the client must stop them at its limits. */
export const SLOW_MODES: readonly HostileMode[] = ['endless', 'drip']

export interface HostileService {
  baseUrl: string
  /** The other origin redirects lead to; what reached it (method, path, headers). */
  elsewhere: { baseUrl: string; seen: http.IncomingHttpHeaders[] }
  mode: HostileMode | 'good'
  /** Requests answered (not sign-in). */
  answered: number
  close(): Promise<void>
}

const PAGE =
  '<!DOCTYPE html><html><head><title>Gateway</title></head><body><h1>Login required</h1><script>steal()</script></body></html>'
const DEPTH = 100_000

function answer(mode: HostileMode | 'good', res: http.ServerResponse, other: string): void {
  const json = (status: number, text: string, headers: http.OutgoingHttpHeaders = {}): void =>
    void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(text)
  switch (mode) {
    case 'good':
      return json(200, '{"data":[],"meta":{"pagination":{"page":1,"per_page":25,"total":0}}}')
    case 'plain-text-json':
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end('{"data":[]}')
    case 'html-200':
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE)
    case 'html-502':
      return void res.writeHead(502, { 'content-type': 'text/html' }).end(PAGE)
    case 'truncated':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' })
      res.write('{"data":[{"id":"t1","type":"target","attributes":{"name":"Edge"')
      return void setTimeout(() => res.socket?.destroy(), 5)
    case 'prototype-keys':
      return json(
        200,
        '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"data":{"__proto__":{"polluted":"yes"}}}',
      )
    case 'deep-nesting':
      return json(200, `{"data":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}`)
    case 'numbers-out-of-range':
      return json(
        200,
        '{"data":[{"id":"t1","type":"target","attributes":{"name":"Edge","address":"10.0.0.1","hosts_count":1e400}}],"meta":{"pagination":{"page":-1e400,"per_page":1e309,"total":-5}}}',
      )
    case 'ids-off-rule':
      return json(
        200,
        '{"data":[{"id":"t1\\u202E","type":"target","attributes":{"name":"Edge","address":"10.0.0.1"}}]}',
      )
    case 'redirect-elsewhere':
      return void res.writeHead(302, { location: `${other}/v2/targets` }).end()
    case 'redirect-file':
      return void res.writeHead(302, { location: 'file:///etc/passwd' }).end()
    case 'retry-after-junk': {
      const junk = ['999999999', 'soon', '-5', 'Fri, 31 Dec 9999 23:59:59 GMT', '1e9', '']
      return json(503, '{"error":"busy"}', { 'retry-after': junk[Math.floor(Math.random() * 6)] })
    }
    case 'unauthorized':
      return json(401, '{"errors":[{"title":"Unauthorized","detail":"Session expired"}]}')
    case 'endless': {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"data":[')
      const chunk = `${'{"id":"t1","type":"target","attributes":{"name":"x","address":"y"}},'.repeat(200)}`
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump)
      }
      res.on('error', () => undefined)
      return pump()
    }
    case 'drip': {
      res.writeHead(200, { 'content-type': 'application/json' })
      const text = '{"data":[]}'
      let i = 0
      const timer = setInterval(() => {
        if (res.destroyed || i >= text.length) return clearInterval(timer)
        res.write(text[i++])
      }, 1_000)
      res.on('close', () => clearInterval(timer))
      res.on('error', () => undefined)
      return
    }
  }
}

/** Starts the hostile service and the "elsewhere" server on free loopback ports. */
export async function startHostileService(): Promise<HostileService> {
  const seen: http.IncomingHttpHeaders[] = []
  const other = http.createServer((req, res) => {
    seen.push({ ...req.headers, ':path': req.url })
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}')
  })
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
  const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`
  const service: HostileService = {
    baseUrl: '',
    elsewhere: { baseUrl: otherUrl, seen },
    mode: 'good',
    answered: 0,
    close: async () => {
      for (const s of [server, other]) {
        s.closeAllConnections()
        await new Promise<void>((resolve) => s.close(() => resolve()))
      }
    },
  }
  const server = http.createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      if (req.url?.startsWith('/auth/sign_in'))
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end('{"token":"hostile-session"}')
      service.answered++
      answer(service.mode, res, otherUrl)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  service.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return service
}
