import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request a test server saw. */
export interface SeenRequest {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

/** A tiny loopback server for client tests: answers with whatever the test's handler says. */
export interface TestServer {
  baseUrl: string
  seen: SeenRequest[]
  handle(fn: (req: SeenRequest, res: http.ServerResponse) => void): void
  close(): Promise<void>
}

/** Starts a TestServer on 127.0.0.1 with a free port (for tests only). */
export async function startTestServer(): Promise<TestServer> {
  let handler: (req: SeenRequest, res: http.ServerResponse) => void = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
  }
  const seen: SeenRequest[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const entry = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      seen.push(entry)
      handler(entry, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    seen,
    handle(fn) {
      handler = fn
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Writes a JSON answer. */
export function json(res: http.ServerResponse, status: number, body: unknown, headers = {}): void {
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify(body))
}
