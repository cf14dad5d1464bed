import { createHash, randomBytes } from 'node:crypto'
import diagnostics from 'node:diagnostics_channel'
import fs from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppFailure } from '@contract/errors'
import { createAccountClient, type AccountClient } from '../http/client'
import type { StreamHead, StreamSink } from '../http/stream'
import { makeTestCertificate } from '../http/test-cert'
import { startTestServer, type TestServer } from '../http/test-server'
import { downloadToFolder } from './download'
import { downloadOnThread, type ThreadDownload, type ThreadDownloadResult } from './hasher'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-thread-dl-'))
let server: TestServer
let n = 0
const MiB = 1024 * 1024
const BODY = randomBytes(24 * MiB + 77)
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

function client(
  baseUrl = server.baseUrl,
  caBundle?: string,
  proxy?: { host: string; port: number },
): AccountClient {
  return createAccountClient({
    baseUrl,
    apiKey: 'thread-key',
    getAuth: () => ({ scheme: 'Bearer', token: 'thread-token' }),
    release: 'latest',
    ...(caBundle ? { caBundle } : {}),
    ...(proxy ? { proxy } : {}),
  })
}

/** Serves `body` in 1 MiB writes, with its Content-Length unless `chunked`. */
function serve(body: Buffer, chunked = false) {
  server.handle((_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/pdf',
      ...(chunked ? {} : { 'content-length': String(body.length) }),
    })
    for (let i = 0; i < body.length; i += MiB) res.write(body.subarray(i, i + MiB))
    res.end()
  })
}

interface Run {
  file: string
  heads: StreamHead[]
  progress: { bytes: number; head: string }[]
}

/**
 * Downloads `reports.download` through the client into a new file on a thread; `hooks` replace
 * the download's own (start, progress, limit).
 */
async function download(
  c: AccountClient,
  hooks: Partial<Omit<ThreadDownload, 'request' | 'fd'>> = {},
  signal?: AbortSignal,
  mode: 'w' | 'r' = 'w',
) {
  const file = path.join(dir, `body-${++n}`)
  fs.writeFileSync(file, '')
  const fd = fs.openSync(file, mode === 'w' ? 'r+' : 'r')
  const run: Run = { file, heads: [], progress: [] }
  const out: { done?: ThreadDownloadResult } = {}
  const sink: StreamSink = {
    write: () => {
      throw new Error('the body reached the main thread')
    },
    thread: async (request) => {
      const done = await downloadOnThread({
        request,
        fd,
        maxBytes: 1024 * MiB,
        overMax: () => new Error('over the limit'),
        syncEvery: 4 * MiB,
        start: (head) => void run.heads.push(head),
        progress: (bytes, head) => void run.progress.push({ bytes, head: head.toString('latin1') }),
        ...hooks,
      })
      out.done = done
      return done.result
    },
  }
  try {
    const result = await c.download(
      'reports.download',
      { path: { id: 'r1' }, query: { format: 'pdf' } },
      sink,
      signal ? { signal } : {},
    )
    return { ...run, result, done: out.done as ThreadDownloadResult }
  } finally {
    fs.closeSync(fd)
  }
}

/** A download whose `hook` throws `thrown`: the error it ended with, and the bytes its file kept. */
async function stoppedBy(hook: 'start' | 'progress', thrown: Error) {
  serve(BODY)
  const c = client()
  const file = path.join(dir, `body-${n + 1}`)
  const err = await failure(
    download(c, {
      [hook]: () => {
        throw thrown
      },
    }),
  )
  c.close()
  return { err, size: fs.statSync(file).size }
}

async function failure(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => null,
    (e: unknown) => e,
  )
}

describe('a download made on a thread', () => {
  it('reads, hashes and writes the body there: the main thread opens no socket', async () => {
    serve(BODY)
    const sockets: unknown[] = []
    const onSocket = (s: unknown) => void sockets.push(s)
    diagnostics.subscribe('net.client.socket', onSocket)
    const c = client()
    try {
      const run = await download(c)
      expect(sockets).toHaveLength(0)
      expect(run.result).toMatchObject({ status: 200, bytes: BODY.length })
      expect(run.done.sha256).toBe(sha(BODY))
      expect(run.done.head.equals(BODY.subarray(0, 8))).toBe(true)
      expect(sha(fs.readFileSync(run.file))).toBe(sha(BODY))
      expect(run.heads).toEqual([
        { status: 200, contentLength: BODY.length, contentType: 'application/pdf' },
      ])
      // First as soon as the head is in, then rising, never past the body.
      expect(run.progress[0].head).toBe(BODY.subarray(0, 8).toString('latin1'))
      const counts = run.progress.map((p) => p.bytes)
      expect(counts).toEqual([...counts].sort((a, b) => a - b))
      expect(counts[counts.length - 1]).toBeLessThanOrEqual(BODY.length)
      // The control: the same request read on the main thread opens its socket here.
      await c.download(
        'reports.download',
        { path: { id: 'r1' }, query: { format: 'pdf' } },
        { write: () => undefined },
      )
      expect(sockets).toHaveLength(1)
    } finally {
      diagnostics.unsubscribe('net.client.socket', onSocket)
      c.close()
    }
  })

  it('is how a report is saved into a folder: its file verified, no socket on main', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), BODY])
    serve(pdf)
    const sockets: unknown[] = []
    const onSocket = (s: unknown) => void sockets.push(s)
    diagnostics.subscribe('net.client.socket', onSocket)
    const c = client()
    const reported: number[] = []
    try {
      const saved = await downloadToFolder({
        client: c,
        opId: 'reports.download',
        input: { path: { id: 'r1' }, query: { format: 'pdf' } },
        folder: fs.mkdtempSync(path.join(dir, 'folder-')),
        fileName: 'Report.pdf',
        format: 'pdf',
        onProgress: (p) => void reported.push(p.bytes),
      })
      expect(sockets).toHaveLength(0)
      expect(saved).toMatchObject({ size: pdf.length, sha256: sha(pdf) })
      expect(path.basename(saved.path)).toBe('Report.pdf')
      expect(sha(fs.readFileSync(saved.path))).toBe(sha(pdf))
      expect(reported[reported.length - 1]).toBe(pdf.length)
    } finally {
      diagnostics.unsubscribe('net.client.socket', onSocket)
      c.close()
    }
  })

  it('sends the account’s credentials and maps an error status like every call', async () => {
    server.seen.length = 0
    server.handle((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' })
      res.end('{"error":{"message":"expired thread-token"}}')
    })
    const c = client()
    const err = await failure(download(c))
    c.close()
    expect(server.seen[0].headers).toMatchObject({
      'x-api-key': 'thread-key',
      authorization: 'Bearer thread-token',
    })
    expect(err).toBeInstanceOf(AppFailure)
    expect((err as AppFailure).error.code).toBe('UNAUTHORIZED')
    expect(JSON.stringify(err)).not.toContain('thread-token')
  })

  it('stops when the headers are refused, writing nothing', async () => {
    const refusal = new Error('no room')
    const { err, size } = await stoppedBy('start', refusal)
    expect(err).toBe(refusal)
    expect(size).toBe(0)
  })

  it('stops a body without a length at the limit', async () => {
    serve(BODY, true)
    const c = client()
    const file = path.join(dir, `body-${n + 1}`)
    const err = await failure(download(c, { maxBytes: 3 * MiB }))
    c.close()
    expect((err as Error).message).toBe('over the limit')
    expect(fs.statSync(file).size).toBeLessThanOrEqual(3 * MiB)
  })

  it('stops when a progress check fails, with that check’s error', async () => {
    const wrong = new Error('not a PDF')
    const { err, size } = await stoppedBy('progress', wrong)
    expect(err).toBe(wrong)
    expect(size).toBeLessThan(BODY.length)
  })

  it('cancels: nothing runs on the file once it has settled', async () => {
    let more: (() => void) | null = null
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-length': String(BODY.length) })
      res.write(BODY.subarray(0, 2 * MiB))
      more = () => res.end(BODY.subarray(2 * MiB))
    })
    const stop = new AbortController()
    const c = client()
    const file = path.join(dir, `body-${n + 1}`)
    const err = await failure(
      download(
        c,
        {
          progress: (bytes) => {
            if (bytes > 0) stop.abort()
          },
        },
        stop.signal,
      ),
    )
    ;(more as (() => void) | null)?.()
    expect((err as AppFailure).error.code).toBe('CANCELLED')
    const size = fs.statSync(file).size
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(fs.statSync(file).size).toBe(size)
    expect(size).toBeLessThan(BODY.length)
    c.close()
  })

  it('never lets a late answer to a cancelled download’s headers start the next one', async () => {
    serve(BODY)
    const c = client()
    let answerFirst: () => void = () => undefined
    const stop = new AbortController()
    const first = failure(
      download(
        c,
        {
          start: () => {
            stop.abort()
            return new Promise<void>((resolve) => (answerFirst = resolve))
          },
        },
        stop.signal,
      ),
    )
    expect(((await first) as AppFailure).error.code).toBe('CANCELLED')
    // The next download on the (now idle) thread waits for its own answer.
    let accepted = false
    let early = 0
    let answerSecond: () => void = () => undefined
    const second = download(c, {
      start: () =>
        new Promise<void>((resolve) => {
          answerSecond = () => {
            accepted = true
            resolve()
          }
          answerFirst()
        }),
      progress: () => {
        if (!accepted) early++
      },
    })
    await new Promise((resolve) => setTimeout(resolve, 100))
    answerSecond()
    const run = await second
    c.close()
    expect(early).toBe(0)
    expect(run.done.sha256).toBe(sha(BODY))
  })

  it('goes through the account’s proxy', async () => {
    serve(BODY)
    const asked: string[] = []
    const proxy = http.createServer((req, res) => {
      asked.push(req.url ?? '')
      http.get(req.url ?? '', { headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers)
        up.pipe(res)
      })
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    const port = (proxy.address() as AddressInfo).port
    const c = client(server.baseUrl, undefined, { host: '127.0.0.1', port })
    try {
      const run = await download(c)
      expect(run.done.sha256).toBe(sha(BODY))
      expect(asked).toEqual([`${server.baseUrl}/v2/reports/r1/download?format=pdf`])
    } finally {
      c.close()
      proxy.closeAllConnections()
      await new Promise((resolve) => proxy.close(resolve))
    }
  })

  it('reports a refused write with its errno code', async () => {
    serve(BODY)
    const c = client()
    const err = await failure(download(c, {}, undefined, 'r'))
    c.close()
    expect((err as NodeJS.ErrnoException).code).toBe('EBADF')
  })
})

describe('a download made on a thread over https', () => {
  let tlsServer: https.Server
  let baseUrl: string
  let cert: string

  beforeAll(async () => {
    const made = makeTestCertificate(dir, 'ScanDesk thread CA')
    cert = made.cert
    tlsServer = https.createServer({ key: made.key, cert }, (_req, res) => {
      res.writeHead(200, { 'content-length': String(BODY.length) })
      res.end(BODY)
    })
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve))
    baseUrl = `https://127.0.0.1:${(tlsServer.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    tlsServer.closeAllConnections()
    await new Promise((resolve) => tlsServer.close(resolve))
  })

  it('trusts the account’s CA bundle there, and only that', async () => {
    const trusting = client(baseUrl, cert)
    const run = await download(trusting)
    trusting.close()
    expect(run.done.sha256).toBe(sha(BODY))
    const plain = client(baseUrl)
    const err = await failure(download(plain))
    plain.close()
    expect(err).toBeInstanceOf(AppFailure)
    expect((err as AppFailure).error.message).toMatch(/could not be verified/)
  })
})
