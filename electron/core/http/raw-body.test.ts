// A download's body read past Node's HTTP parser (raw-body.ts) over real sockets: a service that
// sends the headers with the body's first bytes, then the rest in pieces, so the rest is read
// from the socket directly. Every byte arrives once and in order, over TLS too; the connection is
// not reused afterwards (a body that fits in the first read keeps it); a body longer than its
// Content-Length, or cut short, is refused as before.
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import net, { type AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import tls from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppFailure } from '@contract/errors'
import { downloadToFolder } from '../files/download'
import { createAccountClient, type AccountClient } from './client'
import { makeTestCertificate } from './test-cert'
import type { StreamOptions, StreamSink } from './stream'

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
  /** Send nothing more after this many body bytes, keeping the connection open. */
  stallAt?: number
  /** Close the connection right after the last byte (Connection: close). */
  close?: boolean
  /** Send the body chunked, without a Content-Length. */
  chunked?: boolean
}

let answer: Answer = { body: BODY, first: 1000 }
/** Connections the service accepted, and how many of them the client closed. */
const seen = { connections: 0, closed: 0 }
/** The service's side of every connection, in order. */
const sockets: net.Socket[] = []

/** Answers every request on a connection with `answer`, writing the body a piece at a time. */
function serve(socket: net.Socket): void {
  seen.connections++
  sockets.push(socket)
  socket.on('close', () => seen.closed++)
  socket.on('error', () => undefined)
  socket.on('data', () => {
    const { body, first, cutAt, stallAt, close, chunked } = answer
    const length = answer.length ?? body.length
    const end = cutAt ?? stallAt ?? body.length
    const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`
    const head = `HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\n${framing}\r\nConnection: ${close ? 'close' : 'keep-alive'}\r\n\r\n`
    const frame = (piece: Buffer) =>
      chunked && piece.length
        ? Buffer.concat([
            Buffer.from(`${piece.length.toString(16)}\r\n`),
            piece,
            Buffer.from('\r\n'),
          ])
        : piece
    socket.write(Buffer.concat([Buffer.from(head), frame(body.subarray(0, Math.min(first, end)))]))
    let offset = Math.min(first, end)
    const next = () => {
      if (socket.destroyed) return
      if (offset >= end) {
        if (cutAt !== undefined) socket.destroy()
        else if (chunked && stallAt === undefined) socket.write('0\r\n\r\n')
        else if (close) socket.end()
        return
      }
      const piece = body.subarray(offset, Math.min(offset + 64 * 1024, end))
      offset += piece.length
      // A pause now and then, so the body arrives over many reads.
      if (socket.write(frame(piece))) setImmediate(next)
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
  const made = makeTestCertificate(dir, 'ScanDesk test CA')
  cert = made.cert
  plain = net.createServer(serve)
  secure = tls.createServer({ key: made.key, cert }, serve)
})
afterAll(async () => {
  for (const socket of sockets) socket.destroy()
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

function download(c: AccountClient, sink: StreamSink, options?: StreamOptions) {
  const input = { path: { id: 'r1' }, query: { format: 'pdf' } }
  return c.download('reports.download', input, sink, options)
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

describe('a body read past the parser keeps every limit', () => {
  it('a service that closes right after the last byte, while the sink still holds it, is no cut', async () => {
    answer = { body: BODY, first: 1000, close: true }
    const c = await client('http')
    const received: Buffer[] = []
    let total = 0
    const sink: StreamSink = {
      write(chunk) {
        received.push(chunk)
        total += chunk.length
        // The last bytes are held long after the service closed the connection.
        if (total === BODY.length) return new Promise<void>((resolve) => setTimeout(resolve, 100))
      },
    }
    const result = await download(c, sink)
    expect(result.bytes).toBe(BODY.length)
    expect(sha256(Buffer.concat(received))).toBe(sha256(BODY))
    c.close()
  })

  for (const chunked of [false, true])
    it(`a service silent mid-body past the idle timeout, after the sink held the connection, is a timeout (${chunked ? 'chunked' : 'Content-Length'})`, async () => {
      answer = { body: BODY, first: 1000, stallAt: 2 * MiB, chunked }
      const c = await client('https')
      const before = { ...seen }
      const sink = slowSink()
      const err = await failure(download(c, sink, { idleMs: 300 }))
      expect(err.error.code).toBe('TIMEOUT')
      expect(sink.received.length).toBeGreaterThan(7) // held at least once before the silence
      await expect.poll(() => seen.closed - before.closed).toBe(1)
      c.close()
    })

  it('the deadline ends a body still arriving', async () => {
    answer = { body: BODY, first: 1000, stallAt: 2 * MiB }
    const c = await client('http')
    const err = await failure(download(c, slowSink(), { deadlineMs: 400, idleMs: 10_000 }))
    expect(err.error.code).toBe('TIMEOUT')
    c.close()
  })

  it('a chunked body is left to the parser: whole, and the connection kept', async () => {
    answer = { body: BODY, first: 1000, chunked: true }
    const c = await client('http')
    const from = sockets.length
    for (let i = 0; i < 2; i++) {
      const sink = slowSink()
      const result = await download(c, sink)
      expect(result).toMatchObject({ contentLength: null, bytes: BODY.length })
      expect(sha256(Buffer.concat(sink.received))).toBe(sha256(BODY))
    }
    const opened = sockets.slice(from)
    expect(opened.length).toBe(1)
    expect(opened[0].destroyed).toBe(false)
    c.close()
  })

  describe('into a folder', () => {
    const request = (c: AccountClient, folder: string, signal?: AbortSignal) => ({
      client: c,
      opId: 'reports.download' as const,
      input: { path: { id: 'r1' }, query: { format: 'pdf' as const } },
      folder,
      fileName: 'report.pdf',
      format: 'pdf' as const,
      ...(signal ? { signal } : {}),
    })

    it('lands whole under its name', async () => {
      answer = { body: BODY, first: 1000 }
      const c = await client('https')
      const folder = fs.mkdtempSync(path.join(dir, 'f-'))
      await downloadToFolder(request(c, folder))
      expect(fs.readdirSync(folder)).toEqual(['report.pdf'])
      expect(sha256(fs.readFileSync(path.join(folder, 'report.pdf')))).toBe(sha256(BODY))
      c.close()
    })

    it('cancelled mid-body: CANCELLED, the connection closed, nothing kept', async () => {
      answer = { body: BODY, first: 1000, stallAt: 3 * MiB }
      const c = await client('http')
      const folder = fs.mkdtempSync(path.join(dir, 'f-'))
      const before = { ...seen }
      const stop = new AbortController()
      const done = downloadToFolder(request(c, folder, stop.signal))
      // The service goes silent after 3 MiB; the download is cancelled while it waits mid-body.
      setTimeout(() => stop.abort(), 300)
      const err = await failure(done)
      expect(err.error.code).toBe('CANCELLED')
      await expect.poll(() => seen.closed - before.closed).toBe(1)
      expect(fs.readdirSync(folder)).toEqual([])
      c.close()
    })

    it('cut mid-body or longer than announced: nothing kept', async () => {
      const c = await client('http')
      for (const a of [
        { body: BODY, first: 1000, cutAt: 3 * MiB },
        { body: BODY, first: 1000, length: 2 * MiB },
      ]) {
        answer = a
        const folder = fs.mkdtempSync(path.join(dir, 'f-'))
        const err = await failure(downloadToFolder(request(c, folder)))
        expect(err.error.code).toBe('INTEGRITY_FAILED')
        expect(fs.readdirSync(folder)).toEqual([])
      }
      c.close()
    })
  })
})
