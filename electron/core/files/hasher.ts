import { createHash } from 'node:crypto'
import { Worker } from 'node:worker_threads'
import type { StreamHead, StreamResult, ThreadRequest } from '../http/stream'
import { hashWorkerSource, type FromWorker, type NetFailure, type ToWorker } from './hash-worker'

/** Size of one buffer slot: bytes are hashed and written in pieces of this size. */
export const SLOT_BYTES = 1024 * 1024

// The hashing thread's code (hash-worker.ts), as the source text each thread evaluates.
const WORKER_SOURCE = hashWorkerSource()

type WorkerMessage = FromWorker

/** One hashing thread with a FIFO of callers waiting for its answers. */
class HashWorker {
  readonly worker = new Worker(WORKER_SOURCE, { eval: true })
  private readonly waiting: { resolve(m: WorkerMessage): void; reject(e: Error): void }[] = []
  /** While a download runs on the thread, every message goes here instead of to `waiting`. */
  job: ((m: WorkerMessage) => void) | null = null
  broken = false

  /** True while replies are due: the thread cannot be handed to another job yet. */
  get busy(): boolean {
    return this.waiting.length > 0 || this.job !== null
  }

  constructor() {
    this.worker.on('message', (m: WorkerMessage) =>
      this.job ? this.job(m) : this.waiting.shift()?.resolve(m),
    )
    this.worker.on('error', (err) => this.fail(err))
    this.worker.on('exit', () => this.fail(new Error('the hashing thread stopped')))
  }

  private fail(err: Error): void {
    this.broken = true
    for (const w of this.waiting.splice(0)) w.reject(err)
    this.job?.({ t: 'e', message: err.message })
  }

  /** Sends a message (moving `transfer` to the thread); `answered` resolves with its reply. */
  send(
    message: ToWorker,
    answered: boolean,
    transfer?: ArrayBuffer[],
  ): Promise<WorkerMessage> | null {
    if (this.broken) return Promise.reject(new Error('the hashing thread stopped'))
    const reply = answered
      ? new Promise<WorkerMessage>((resolve, reject) => this.waiting.push({ resolve, reject }))
      : null
    this.worker.postMessage(message, transfer)
    return reply
  }
}

const idle: HashWorker[] = []
const MAX_IDLE = 2
const IDLE_MS = 30_000
let idleTimer: NodeJS.Timeout | null = null

/** Takes an idle hashing thread or starts one (about 50 ms). */
function acquire(): HashWorker {
  const w = idle.pop() ?? new HashWorker()
  w.worker.ref()
  return w
}

/** Returns a hashing thread for reuse; idle threads never keep the process alive. */
function release(w: HashWorker): void {
  if (w.broken || w.busy || idle.length >= MAX_IDLE) {
    void w.worker.terminate()
    return
  }
  w.worker.unref()
  idle.push(w)
  if (idleTimer) idleTimer.refresh()
  else {
    idleTimer = setTimeout(() => {
      idleTimer = null
      for (const x of idle.splice(0)) void x.worker.terminate()
    }, IDLE_MS)
    idleTimer.unref()
  }
}

/** Buffers shared with the hashing thread, so no byte is copied or transferred to hash it. */
export class SlotPool {
  readonly memory: SharedArrayBuffer
  readonly slots: Buffer[]

  constructor(count: number) {
    this.memory = new SharedArrayBuffer(count * SLOT_BYTES)
    this.slots = Array.from({ length: count }, (_, i) =>
      Buffer.from(this.memory, i * SLOT_BYTES, SLOT_BYTES),
    )
  }
}

/** SHA-256 over pool slots in the order they are given. */
export interface SlotHasher {
  /** Hashes the first `length` bytes of a slot; resolves when the slot may be reused. */
  update(slot: number, length: number): Promise<void>
  /** The digest as lowercase hex; the hasher is spent afterwards. */
  digest(): Promise<string>
  /** Frees the hasher (its thread goes back to the idle set). */
  close(): void
}

/** Hashes on the calling thread: for small files, where starting a thread costs more. */
export function inlineHasher(pool: SlotPool): SlotHasher {
  const hash = createHash('sha256')
  return {
    update(slot, length) {
      hash.update(pool.slots[slot].subarray(0, length))
      return Promise.resolve()
    },
    digest: () => Promise.resolve(hash.digest('hex')),
    close() {},
  }
}

/** Hashes on a worker thread reading the shared slots, so the main thread stays responsive. */
export function threadHasher(pool: SlotPool): SlotHasher {
  let w: HashWorker | null = acquire()
  w.send({ t: 'init', sab: pool.memory, slots: pool.slots.length, size: SLOT_BYTES }, false)
  const live = (): HashWorker => {
    if (!w) throw new Error('the hasher is closed')
    return w
  }
  return {
    async update(slot, length) {
      await live().send({ t: 'u', slot, len: length }, true)
    },
    async digest() {
      const m = await live().send({ t: 'd' }, true)
      if (m?.t !== 'h') throw new Error('the hashing thread answered out of turn')
      return m.hex
    },
    close() {
      if (w) release(w)
      w = null
    },
  }
}

/**
 * Hashes a whole file on a worker thread (1 MiB reads, the next read overlapping the hash): the
 * file at `path`, or the one open as `fd` (the caller keeps it open until this resolves).
 */
export async function hashPathOnThread(
  path: string,
  fd?: number,
): Promise<{ sha256: string; size: number }> {
  const w = acquire()
  try {
    const m = await w.send({ t: 'f', path, fd, chunk: SLOT_BYTES }, true)
    if (m?.t === 'e') throw Object.assign(new Error(m.message), { code: m.code })
    if (m?.t !== 'h' || m.size === undefined)
      throw new Error('the hashing thread answered out of turn')
    return { sha256: m.hex, size: m.size }
  } finally {
    release(w)
  }
}

/** Chunks are written in batches of about this size (fewer write calls). */
export const DOWNLOAD_BATCH_BYTES = 2 * SLOT_BYTES

/** Batches in flight to the disk: a download's memory stays at about 12 MiB whatever its size. */
export const DOWNLOAD_BATCHES = 6

/** What a download made on a thread needs from its caller besides the request. */
export interface ThreadDownload {
  request: ThreadRequest
  /** The open file the body is written to, from offset 0. */
  fd: number
  /** The body is refused past this many bytes (`overMax` is then the error). */
  maxBytes: number
  overMax(): Error
  /** Written data is flushed to disk every this many bytes, so the final fsync is short. */
  syncEvery: number
  /** Sees the headers before any byte is written; a throw or rejection refuses the body. */
  start(head: StreamHead): void | Promise<void>
  /** Bytes written so far and the body's first bytes (up to 8): at most every 100 ms, and once 8 bytes are in. */
  progress(bytes: number, head: Buffer): void
}

/** What a download made on a thread delivered: the answer, its digest, its first bytes (≤ 8). */
export interface ThreadDownloadResult {
  result: StreamResult
  sha256: string
  head: Buffer
}

/**
 * Makes a download on a hashing thread: the request, the reading of its body, the hash and the
 * writes all run there (the streaming code is the main thread's own, stream.ts `streamCore`), so
 * the main thread only hears the headers, the progress and the end, and its event loop stays free
 * for the windows. Settles once nothing runs on the file any more; a failure is the `start` or
 * `progress` hook's error when one threw, else the thread's (a fault made an AppFailure by the
 * request's `fault`, `overMax()`, or a file error with its errno code).
 */
export function downloadOnThread(d: ThreadDownload): Promise<ThreadDownloadResult> {
  const { signal } = d.request
  if (signal?.aborted)
    return Promise.reject(d.request.fault({ kind: 'transport', reason: 'cancelled' }))
  const w = acquire()
  return new Promise<ThreadDownloadResult>((resolve, reject) => {
    let failure: unknown = null
    /** Set once the thread has ended this download: it may then be running another one. */
    let over = false
    const post = (m: ToWorker) => {
      if (!over && !w.broken) w.worker.postMessage(m)
    }
    const cancel = () => post({ t: 'nc' })
    signal?.addEventListener('abort', cancel, { once: true })
    const stopWith = (err: unknown) => {
      failure ??= err
      cancel()
    }
    const settled = () => {
      over = true
      signal?.removeEventListener('abort', cancel)
      w.job = null
      release(w)
    }
    w.job = (m) => {
      switch (m.t) {
        case 'nh':
          // A late answer (the download was cancelled meanwhile) is not sent: see `post`.
          void (async () => d.start(m.head))().then(
            () => post({ t: 'ng' }),
            (err: unknown) => {
              failure ??= err
              post({ t: 'nx' })
            },
          )
          return
        case 'np':
          try {
            d.progress(m.bytes, Buffer.from(m.head))
          } catch (err) {
            stopWith(err)
          }
          return
        case 'nd':
          settled()
          if (failure) return reject(failure)
          return resolve({ result: m.result, sha256: m.hex, head: Buffer.from(m.head) })
        case 'nf':
          settled()
          return reject(failure ?? netError(m, d))
        case 'e':
          settled()
          return reject(failure ?? Object.assign(new Error(m.message), { code: m.code }))
        default:
          settled()
          return reject(failure ?? new Error('the hashing thread answered out of turn'))
      }
    }
    const { request } = d
    if (w.broken) return w.job?.({ t: 'e', message: 'the hashing thread stopped' })
    w.worker.postMessage({
      t: 'n',
      url: request.url,
      headers: request.headers,
      ...(request.proxy ? { proxy: request.proxy } : {}),
      ...(request.ca ? { ca: request.ca } : {}),
      deadlineMs: request.deadlineMs,
      idleMs: request.idleMs,
      fd: d.fd,
      maxBytes: d.maxBytes,
      syncEvery: d.syncEvery,
      batchBytes: DOWNLOAD_BATCH_BYTES,
      batches: DOWNLOAD_BATCHES,
    } satisfies ToWorker)
  })
}

/** The error of a thread's failed download. */
function netError(m: NetFailure, d: ThreadDownload): Error {
  if (m.fault) return d.request.fault(m.fault)
  if (m.stop === 'max') return d.overMax()
  return Object.assign(new Error(m.message ?? 'the download thread stopped'), { code: m.code })
}
