// The per-account socket cap: one account's client never holds more than
// MAX_SOCKETS_PER_ACCOUNT connections to its service, whatever it sends at once (calls, downloads
// read on the main thread and downloads made on threads, which open connections of their own);
// the rest wait for a free socket and still succeed; another account has sockets of its own.
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { downloadOnThread } from '../files/hasher'
import { createAccountClient, type AccountClient } from './client'
import { DOWNLOAD_THREADS_PER_ACCOUNT, MAX_SOCKETS_PER_ACCOUNT } from './options'

/** A service that holds every request until told to answer, counting connections and requests. */
const service = {
  connections: new Set<Socket>(),
  opened: 0,
  inFlight: 0,
  maxInFlight: 0,
  held: [] as (() => void)[],
  /** Answer at once from now on (and answer whatever is held). */
  open: false,
}

function answer(req: http.IncomingMessage, res: http.ServerResponse): void {
  res.on('finish', () => service.inFlight--)
  if (req.url?.includes('/download')) {
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': '9' })
    res.end('%PDF-1.4\n')
  } else {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}')
  }
}

let server: http.Server
let baseUrl: string
const clients: AccountClient[] = []

beforeAll(async () => {
  server = http.createServer((req, res) => {
    service.inFlight++
    service.maxInFlight = Math.max(service.maxInFlight, service.inFlight)
    if (service.open) answer(req, res)
    else service.held.push(() => answer(req, res))
  })
  server.on('connection', (socket: Socket) => {
    service.opened++
    service.connections.add(socket)
    socket.on('close', () => service.connections.delete(socket))
  })
  server.keepAliveTimeout = 30_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterEach(() => {
  for (const c of clients.splice(0)) c.close()
  service.open = false
  service.held.splice(0).forEach((release) => release())
  service.opened = 0
  service.maxInFlight = 0
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

function client(): AccountClient {
  const c = createAccountClient({
    baseUrl,
    apiKey: 'k',
    getAuth: () => ({ scheme: 'Bearer', token: 't' }),
    release: 'latest',
    limits: { retries: 0, deadlineMs: 20_000, idleMs: 20_000 },
  })
  clients.push(c)
  return c
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-sockets-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** A download made on a thread (as a report saved into a folder is), into a file of its own. */
async function threadDownload(c: AccountClient, i: number): Promise<unknown> {
  const fd = fs.openSync(path.join(dir, `rpt_${i}-${Math.random()}`), 'w')
  try {
    return await c.download(
      'reports.download',
      { path: { id: `rpt_${i}` }, query: { format: 'pdf' } },
      {
        write: () => undefined,
        thread: async (request) => {
          const done = await downloadOnThread({
            request,
            fd,
            maxBytes: 1024,
            overMax: () => new Error('over'),
            syncEvery: 1024,
            start: () => undefined,
            progress: () => undefined,
          })
          return done.result
        },
      },
    )
  } finally {
    fs.closeSync(fd)
  }
}

/** Downloads made on threads among `count` requests (see `request`). */
const threads = (count: number) =>
  Array.from({ length: count }, (_, i) => i % 3 === 2).filter(Boolean).length

/**
 * A call, a download read on the main thread and a download made on a thread, in turn: all go
 * through the account's sockets.
 */
function request(c: AccountClient, i: number): Promise<unknown> {
  if (i % 3 === 0) return c.call('scans.upcoming')
  if (i % 3 === 2) return threadDownload(c, i)
  return c.download(
    'reports.download',
    { path: { id: `rpt_${i}` }, query: { format: 'pdf' } },
    { write: () => undefined },
  )
}

/** Answers what is held and everything that comes after. */
function openService(): void {
  service.open = true
  service.held.splice(0).forEach((release) => release())
}

describe('the per-account socket cap', () => {
  it('is 8', () => {
    expect(MAX_SOCKETS_PER_ACCOUNT).toBe(8)
  })

  it('opens at most 8 connections for 20 requests sent at once; the rest wait and succeed', async () => {
    const c = client()
    const all = Promise.allSettled(Array.from({ length: 20 }, (_, i) => request(c, i)))
    await vi.waitFor(() => expect(service.held).toHaveLength(MAX_SOCKETS_PER_ACCOUNT))
    // Every request was handed to the agent at once: those beyond the cap have no socket.
    expect(service.opened).toBe(MAX_SOCKETS_PER_ACCOUNT)
    openService()
    const outcomes = await all
    expect(outcomes.map((o) => o.status)).toEqual(Array(20).fill('fulfilled'))
    expect(service.maxInFlight).toBe(MAX_SOCKETS_PER_ACCOUNT)
    // The agents' sockets were kept for the rest; each download made on a thread opened its own.
    expect(service.opened).toBe(
      MAX_SOCKETS_PER_ACCOUNT - DOWNLOAD_THREADS_PER_ACCOUNT + threads(20),
    )
  })

  it('is per account: a second account is not kept waiting by the first one’s full sockets', async () => {
    const first = client()
    const second = client()
    const all = Promise.allSettled([
      ...Array.from({ length: 12 }, (_, i) => request(first, i)),
      ...Array.from({ length: 12 }, (_, i) => request(second, i)),
    ])
    await vi.waitFor(() => expect(service.held).toHaveLength(2 * MAX_SOCKETS_PER_ACCOUNT))
    expect(service.opened).toBe(2 * MAX_SOCKETS_PER_ACCOUNT)
    openService()
    expect((await all).every((o) => o.status === 'fulfilled')).toBe(true)
    expect(service.opened).toBe(
      2 * (MAX_SOCKETS_PER_ACCOUNT - DOWNLOAD_THREADS_PER_ACCOUNT + threads(12)),
    )
  })
})
