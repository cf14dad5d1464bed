// Fuzzing the size, pace and status of what the service answers: bodies above maxContentLength,
// endless fast bodies, drips below the idle timeout, stalled answers, every error status and
// connection resets, with which a read is retried and a write never. Harness: test-fuzz.ts.
import type http from 'node:http'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { RETRY_STATUSES } from './retry'
import {
  answer,
  CANARY,
  expectAttempts,
  failed,
  newClient,
  op,
  OPS,
  server,
  useFuzzServer,
} from './test-fuzz'

useFuzzServer()

describe('huge, endless and slow answers', () => {
  it('refuses an answer above maxContentLength with TOO_LARGE, without a retry', async () => {
    const size = fc.integer({ min: 130 * 1024, max: 1024 * 1024 })
    await fc.assert(
      fc.asyncProperty(op, size, fc.boolean(), async (id, n, declared) => {
        server.seen.length = 0
        const body = `{"data":"${'x'.repeat(n)}"}`
        server.handle((_req, res) => {
          res.writeHead(200, {
            'content-type': 'application/json',
            ...(declared ? { 'content-length': Buffer.byteLength(body) } : {}),
          })
          res.end(body)
        })
        expect((await failed(id)).code).toBe('TOO_LARGE')
        expectAttempts(id, false)
      }),
      { numRuns: 10 },
    )
  })

  it('stops an endless fast body at maxContentLength (TOO_LARGE)', async () => {
    // Roomy timeouts: this is about size. With the shared client's 400 ms idle timeout, a worker
    // starved of CPU for that long (a loaded machine) saw TIMEOUT first; an endless body that the
    // size limit failed to stop would still end in TIMEOUT here, and fail.
    const c = newClient({ deadlineMs: 20_000, idleMs: 5_000 })
    try {
      for (const id of OPS) {
        server.seen.length = 0
        server.handle((_req, res) => endless(res, 0, 'x'.repeat(16 * 1024)))
        expect((await failed(id, c)).code).toBe('TOO_LARGE')
        expectAttempts(id, false)
      }
    } finally {
      c.close()
    }
  })

  it('stops an endless drip below the idle timeout at the call deadline (TIMEOUT), without a retry', async () => {
    const c = newClient({ deadlineMs: 600, idleMs: 300 })
    try {
      for (const id of OPS) {
        server.seen.length = 0
        server.handle((_req, res) => endless(res, 20, ' '))
        const started = Date.now()
        expect((await failed(id, c)).code).toBe('TIMEOUT')
        expect(Date.now() - started).toBeLessThan(2_000)
        expectAttempts(id, false)
      }
    } finally {
      c.close()
    }
  })

  it('stops a stalled answer at the idle timeout (TIMEOUT); only the read is retried', async () => {
    const c = newClient({ deadlineMs: 5_000, idleMs: 150 })
    try {
      for (const id of OPS) {
        server.seen.length = 0
        server.handle((_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' })
          res.write('{"data":')
        })
        expect((await failed(id, c)).code).toBe('TIMEOUT')
        expectAttempts(id, true)
      }
    } finally {
      c.close()
    }
  })
})

/** Writes `chunk` every `everyMs` until the client goes away (0: as fast as the socket takes it). */
function endless(res: http.ServerResponse, everyMs: number, chunk: string): void {
  res.writeHead(200, { 'content-type': 'application/json' })
  res.write('{"data":"')
  let open = true
  res.on('close', () => {
    open = false
  })
  const next = () => {
    if (!open) return
    if (everyMs === 0) {
      while (open && res.write(chunk));
      if (open) res.once('drain', next)
    } else {
      res.write(chunk)
      setTimeout(next, everyMs)
    }
  }
  next()
}

describe('retries', () => {
  const STATUSES = [400, 401, 403, 404, 405, 408, 409, 410, 413, 418, 429, 500, 501, 502, 503, 504]

  it('retries a read only on 408/429/502/503/504, and never a write', async () => {
    const body = fc.oneof(
      fc.constant(`{"errors":[{"detail":"bad key key-${CANARY} and tok-${CANARY}"}]}`),
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
      fc.constant('<html><body>Bad gateway</body></html>'),
      fc.constant(''),
    )
    await fc.assert(
      fc.asyncProperty(op, fc.constantFrom(...STATUSES), body, async (id, status, text) => {
        server.seen.length = 0
        answer(status, text)
        const error = await failed(id)
        expect(error.code).not.toBe('INTERNAL')
        expect(error.status).toBe(status)
        expectAttempts(id, RETRY_STATUSES.has(status))
      }),
      { numRuns: 80 },
    )
  })

  it('retries a read after a connection reset, and never a write', async () => {
    for (const id of OPS) {
      server.seen.length = 0
      server.handle((_req, res) => res.socket?.destroy())
      const error = await failed(id)
      expect(error.code).toBe('OFFLINE')
      expectAttempts(id, true)
    }
  })

  it('sends a write exactly once even when the service answers 503 with a short Retry-After', async () => {
    server.handle((_req, res) =>
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' }).end('{}'),
    )
    for (let i = 0; i < 5; i++) {
      server.seen.length = 0
      expect((await failed('targets.create')).code).toBe('SERVER')
      expect(server.seen).toHaveLength(1)
    }
  })
})
