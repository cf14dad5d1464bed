// The hashing thread's code, linted and type-checked like any other file. hasher.ts starts each
// thread from this function's source text (`hashWorkerSource`), so it runs the same from
// TypeScript tests, the bundled main process and a packaged app (no worker file to locate).
// The function must use nothing from outside its body: the modules it needs are handed in.
import type * as Crypto from 'node:crypto'
import type * as Fs from 'node:fs'
import type * as Fsp from 'node:fs/promises'
import type * as Http from 'node:http'
import type * as Https from 'node:https'
import type * as Os from 'node:os'
import type * as WorkerThreads from 'node:worker_threads'
import { takeOverBody } from '../http/raw-body'
import {
  streamCore,
  type StreamDeps,
  type StreamFault,
  type StreamHead,
  type StreamResult,
  type StreamSink,
  type ThreadRequest,
} from '../http/stream'

/**
 * How much nicer than the process a hashing thread runs (Linux; nice values go up to 19, the
 * lowest priority): when it and main's thread both want a core, main's event loop (which answers
 * the windows) goes first and the hash waits a little.
 */
export const HASH_THREAD_NICER = 10

/** A download the thread makes itself: the request, and the file its body goes to. */
export interface NetJob extends Omit<ThreadRequest, 'signal' | 'fault'> {
  t: 'n'
  fd: number
  /** The body is refused past this many bytes, declared or not. */
  maxBytes: number
  /** Written data is flushed to disk every this many bytes, so the final fsync is short. */
  syncEvery: number
  /** Chunks are written in batches of about this size, at most `batches` of them in flight. */
  batchBytes: number
  batches: number
}

/** A message to the hashing thread. */
export type ToWorker =
  | { t: 'init'; sab: SharedArrayBuffer; slots: number; size: number }
  | { t: 'u'; slot: number; len: number }
  | { t: 'd' }
  // A whole file: by its path, or by a descriptor main opened (and keeps open until the answer).
  | { t: 'f'; path: string; fd?: number; chunk: number }
  | NetJob
  // The download's headers are accepted (go) or refused (stop); cancel the download.
  | { t: 'ng' }
  | { t: 'nx' }
  | { t: 'nc' }

/** Why a download thread's transfer ended early: a fault, a limit, or a file error (errno code). */
export interface NetFailure {
  t: 'nf'
  fault?: StreamFault
  /** 'max': over the job's maxBytes; 'refused': main refused the headers. */
  stop?: 'max' | 'refused'
  code?: string
  message?: string
}

/** A message from the hashing thread. */
export type FromWorker =
  | { t: 'a' }
  | { t: 'h'; hex: string; size?: number }
  | { t: 'e'; code?: string; message: string }
  // A download's headers, its progress (at most every 100 ms, and first once 8 bytes are in), its end.
  | { t: 'nh'; head: StreamHead }
  | { t: 'np'; bytes: number; head: Uint8Array }
  | { t: 'nd'; result: StreamResult; hex: string; head: Uint8Array }
  | NetFailure

/** The thread's main: slot hashing, whole-file hashing, and downloads made, hashed and written here. */
export function hashWorkerMain(
  threads: typeof WorkerThreads,
  crypto: typeof Crypto,
  fs: typeof Fs,
  fsp: typeof Fsp,
  os: typeof Os,
  http: typeof Http,
  https: typeof Https,
  stream: typeof streamCore,
  takeOver: typeof takeOverBody,
  nicer: number,
): void {
  const port = threads.parentPort
  if (!port) throw new Error('the hashing code runs on a worker thread only')
  // This thread only (its id from /proc/thread-self, "<pid>/task/<tid>"); where there is no such
  // file (not Linux) or the change is refused, the thread runs at the process's priority.
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop())
    if (Number.isInteger(tid) && tid > 0)
      os.setPriority(tid, Math.min(19, os.getPriority(tid) + nicer))
  } catch {
    // Left at the process's priority.
  }
  const reply = (m: FromWorker) => port.postMessage(m)
  const failed = (e: unknown): FromWorker => {
    const err = e as { code?: string; message?: string } | null
    return { t: 'e', code: err?.code, message: String(err?.message) }
  }

  // Slot hashing: the caller's bytes sit in shared memory, read here without a copy.
  let views: Uint8Array[] = []
  let hash: Crypto.Hash | null = null

  // A whole file: 1 MiB reads, the next read overlapping the hash of the last. A descriptor main
  // opened is read as it is (the process shares its descriptors with this thread) and left open.
  const readAt = (fd: number, buf: Buffer, chunk: number, at: number) =>
    new Promise<{ bytesRead: number }>((resolve, reject) =>
      fs.read(fd, buf, 0, chunk, at, (err, bytesRead) =>
        err ? reject(err) : resolve({ bytesRead }),
      ),
    )
  const hashPath = async (path: string, chunk: number, fd?: number) => {
    const fh =
      fd === undefined
        ? await fsp.open(path, 'r')
        : {
            read: (buf: Buffer, _offset: number, length: number, at: number) =>
              readAt(fd, buf, length, at),
            close: async () => undefined,
          }
    try {
      const h = crypto.createHash('sha256')
      const bufs = [Buffer.allocUnsafe(chunk), Buffer.allocUnsafe(chunk)]
      let i = 0
      let size = 0
      let pending = fh.read(bufs[0], 0, chunk, 0)
      for (;;) {
        const { bytesRead } = await pending
        if (bytesRead === 0) break
        const current = bufs[i]
        i ^= 1
        pending = fh.read(bufs[i], 0, chunk, size + bytesRead)
        h.update(current.subarray(0, bytesRead))
        size += bytesRead
      }
      return { hex: h.digest('hex'), size }
    } finally {
      await fh.close()
    }
  }

  // A file job: the body's chunks are hashed here as they arrive and written in batches, in order,
  // by the thread pool at explicit offsets; dirty data is flushed every syncEvery bytes in the
  // background. `ending` is called once no write or flush runs on the file any more.
  interface Batch {
    parts: Uint8Array[]
    done(): void
  }
  interface Job {
    fd: number
    pos: number
    synced: number
    syncEvery: number
    hash: Crypto.Hash
    queue: Batch[]
    writing: boolean
    syncing: boolean
    error: unknown
    aborted: boolean
    ending: ((error: unknown, hex: string | null) => void) | null
  }
  // Written chunks that own their memory are posted to a closed port: that detaches and frees it
  // at once instead of at the next garbage collection, so memory stays flat.
  const drain = new threads.MessageChannel().port1
  drain.close()
  const free = (parts: Uint8Array[]): void => {
    const owned: ArrayBuffer[] = []
    for (const p of parts)
      if (
        p.byteOffset === 0 &&
        p.buffer instanceof ArrayBuffer &&
        p.buffer.byteLength === p.byteLength
      )
        owned.push(p.buffer)
    if (owned.length) drain.postMessage(null, owned)
  }

  const writeAll = (j: Job, parts: Uint8Array[], done: (err: unknown) => void): void => {
    fs.writev(j.fd, parts, j.pos, (err, n) => {
      if (err) return done(err)
      j.pos += n
      let rest = n
      while (parts.length && rest >= parts[0].byteLength) rest -= parts.shift()!.byteLength
      if (!parts.length) return done(null)
      if (n === 0) return done(Object.assign(new Error('the disk took no bytes'), { code: 'EIO' }))
      parts[0] = parts[0].subarray(rest)
      writeAll(j, parts, done)
    })
  }
  const flushSome = (j: Job): void => {
    if (j.syncing || j.error || j.pos - j.synced < j.syncEvery) return
    j.synced = j.pos
    j.syncing = true
    fs.fdatasync(j.fd, (err) => {
      j.syncing = false
      if (err && !j.error) j.error = err
      pump(j)
    })
  }
  const pump = (j: Job): void => {
    while (!j.writing && j.queue.length) {
      const batch = j.queue.shift()!
      if (j.error || j.aborted) {
        batch.done()
        continue
      }
      j.writing = true
      writeAll(j, batch.parts.slice(), (err) => {
        j.writing = false
        free(batch.parts)
        if (err && !j.error) j.error = err
        batch.done()
        flushSome(j)
        pump(j)
      })
    }
    if (j.writing || j.syncing || j.queue.length || !j.ending) return
    const end = j.ending
    j.ending = null
    end(j.error, j.error || j.aborted ? null : j.hash.digest('hex'))
  }

  // A download made here: the request (streamCore, the main thread's own code), the body hashed
  // and written here; main hears the headers (and says whether to go on), progress and the end.
  /** The download running here: its cancel, and main's answer to its headers once asked. */
  interface Net {
    controller: AbortController
    answer: ((go: boolean) => void) | null
  }
  let net: Net | null = null
  const failedNet = (e: unknown): NetFailure => {
    const err = e as { fault?: StreamFault; stop?: 'max' | 'refused'; code?: string } | null
    if (err?.fault) return { t: 'nf', fault: err.fault }
    if (err?.stop) return { t: 'nf', stop: err.stop }
    return { t: 'nf', code: err?.code, message: String((e as Error | null)?.message) }
  }
  const startNet = (m: NetJob): void => {
    const j: Job = {
      fd: m.fd,
      pos: 0,
      synced: 0,
      syncEvery: m.syncEvery,
      hash: crypto.createHash('sha256'),
      queue: [],
      writing: false,
      syncing: false,
      error: null,
      aborted: false,
      ending: null,
    }
    const current: Net = { controller: new AbortController(), answer: null }
    net = current
    const stop = (what: 'max' | 'refused') => Object.assign(new Error(what), { stop: what })
    const deps: StreamDeps = {
      http,
      https,
      takeOverBody: takeOver,
      fault: (f) => Object.assign(new Error(f.kind), { fault: f }),
      fromSink: (e) => (e instanceof Error ? e : new Error(String(e))),
    }
    const httpAgent = new http.Agent({ keepAlive: false })
    const httpsAgent = new https.Agent({
      keepAlive: false,
      rejectUnauthorized: true,
      ...(m.ca ? { ca: m.ca } : {}),
    })
    let declared: number | null = null
    let bytes = 0
    let head = Buffer.alloc(0)
    let shown = 0
    let batch: Uint8Array[] = []
    let batchBytes = 0
    let inFlight = 0
    let wake: (() => void) | null = null
    const send = (): void => {
      if (!batch.length) return
      const parts = batch
      batch = []
      batchBytes = 0
      inFlight++
      j.queue.push({
        parts,
        done: () => {
          inFlight--
          const w = wake
          wake = null
          w?.()
        },
      })
      pump(j)
    }
    const sink: StreamSink = {
      start(h) {
        declared = h.contentLength
        reply({ t: 'nh', head: h })
        return new Promise<void>((resolve, reject) => {
          current.answer = (go) => (go ? resolve() : reject(stop('refused')))
        })
      },
      write(chunk) {
        if (j.error) throw j.error
        const n = chunk.length
        if (declared !== null && bytes + n > declared)
          throw deps.fault({
            kind: 'integrity',
            message: 'The service sent more bytes than it announced; the file cannot be trusted.',
          })
        if (bytes + n > m.maxBytes) throw stop('max')
        bytes += n
        if (head.length < 8) head = Buffer.concat([head, chunk.subarray(0, 8 - head.length)])
        j.hash.update(chunk)
        batch.push(chunk)
        batchBytes += n
        if (batchBytes >= m.batchBytes) send()
        const now = Date.now()
        if (shown === 0 ? head.length >= 8 : now - shown >= 100) {
          shown = now
          reply({ t: 'np', bytes, head })
        }
        if (inFlight >= m.batches) return new Promise<void>((resolve) => (wake = resolve))
      },
    }
    const finish = (message: FromWorker): void => {
      httpAgent.destroy()
      httpsAgent.destroy()
      if (net === current) net = null
      reply(message)
    }
    const target = {
      url: new URL(m.url),
      headers: m.headers,
      httpAgent,
      httpsAgent,
      proxy: m.proxy,
      deadlineMs: m.deadlineMs,
      idleMs: m.idleMs,
    }
    stream(deps, target, sink, { signal: current.controller.signal }).then(
      (result) => {
        send()
        j.ending = (err, hex) =>
          finish(err ? failedNet(err) : { t: 'nd', result, hex: hex as string, head })
        pump(j)
      },
      (err: unknown) => {
        batch = []
        j.aborted = true
        j.ending = () => finish(failedNet(err))
        pump(j)
      },
    )
  }

  port.on('message', (m: ToWorker) => {
    switch (m.t) {
      case 'n':
        startNet(m)
        return
      case 'ng':
      case 'nx':
        net?.answer?.(m.t === 'ng')
        return
      case 'nc':
        net?.controller.abort()
        return
      case 'init':
        views = []
        for (let i = 0; i < m.slots; i++) views.push(new Uint8Array(m.sab, i * m.size, m.size))
        hash = crypto.createHash('sha256')
        return
      case 'u':
        hash!.update(views[m.slot].subarray(0, m.len))
        reply({ t: 'a' })
        return
      case 'd':
        reply({ t: 'h', hex: hash!.digest('hex') })
        hash = null
        return
      case 'f':
        hashPath(m.path, m.chunk, m.fd).then(
          (r) => reply({ t: 'h', hex: r.hex, size: r.size }),
          (e: unknown) => reply(failed(e)),
        )
    }
  })
}

/**
 * The source a worker evaluates: `hashWorkerMain` called with the modules it needs, and the
 * streaming code (stream.ts `streamCore`, raw-body.ts `takeOverBody`) from its own text. Transpilers
 * may wrap inner functions in a naming helper (esbuild's `__name`, as tsx does); the worker gets a
 * stand-in for it, since nothing outside the function's text exists there.
 */
export function hashWorkerSource(): string {
  return [
    'const __name = (f) => f',
    `;(${hashWorkerMain.toString()})(require('node:worker_threads'), require('node:crypto'), require('node:fs'), require('node:fs/promises'), require('node:os'), require('node:http'), require('node:https'), ${streamCore.toString()}, ${takeOverBody.toString()}, ${HASH_THREAD_NICER})`,
  ].join('\n')
}
