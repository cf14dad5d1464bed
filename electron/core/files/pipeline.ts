import type { WritableFile } from './fs-ops'
import { inlineHasher, SLOT_BYTES, SlotPool, threadHasher, type SlotHasher } from './hasher'

/** Buffer slots in flight per download: memory stays at this many MiB whatever the size. */
export const PIPELINE_SLOTS = 8

/** Bodies up to this size are hashed on the main thread (a worker costs ~50 ms to start). */
export const INLINE_BODY_LIMIT = 8 * SLOT_BYTES

/** Data is flushed to disk in the background every this many bytes, so the last fsync is short. */
export const DATASYNC_EVERY = 64 * SLOT_BYTES

/** What takes a body's chunks, hashes and writes them; see `HashingWriter`. */
export interface BodyWriter {
  /** The first error of a write, a flush or the hasher; every later call throws it. */
  readonly failure: unknown
  /** Bytes taken so far. */
  readonly bytes: number
  /** The first bytes of the body (up to 8), to check its signature. */
  readonly head: Buffer
  /**
   * Takes one chunk (the writer may take over its memory: the caller must not use it again);
   * returns a promise when the caller must wait before the next one.
   */
  write(chunk: Buffer): void | Promise<void>
  /** Waits for every hash and write, fsyncs; returns the digest as lowercase hex. */
  end(): Promise<string>
  /** Stops: resolves once nothing runs on the file any more. */
  abort(reason: unknown): Promise<void>
}

/** The first 8 bytes of a body, from the bytes seen so far and the next chunk. */
function headOf(head: Buffer, chunk: Buffer): Buffer {
  return head.length < 8 ? Buffer.concat([head, chunk.subarray(0, 8 - head.length)]) : head
}

/**
 * The writer of a body passed through a sink's `write` on the main thread (a file without a
 * descriptor, or a client that does not run downloads on a thread; a real file's download runs
 * whole on a thread instead: hasher.ts `downloadOnThread`). Copies incoming chunks into 1 MiB
 * slots; each full slot is hashed (on a worker thread for large bodies) and written to the file at
 * the same time, in order. `write` returns a promise only when
 * every slot is busy, which holds the connection (backpressure), so memory stays flat.
 */
export class HashingWriter implements BodyWriter {
  failure: unknown = null
  bytes = 0
  head: Buffer = Buffer.alloc(0)

  private readonly pool: SlotPool
  private readonly hasher: SlotHasher
  private readonly free: number[]
  private current: number | null = null
  private fill = 0
  private waiters: (() => void)[] = []
  private writing: Promise<void> = Promise.resolve()
  private written = 0
  private syncedAt = 0
  private flushing: Promise<void> | null = null

  constructor(
    private readonly file: WritableFile,
    contentLength: number | null,
    private readonly onFailure: () => void,
  ) {
    const inline = contentLength !== null && contentLength <= INLINE_BODY_LIMIT
    const slots = inline ? Math.min(2, Math.ceil(contentLength / SLOT_BYTES) || 1) : PIPELINE_SLOTS
    this.pool = new SlotPool(slots)
    this.free = Array.from({ length: slots }, (_, i) => slots - 1 - i)
    this.hasher = inline ? inlineHasher(this.pool) : threadHasher(this.pool)
  }

  /** Takes one chunk; returns a promise when the caller must wait before the next one. */
  write(chunk: Buffer): void | Promise<void> {
    if (this.failure) throw this.failure
    if (this.head.length < 8) this.head = headOf(this.head, chunk)
    let offset = 0
    while (offset < chunk.length) {
      if (this.current === null) {
        const slot = this.free.pop()
        if (slot === undefined) {
          const rest = chunk.subarray(offset)
          return new Promise<void>((resolve) => this.waiters.push(resolve)).then(() =>
            this.write(rest),
          )
        }
        this.current = slot
        this.fill = 0
      }
      const n = chunk.copy(this.pool.slots[this.current], this.fill, offset)
      this.fill += n
      offset += n
      this.bytes += n
      if (this.fill === SLOT_BYTES) this.submit()
    }
  }

  /** Flushes the last slot, waits for every hash and write, fsyncs; returns the digest. */
  async end(): Promise<string> {
    if (this.failure) throw this.failure
    if (this.current !== null && this.fill > 0) this.submit()
    while (this.free.length < this.pool.slots.length && !this.failure)
      await new Promise<void>((resolve) => this.waiters.push(resolve))
    if (this.failure) throw this.failure
    const sha256 = await this.hasher.digest()
    await this.flushing
    if (this.failure) throw this.failure
    await this.file.sync()
    this.hasher.close()
    return sha256
  }

  /** Stops: frees the hasher and waits until no write is still running on the file. */
  async abort(reason: unknown): Promise<void> {
    this.failure ??= reason
    this.wake()
    this.hasher.close()
    await this.writing.catch(() => undefined)
    await this.flushing?.catch(() => undefined)
  }

  private submit(): void {
    const slot = this.current as number
    const length = this.fill
    this.current = null
    this.fill = 0
    const hashed = this.hasher.update(slot, length)
    this.writing = this.writing.then(() => this.writeSlot(slot, length))
    Promise.all([hashed, this.writing]).then(
      () => {
        this.free.push(slot)
        this.wake()
      },
      (err: unknown) => this.fail(err),
    )
  }

  private async writeSlot(slot: number, length: number): Promise<void> {
    if (this.failure) throw this.failure
    const buffer = this.pool.slots[slot]
    for (let offset = 0; offset < length;) {
      const { bytesWritten } = await this.file.write(buffer, offset, length - offset)
      offset += bytesWritten
    }
    this.written += length
    if (this.written - this.syncedAt >= DATASYNC_EVERY && !this.flushing) {
      this.syncedAt = this.written
      this.flushing = this.file.datasync().then(
        () => void (this.flushing = null),
        (err: unknown) => this.fail(err),
      )
    }
  }

  private fail(err: unknown): void {
    if (this.failure) return
    this.failure = err
    this.wake()
    this.onFailure()
  }

  private wake(): void {
    const waiters = this.waiters
    this.waiters = []
    for (const resolve of waiters) resolve()
  }
}
