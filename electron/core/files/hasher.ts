import { createHash } from 'node:crypto'
import { Worker } from 'node:worker_threads'
import { hashWorkerSource, type FromWorker, type ToWorker } from './hash-worker'

/** Size of one buffer slot: bytes are hashed and written in pieces of this size. */
export const SLOT_BYTES = 1024 * 1024

// The hashing thread's code (hash-worker.ts), as the source text each thread evaluates.
const WORKER_SOURCE = hashWorkerSource()

type WorkerMessage = FromWorker

/** One hashing thread with a FIFO of callers waiting for its answers. */
class HashWorker {
  readonly worker = new Worker(WORKER_SOURCE, { eval: true })
  private readonly waiting: { resolve(m: WorkerMessage): void; reject(e: Error): void }[] = []
  broken = false

  /** True while replies are due: the thread cannot be handed to another job yet. */
  get busy(): boolean {
    return this.waiting.length > 0
  }

  constructor() {
    this.worker.on('message', (m: WorkerMessage) => this.waiting.shift()?.resolve(m))
    this.worker.on('error', (err) => this.fail(err))
    this.worker.on('exit', () => this.fail(new Error('the hashing thread stopped')))
  }

  private fail(err: Error): void {
    this.broken = true
    for (const w of this.waiting.splice(0)) w.reject(err)
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

/** Hashes a whole file on a worker thread (1 MiB reads, the next read overlapping the hash). */
export async function hashPathOnThread(path: string): Promise<{ sha256: string; size: number }> {
  const w = acquire()
  try {
    const m = await w.send({ t: 'f', path, chunk: SLOT_BYTES }, true)
    if (m?.t === 'e') throw Object.assign(new Error(m.message), { code: m.code })
    if (m?.t !== 'h' || m.size === undefined)
      throw new Error('the hashing thread answered out of turn')
    return { sha256: m.hex, size: m.size }
  } finally {
    release(w)
  }
}

/** The error a hashing thread reported, with its errno code (ENOSPC …) kept for mapping. */
function threadError(m: WorkerMessage | null): Error {
  if (m?.t === 'e') return Object.assign(new Error(m.message), { code: m.code })
  return new Error('the hashing thread answered out of turn')
}

/**
 * Hashes and writes a file on a worker thread: batches of received chunks are moved to it (no
 * copy), hashed there and written in order at increasing offsets by the thread pool, with the
 * written data flushed to disk every `syncEvery` bytes so the final fsync is short.
 */
export class ThreadFileWriter {
  private w: HashWorker | null

  constructor(fd: number, syncEvery: number) {
    const w = acquire()
    w.send({ t: 'fo', fd, syncEvery }, false)
    this.w = w
  }

  private live(): HashWorker {
    if (!this.w) throw new Error('the file writer is closed')
    return this.w
  }

  /** Moves `buffers` to the thread (they are detached here); resolves once hashed and written. */
  async write(buffers: ArrayBuffer[]): Promise<void> {
    const m = await this.live().send({ t: 'fw', bufs: buffers }, true, buffers)
    if (m?.t !== 'a') throw threadError(m)
  }

  /** Waits for every write; resolves with the digest as lowercase hex. The writer is spent. */
  async finish(): Promise<string> {
    try {
      const m = await this.live().send({ t: 'fe' }, true)
      if (m?.t !== 'h') throw threadError(m)
      return m.hex
    } finally {
      this.close()
    }
  }

  /** Drops the job once no write or flush is still running on the file. */
  async abort(): Promise<void> {
    if (!this.w) return
    try {
      await this.w.send({ t: 'fa' }, true)
    } catch {
      // The thread is gone: nothing of it runs on the file any more.
    } finally {
      this.close()
    }
  }

  private close(): void {
    if (this.w) release(this.w)
    this.w = null
  }
}
