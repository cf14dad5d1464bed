// A download's body read past Node's HTTP parser (raw-body.ts) over real sockets: a service that
// sends the headers with the body's first bytes, then the rest in pieces, so the rest is read
// from the socket directly. Every byte arrives once and in order, over TLS too; the connection is
// not reused afterwards (a body that fits in the first read keeps it); a body longer than its
// Content-Length, or cut short, is refused as before.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import net, { type AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import tls from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppFailure } from '@contract/errors'
import { createAccountClient, type AccountClient } from './client'
import type { StreamSink } from './stream'

const MiB = 1024 * 1024
/** A body of varied bytes starting like a PDF. */
const BODY = Buffer.alloc(5 * MiB)
for (let i = 0; i < BODY.length; i += 32)
  createHash('sha256').update(`raw-body:${i}`).digest().copy(BODY, i)
BODY.write('%PDF-1.7\n')

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex')

/** How the service answers the next download. */
interface Answer {
  /** Announced length (default: the body's). */
  length?: number
  body: Buffer
  /** Bytes sent with the headers, in the same write; the rest follows in 64 KiB pieces. */
  first: number
  /** Destroy the connection after this many body bytes. */
  cutAt?: number
}

let answer: Answer = { body: BODY, first: 1000 }
/** Connections the service accepted, and how many of them the client closed. */
const seen = { connections: 0, closed: 0 }

/** Answers every request on a connection with `answer`, writing the body a piece at a time. */
function serve(socket: net.Socket): void {
  seen.connections++
  socket.on('close', () => seen.closed++)
  socket.on('error', () => undefined)
  socket.on('data', () => {
    const { body, first, cutAt } = answer
    const length = answer.length ?? body.length
    const end = cutAt ?? body.length
    const head = `HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\nContent-Length: ${length}\r\nConnection: keep-alive\r\n\r\n`
    socket.write(Buffer.concat([Buffer.from(head), body.subarray(0, Math.min(first, end))]))
    let offset = Math.min(first, end)
    const next = () => {
      if (socket.destroyed) return
      if (offset >= end) return void (cutAt !== undefined && socket.destroy())
      const piece = body.subarray(offset, Math.min(offset + 64 * 1024, end))
      offset += piece.length
      // A pause now and then, so the body arrives over many reads.
      if (socket.write(piece)) setImmediate(next)
      else socket.once('drain', next)
    }
    setTimeout(next, 20)
  })
}

let dir: string
let plain: net.Server
let secure: tls.Server
let cert: string

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-raw-body-'))
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
      '-subj',
      '/CN=ScanDesk test CA',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
    ],
    { stdio: 'ignore' },
  )
  cert = fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8')
  plain = net.createServer(serve)
  secure = tls.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert }, serve)
})
afterAll(async () => {
  for (const server of [plain, secure])
    await new Promise((resolve) => server.close(resolve)).catch(() => undefined)
  fs.rmSync(dir, { recursive: true, force: true })
})

async function client(over: 'http' | 'https'): Promise<AccountClient> {
  const server = over === 'http' ? plain : secure
  const port = server.listening ? (server.address() as AddressInfo).port : await listen(server)
  return createAccountClient({
    baseUrl: `${over}://127.0.0.1:${port}`,
    apiKey: 'k',
    getAuth: () => ({ scheme: 'Bearer', token: 't' }),
    release: 'latest',
    caBundle: cert,
    limits: { retries: 0 },
  })
}

/** A sink that starts late (the parser reads on meanwhile) and holds the connection now and then. */
function slowSink(): StreamSink & { received: Buffer[] } {
  const received: Buffer[] = []
  return {
    received,
    start: () => new Promise<void>((resolve) => setTimeout(resolve, 30)),
    write(chunk) {
      received.push(chunk)
      if (received.length % 7 === 0) return new Promise<void>((resolve) => setTimeout(resolve, 2))
    },
  }
}

function download(c: AccountClient, sink: StreamSink) {
  return c.download('reports.download', { path: { id: 'r1' }, query: { format: 'pdf' } }, sink)
}

async function failure(p: Promise<unknown>): Promise<AppFailure> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(AppFailure)
  return err as AppFailure
}

describe('a body read past the parser', () => {
  for (const over of ['http', 'https'] as const)
    it(`arrives whole and in order over ${over}; the connection is closed afterwards`, async () => {
      answer = { body: BODY, first: 1000 }
      const c = await client(over)
      const before = { ...seen }
      const sink = slowSink()
      const result = await download(c, sink)
      expect(result).toMatchObject({ status: 200, contentLength: BODY.length, bytes: BODY.length })
      const got = Buffer.concat(sink.received)
      expect(got.length).toBe(BODY.length)
      expect(sha256(got)).toBe(sha256(BODY))
      await expect.poll(() => seen.closed - before.closed).toBe(1)
      c.close()
    })

  it('a body that came with the headers keeps the connection for the next request', async () => {
    const small = BODY.subarray(0, 4000)
    answer = { body: small, first: small.length }
    const c = await client('http')
    const before = { ...seen }
    for (let i = 0; i < 2; i++) {
      const sink = slowSink()
      await download(c, sink)
      expect(Buffer.concat(sink.received).equals(small)).toBe(true)
    }
    expect(seen.connections - before.connections).toBe(1)
    expect(seen.closed - before.closed).toBe(0)
    c.close()
  })

  it('a body longer than its Content-Length is refused before the extra bytes reach the sink', async () => {
    const length = 2 * MiB
    answer = { body: BODY, first: 1000, length }
    const c = await client('http')
    const sink = slowSink()
    const err = await failure(download(c, sink))
    expect(err.error.code).toBe('INTEGRITY_FAILED')
    expect(err.error.message).toMatch(/more bytes than it announced/)
    const got = Buffer.concat(sink.received)
    expect(got.length).toBeLessThanOrEqual(length)
    expect(got.equals(BODY.subarray(0, got.length))).toBe(true)
    c.close()
  })

  it('a connection cut mid-body is INTEGRITY_FAILED, saying how much arrived', async () => {
    answer = { body: BODY, first: 1000, cutAt: 3 * MiB }
    const c = await client('http')
    const err = await failure(download(c, slowSink()))
    expect(err.error.code).toBe('INTEGRITY_FAILED')
    expect(err.error.message).toBe(
      'The connection closed after 3.0 MiB of 5.0 MiB; the file is incomplete.',
    )
    c.close()
  })
})
