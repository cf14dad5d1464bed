// Public downloads (the feeds' Update now) against loopback servers: plain http and https with a CA
// of our own (as an internal mirror has), a recording proxy, redirects, limits, offline.
import fs from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { AppFailure } from '@contract/errors'
import { PUBLIC_MAX_REDIRECTS, publicDownload, type PublicDownloadOptions } from './public-download'
import { makeTestCertificate } from './test-cert'

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void
const seen: { url: string; headers: http.IncomingHttpHeaders; secure: boolean }[] = []
let handler: Handler = (_req, res) => res.end('ok')
let plain: http.Server
let secure: https.Server
let plainBase: string
let secureBase: string
let dir: string
let cert: string

async function listen(server: http.Server | https.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}
async function close(server: http.Server | https.Server): Promise<void> {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-public-'))
  const made = makeTestCertificate(dir, 'ScanDesk mirror CA')
  cert = made.cert
  const serve =
    (isSecure: boolean): Handler =>
    (req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers, secure: isSecure })
      handler(req, res)
    }
  plain = http.createServer(serve(false))
  secure = https.createServer({ key: made.key, cert }, serve(true))
  plainBase = `http://127.0.0.1:${await listen(plain)}`
  secureBase = `https://127.0.0.1:${await listen(secure)}`
})
afterAll(async () => {
  await Promise.all([close(plain), close(secure)])
  fs.rmSync(dir, { recursive: true, force: true })
})
beforeEach(() => {
  seen.length = 0
  handler = (_req, res) => res.end('ok')
})

const get = (url: string, more: Partial<PublicDownloadOptions> = {}) =>
  publicDownload({ url, maxBytes: 1024, judge: () => null, caBundle: cert, ...more })

async function failure(work: Promise<unknown>): Promise<AppFailure['error']> {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(AppFailure)
  return (err as AppFailure).error
}

describe('a public download', () => {
  it('sends no credential of any kind, only what names ScanDesk', async () => {
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    const got = await get(`${secureBase}/kev.json`, { userAgent: 'ScanDesk/9.9' })
    expect(got).toMatchObject({ url: `${secureBase}/kev.json`, contentType: 'application/json' })
    expect(got.bytes.toString()).toBe('{}')
    const headers = seen[0]!.headers
    for (const name of ['authorization', 'x-api-key', 'cookie', 'proxy-authorization'])
      expect(headers[name]).toBeUndefined()
    expect(headers['user-agent']).toBe('ScanDesk/9.9')
    expect(headers['accept-encoding']).toBe('identity')
  })

  it('trusts an https mirror only with the account’s CA bundle', async () => {
    const err = await failure(get(`${secureBase}/kev.json`, { caBundle: null }))
    expect(err.code).toBe('OFFLINE')
    expect(err.message).toMatch(/could not be verified/)
    expect((await get(`${secureBase}/kev.json`)).bytes.toString()).toBe('ok')
  })

  it('refuses an announced or a counted body over the limit', async () => {
    handler = (_req, res) => res.writeHead(200, { 'content-length': '2048' }).end('x'.repeat(2048))
    expect((await failure(get(`${plainBase}/big`))).code).toBe('TOO_LARGE')
    handler = (_req, res) => {
      res.writeHead(200) // chunked: no length announced
      res.write('x'.repeat(1000))
      res.end('x'.repeat(1000))
    }
    const err = await failure(get(`${plainBase}/big`))
    expect(err).toMatchObject({
      code: 'TOO_LARGE',
      message: 'The answer is larger than 1024 bytes.',
    })
    handler = (_req, res) => res.end('x'.repeat(1024))
    expect((await get(`${plainBase}/fits`)).bytes).toHaveLength(1024)
  })

  it('follows a few https redirects, judging each address, and refuses the rest', async () => {
    handler = (req, res) => {
      const hop = Number(req.url!.split('/')[1])
      if (hop > 0) res.writeHead(302, { location: `/${hop - 1}` }).end()
      else res.end('arrived')
    }
    const got = await get(`${secureBase}/${PUBLIC_MAX_REDIRECTS}`)
    expect(got).toMatchObject({ url: `${secureBase}/0` })
    expect(got.bytes.toString()).toBe('arrived')

    const tooMany = await failure(get(`${secureBase}/${PUBLIC_MAX_REDIRECTS + 1}`))
    expect(tooMany).toMatchObject({ code: 'REDIRECT_REFUSED' })
    expect(tooMany.message).toContain(`more than ${PUBLIC_MAX_REDIRECTS} times`)

    const judged: string[] = []
    const refused = await failure(
      get(`${secureBase}/2`, {
        judge: (url) => (judged.push(url.pathname), url.pathname === '/1' ? 'Not there.' : null),
      }),
    )
    expect(refused).toEqual({ code: 'VALIDATION', message: 'Not there.' })
    expect(judged).toEqual(['/2', '/1'])
  })

  it('never follows a redirect from https to plain http or another scheme', async () => {
    handler = (_req, res) => res.writeHead(301, { location: `${plainBase}/kev.json` }).end()
    const down = await failure(get(`${secureBase}/kev.json`))
    expect(down).toMatchObject({ code: 'REDIRECT_REFUSED' })
    expect(down.message).toContain('from https to a plain http address')
    handler = (_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end()
    expect((await failure(get(`${plainBase}/kev.json`))).message).toContain('to a file address')
    expect(seen.filter((s) => !s.secure && s.url === '/kev.json')).toHaveLength(1)
  })

  it('says what an error status was, and times out a silent server', async () => {
    handler = (_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<html>')
    expect(await failure(get(`${plainBase}/gone`))).toMatchObject({
      code: 'BAD_RESPONSE',
      status: 404,
      message: expect.stringContaining('answered with status 404'),
    })
    handler = () => undefined
    expect((await failure(get(`${plainBase}/silent`, { idleMs: 200 }))).code).toBe('TIMEOUT')
  })

  it('sends nothing while no request may leave ScanDesk', async () => {
    const err = await failure(get(`${plainBase}/kev.json`, { networkBlocked: () => 'Offline.' }))
    expect(err).toEqual({ code: 'OFFLINE', message: 'Offline.' })
    expect(seen).toHaveLength(0)
  })

  it('goes through the account’s proxy when it has one, with no credential either', async () => {
    const proxied: { url: string; headers: http.IncomingHttpHeaders }[] = []
    const proxy = http.createServer((req, res) => {
      proxied.push({ url: req.url ?? '', headers: req.headers })
      const upstream = http.request(req.url!, { headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      upstream.end()
    })
    const port = await listen(proxy)
    try {
      handler = (_req, res) => res.end('via proxy')
      const got = await get(`${plainBase}/epss.csv.gz`, {
        proxy: { protocol: 'http', host: '127.0.0.1', port },
      })
      expect(got.bytes.toString()).toBe('via proxy')
      expect(proxied.map((p) => p.url)).toEqual([`${plainBase}/epss.csv.gz`])
      expect(proxied[0]!.headers.authorization).toBeUndefined()
      expect(proxied[0]!.headers['x-api-key']).toBeUndefined()
      // without a proxy of the account's, nothing goes through one
      expect((await get(`${plainBase}/direct`)).bytes.toString()).toBe('via proxy')
      expect(proxied).toHaveLength(1)
    } finally {
      await close(proxy)
    }
  })
})
