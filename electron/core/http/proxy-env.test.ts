// `proxy: false`: the proxy variables of the environment are never used. Every proxy variable
// names a recording server on 127.0.0.1 that must see nothing (no request, no CONNECT, not even a
// connection) while calls, conditional reads, probes and downloads reach the service directly,
// over http and over https (the service's certificate from its own CA, as on premises).
import fs from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccountClient, type AccountClient } from './client'
import { makeTestCertificate } from './test-cert'

const PROXY_VARIABLES = [
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'all_proxy',
] as const
const NO_PROXY_VARIABLES = ['NO_PROXY', 'no_proxy'] as const

/** What the recording proxy saw: connections, requests (with their target) and CONNECTs. */
const proxySaw = { connections: 0, requests: [] as string[], connects: [] as string[] }
/** What the service saw (method and path). */
const serviceSaw: string[] = []
const saved = new Map<string, string | undefined>()
let proxy: http.Server
let plain: http.Server
let secure: https.Server
let dir: string
let cert: string

/** Answers like the service: JSON for reads, a small PDF for downloads. */
function service(req: http.IncomingMessage, res: http.ServerResponse): void {
  serviceSaw.push(`${req.method} ${req.url}`)
  if (req.url?.includes('/download')) {
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '9' })
    res.end('%PDF-1.4\n')
    return
  }
  res.writeHead(200, { 'content-type': 'application/json', etag: '"v1"' })
  res.end('{"data":[]}')
}

async function listen(server: http.Server | https.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

async function close(server: http.Server | https.Server | undefined): Promise<void> {
  if (!server) return
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
}

beforeAll(async () => {
  proxy = http.createServer((req, res) => {
    proxySaw.requests.push(`${req.method} ${req.url}`)
    res.writeHead(502).end()
  })
  proxy.on('connection', () => proxySaw.connections++)
  proxy.on('connect', (req: http.IncomingMessage, socket: import('node:net').Socket) => {
    proxySaw.connects.push(String(req.url))
    socket.destroy()
  })
  const proxyPort = await listen(proxy)

  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-proxy-env-'))
  const made = makeTestCertificate(dir, 'ScanDesk proxy test CA')
  cert = made.cert
  plain = http.createServer(service)
  secure = https.createServer({ key: made.key, cert }, service)
  await Promise.all([listen(plain), listen(secure)])

  for (const name of [...PROXY_VARIABLES, ...NO_PROXY_VARIABLES]) saved.set(name, process.env[name])
  for (const name of PROXY_VARIABLES) process.env[name] = `http://127.0.0.1:${proxyPort}`
  for (const name of NO_PROXY_VARIABLES) delete process.env[name]
})

afterAll(async () => {
  for (const [name, value] of saved)
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  await Promise.all([close(proxy), close(plain), close(secure)])
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

function baseUrl(server: http.Server | https.Server, scheme: 'http' | 'https'): string {
  return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`
}

function client(scheme: 'http' | 'https'): AccountClient {
  return createAccountClient({
    baseUrl: baseUrl(scheme === 'http' ? plain : secure, scheme),
    apiKey: 'proxy-test-key',
    getAuth: () => ({ scheme: 'Bearer', token: 'proxy-test-token' }),
    release: 'latest',
    limits: { retries: 0 },
    ...(scheme === 'https' ? { caBundle: cert } : {}),
  })
}

describe.each(['http', 'https'] as const)('with every proxy variable set, over %s', (scheme) => {
  it('calls, reads, probes and downloads directly; the proxy sees nothing', async () => {
    serviceSaw.length = 0
    // The variables are read when a request is made, not when a module is loaded.
    expect(process.env.HTTPS_PROXY).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const c = client(scheme)
    try {
      await expect(c.call('scans.upcoming')).resolves.toEqual({ data: [] })
      const read = await c.read('scans.upcoming', {}, { etag: '"v0"', lastModified: null })
      expect(read).toMatchObject({ notModified: false, etag: '"v1"' })
      await expect(c.probe({ timeoutMs: 2_000 })).resolves.toBeNull()
      const chunks: Buffer[] = []
      await c.download(
        'reports.download',
        { path: { id: 'rpt_1' }, query: { format: 'pdf' } },
        { write: (chunk) => void chunks.push(chunk) },
      )
      expect(Buffer.concat(chunks).toString()).toBe('%PDF-1.4\n')
    } finally {
      c.close()
    }
    expect(serviceSaw).toEqual([
      'GET /v2/scans/upcoming_scans',
      'GET /v2/scans/upcoming_scans',
      'GET /',
      'GET /v2/reports/rpt_1/download?format=pdf',
    ])
    expect(proxySaw).toEqual({ connections: 0, requests: [], connects: [] })
  })
})
