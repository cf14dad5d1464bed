// Pieces of the fault suite (tests/integration/faults*.test.ts): a fault proxy in front of the
// real sandbox for the faults the sandbox itself cannot serve (a 503 burst, Retry-After as an
// HTTP date or absent, a JSON body that trickles), the secret check of core-canary.test.ts as
// one call, and real file systems that refuse writes (a small tmpfs, a read-only folder), with a
// file-layer injection as the last resort where the machine allows neither.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { expect, vi } from 'vitest'
import { nodeFileOps, type WritableFile } from '../../electron/core/files/fs-ops'
import { bytesOf, type RecordedSandbox, type TestCore } from './core-helpers'

/** What the proxy does to the answers it forwards (all off by default). */
export interface ProxyFaults {
  /**
   * The next this-many requests are forwarded to the sandbox (which does the work) and then
   * answered 503, as a gateway that lost the upstream's answer would.
   */
  unavailable: number
  /**
   * The next this-many requests (after `unavailable`'s) are forwarded to the sandbox (which does
   * the work) and then their connection is destroyed before any answer, as a line that drops.
   */
  dropped: number
  /** Which requests `unavailable` and `dropped` apply to (all when null). */
  matching: ((method: string, path: string) => boolean) | null
  /** This many matching requests pass untouched before `unavailable` and `dropped` apply. */
  pass: number
  /** Retry-After sent with those 503s (none when null). */
  unavailableRetryAfter: string | null
  /** How a 429's Retry-After from the sandbox (always `1`) reaches the client. */
  retryAfter: 'seconds' | 'date' | 'none'
  /** Answer bodies trickle: `bytes` every `everyMs` (0 = sent at once). */
  drip: { bytes: number; everyMs: number } | null
}

/**
 * Where a held request stops: before the sandbox sees it ('request'), once the sandbox answered
 * (its work done, the answer kept back: 'answer'), or with the head and half the answer's body
 * sent ('body').
 */
export type HoldAt = 'request' | 'answer' | 'body'

/** Which request to hold, and where (FaultProxy.hold). */
export interface HoldSpec {
  /** `path` without the query; `url` with it. */
  matching: (method: string, path: string, url: string) => boolean
  /** This many matching requests pass before the one held (default 0: the first). */
  skip?: number
  at: HoldAt
}

/** A loopback proxy in front of one sandbox; it forwards every request and records each answer. */
export interface FaultProxy {
  baseUrl: string
  faults: ProxyFaults
  /** Each request as it arrived (method, path, time), with the status the client got once sent. */
  seen: { method: string; path: string; at: number; status: number | null }[]
  /**
   * Holds the next request `spec` matches (after `skip`), never to be answered: resolves once it
   * is held where `spec.at` says. The crash tests kill the client then, with that request sent
   * and unanswered; `close` (or `dropHeld`) breaks its connection.
   */
  hold(spec: HoldSpec): Promise<{ method: string; path: string }>
  /** Breaks the connections of the requests held so far, and disarms a hold not yet met. */
  dropHeld(): void
  close(): Promise<void>
}

const NO_PROXY_FAULTS: ProxyFaults = {
  unavailable: 0,
  dropped: 0,
  matching: null,
  pass: 0,
  unavailableRetryAfter: null,
  retryAfter: 'seconds',
  drip: null,
}

/** An HTTP date `seconds` from now (Retry-After's other form, RFC 9110 §10.2.3). */
export function httpDate(seconds: number): string {
  return new Date(Date.now() + seconds * 1000).toUTCString()
}

/** Starts a fault proxy on 127.0.0.1 (a free port) in front of `sandbox`. */
export async function startFaultProxy(sandbox: { baseUrl: string }): Promise<FaultProxy> {
  const to = new URL(sandbox.baseUrl)
  const holding = holdingOf()
  const proxy: FaultProxy = {
    baseUrl: '',
    faults: { ...NO_PROXY_FAULTS },
    seen: [],
    hold: holding.hold,
    dropHeld: holding.drop,
    close: async () => undefined,
  }
  const server = http.createServer((req, res) => {
    const seen = {
      method: req.method ?? '',
      path: (req.url ?? '').split('?')[0],
      at: Date.now(),
      status: null as number | null,
    }
    proxy.seen.push(seen)
    const held = holding.take(seen.method, seen.path, req.url ?? '')
    if (held?.at === 'request') return holding.keep(res, held, seen)
    const upstream = http.request(
      {
        host: to.hostname,
        port: to.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: to.host },
      },
      (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (c: Buffer) => chunks.push(c))
        answer.on('error', () => res.destroy())
        answer.on('end', () => {
          let status = answer.statusCode ?? 502
          let body = Buffer.concat(chunks)
          const headers = { ...answer.headers }
          const f = proxy.faults
          const hit = !f.matching || f.matching(seen.method, seen.path)
          if (hit && f.pass > 0 && f.unavailable + f.dropped > 0) f.pass--
          else if (hit && f.unavailable === 0 && f.dropped > 0) {
            f.dropped--
            return void res.destroy()
          } else if (hit && f.unavailable > 0) {
            f.unavailable--
            status = 503
            body = Buffer.from(JSON.stringify({ error: 'Service Unavailable' }))
            for (const h of ['etag', 'retry-after', 'content-disposition']) delete headers[h]
            headers['content-type'] = 'application/json'
            if (f.unavailableRetryAfter) headers['retry-after'] = f.unavailableRetryAfter
          } else if (status === 429 && f.retryAfter !== 'seconds') {
            if (f.retryAfter === 'none') delete headers['retry-after']
            else headers['retry-after'] = httpDate(Number(headers['retry-after'] ?? 1) + 1)
          }
          headers['content-length'] = String(body.length)
          delete headers['transfer-encoding']
          if (held?.at === 'answer') return holding.keep(res, held, seen)
          if (held?.at === 'body') {
            res.writeHead(status, headers)
            res.write(body.subarray(0, Math.floor(body.length / 2)))
            return holding.keep(res, held, seen)
          }
          seen.status = status
          res.writeHead(status, headers)
          if (!f.drip || body.length === 0) return void res.end(body)
          const { bytes, everyMs } = f.drip
          let sent = 0
          const timer = setInterval(() => {
            if (res.destroyed) return clearInterval(timer)
            const part = body.subarray(sent, sent + bytes)
            sent += part.length
            if (sent >= body.length) {
              clearInterval(timer)
              res.end(part)
            } else res.write(part)
          }, everyMs)
          res.on('close', () => clearInterval(timer))
        })
      },
    )
    upstream.on('error', () => res.destroy())
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  proxy.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  return proxy
}

/** The proxy's holds (FaultProxy.hold): one armed at a time, the held answers kept open. */
function holdingOf() {
  type Held = { method: string; path: string }
  let armed: { spec: HoldSpec; left: number; resolve: (held: Held) => void } | null = null
  const kept: http.ServerResponse[] = []
  return {
    hold: (spec: HoldSpec) =>
      new Promise<Held>((resolve, reject) => {
        if (armed) return reject(new Error('a hold is armed already'))
        armed = { spec, left: spec.skip ?? 0, resolve }
      }),
    /** Where the request now arriving is held (and how to tell the test), or null. */
    take(
      method: string,
      path: string,
      url: string,
    ): { at: HoldAt; told: (held: Held) => void } | null {
      if (!armed || !armed.spec.matching(method, path, url)) return null
      if (armed.left-- > 0) return null
      const taken = { at: armed.spec.at, told: armed.resolve }
      armed = null
      return taken
    },
    /** Keeps `res` unanswered and tells the test. */
    keep(res: http.ServerResponse, held: { told: (held: Held) => void }, seen: Held): void {
      kept.push(res)
      held.told({ method: seen.method, path: seen.path })
    },
    drop(): void {
      armed = null
      for (const res of kept.splice(0)) res.destroy()
    },
  }
}

/** Sandbox request lines after index `from` matching `re` ("GET /v2/targets → 200"). */
export function linesSince(sandbox: RecordedSandbox, from: number, re: RegExp) {
  return sandbox.lines
    .slice(from)
    .filter((l) => re.test(l.line))
    .map((l) => ({ at: l.at, line: l.line.split(' (')[0] }))
}

/** The gaps between consecutive times, in ms. */
export function gaps(times: number[]): number[] {
  return times.slice(1).map((t, i) => t - times[i])
}

/**
 * The check of core-canary.test.ts in one call: none of `secrets` (API key, passwords, session
 * tokens) appears in what dispatch returned, in any event, in the core's log, under its data
 * folder, or in the extra folders given (the download folder).
 */
export function expectNoSecrets(
  t: TestCore,
  secrets: (string | null | undefined)[],
  folders: string[] = [],
) {
  const list = secrets.filter((s): s is string => typeof s === 'string')
  expect(list.length).toBe(secrets.length)
  for (const s of list) expect(s.length).toBeGreaterThan(8)
  const seen = [...t.results, ...t.events.map((e) => JSON.stringify(e.payload)), ...t.logs].join(
    '\n',
  )
  expect(t.results.length).toBeGreaterThan(0)
  const disk = Buffer.concat([bytesOf(t.dataDir), ...folders.map(bytesOf)])
  for (const s of list) {
    expect(seen.includes(s), 'a secret reached a result, an event or the log').toBe(false)
    expect(disk.includes(Buffer.from(s)), 'a secret reached the disk').toBe(false)
  }
}

/** Runs a command; true when it worked (its output is dropped). */
function tried(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** A real small file system for the download folder, or null where mounting is not allowed. */
export interface SmallDisk {
  folder: string
  /** Fills every free byte with a file beside `folder` (as another program would). */
  fill(): void
  /** Deletes the filler. */
  free(): void
  unmount(): void
}

/**
 * Mounts a tmpfs of `bytes` (rounded up to pages) at a fresh temporary folder: a real disk that
 * fills up. Null when this process may not mount (not root, or a container without the right).
 */
export function mountSmallDisk(bytes: number): SmallDisk | null {
  const mountPoint = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-tmpfs-')))
  if (!tried('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', mountPoint])) {
    fs.rmdirSync(mountPoint)
    return null
  }
  const folder = path.join(mountPoint, 'Downloads')
  fs.mkdirSync(folder)
  const filler = path.join(mountPoint, 'filler.bin')
  return {
    folder,
    fill() {
      const fd = fs.openSync(filler, 'a')
      const block = Buffer.alloc(64 * 1024)
      try {
        for (;;) fs.writeSync(fd, block)
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err
      }
      // The last partial block too, byte by byte in shrinking pieces.
      for (let size = 32 * 1024; size >= 1; size = Math.floor(size / 2)) {
        try {
          for (;;) fs.writeSync(fd, block, 0, size)
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err
        }
      }
      fs.closeSync(fd)
    },
    free: () => fs.rmSync(filler, { force: true }),
    unmount() {
      execFileSync('umount', [mountPoint])
      fs.rmdirSync(mountPoint)
    },
  }
}

/** A folder made read-only by a real mechanism, and how to undo it. */
export interface ReadOnly {
  /** Which mechanism: file modes, the immutable attribute, or a read-only mount. */
  how: string
  undo(): void
}

/**
 * Makes `folder` refuse new files. File modes where they bind (not root); as root (which modes
 * do not stop) the immutable attribute, else a read-only tmpfs mounted over it. Null when no
 * real mechanism is allowed here.
 */
export function makeReadOnly(folder: string): ReadOnly | null {
  const probe = path.join(folder, '.probe')
  const refuses = () => {
    try {
      fs.writeFileSync(probe, 'x', { flag: 'wx' })
      fs.rmSync(probe)
      return false
    } catch {
      return true
    }
  }
  fs.chmodSync(folder, 0o555)
  if (refuses()) return { how: 'chmod 0555', undo: () => fs.chmodSync(folder, 0o700) }
  fs.chmodSync(folder, 0o700)
  if (tried('chattr', ['+i', folder]) && refuses())
    return { how: 'chattr +i', undo: () => execFileSync('chattr', ['-i', folder]) }
  if (tried('mount', ['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', folder]) && refuses())
    return { how: 'mount -o ro', undo: () => execFileSync('umount', [folder]) }
  return null
}

/**
 * The last resort where no real mechanism is allowed: the download's file layer (nodeFileOps,
 * which the export jobs use) fails for files inside `folder()` — ENOSPC on each write while
 * `active()` holds, EROFS on opening. Returns the undo. Only for the one test that needs it.
 */
export function injectFileErrors(
  folder: () => string,
  code: 'ENOSPC' | 'EROFS',
  active: () => boolean,
): () => void {
  const open = nodeFileOps.open
  const refused = () => Object.assign(new Error(`${code}: injected`), { code })
  const spy = vi.spyOn(nodeFileOps, 'open').mockImplementation(async (p, flags, mode) => {
    if (!p.startsWith(folder() + path.sep)) return open(p, flags, mode)
    if (code === 'EROFS' && active()) throw refused()
    const file = await open(p, flags, mode)
    return {
      write: async (buffer, offset, length) => {
        if (code === 'ENOSPC' && active()) throw refused()
        return file.write(buffer, offset, length)
      },
      datasync: () => file.datasync(),
      sync: () => file.sync(),
      close: () => file.close(),
    } satisfies WritableFile
  })
  return () => spy.mockRestore()
}
