// An HTTP proxy on 127.0.0.1 in front of one service (a sandbox), for tests and benchmarks that
// must see or change what passes: each request may be answered by the proxy itself, and each
// forwarded answer may have its body rewritten; everything else goes through as it came.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** What a proxy may do with the traffic. */
export interface ProxyHooks {
  /** Looks at a request first; answers it itself and returns true, or returns false to forward it. */
  intercept?(req: http.IncomingMessage, res: http.ServerResponse): boolean
  /**
   * A forwarded answer's new body (read whole; length and ETag headers dropped), or null to
   * stream it back unchanged.
   */
  rewrite?(
    req: http.IncomingMessage,
    answer: http.IncomingMessage,
  ): ((body: string) => string) | null
}

/** A running proxy. */
export interface HttpProxy {
  baseUrl: string
  close(): Promise<void>
}

/** Starts a proxy on a free loopback port in front of `target` (an http:// base URL). */
export async function startHttpProxy(target: string, hooks: ProxyHooks = {}): Promise<HttpProxy> {
  const to = new URL(target)
  const server = http.createServer((req, res) => {
    if (hooks.intercept?.(req, res)) return
    const upstream = http.request(
      {
        host: to.hostname,
        port: to.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: to.host },
      },
      (answer) => {
        const change = hooks.rewrite?.(req, answer) ?? null
        if (!change) {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
          return
        }
        const chunks: Buffer[] = []
        answer.on('data', (c: Buffer) => chunks.push(c))
        answer.on('end', () => {
          const headers = { ...answer.headers }
          delete headers['content-length']
          delete headers.etag
          res.writeHead(answer.statusCode ?? 502, headers)
          res.end(change(Buffer.concat(chunks).toString('utf8')))
        })
      },
    )
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
