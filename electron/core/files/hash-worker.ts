// The hashing thread's code, linted and type-checked like any other file. hasher.ts starts each
// thread from this function's source text (`hashWorkerSource`), so it runs the same from
// TypeScript tests, the bundled main process and a packaged app (no worker file to locate).
// The function must use nothing from outside its body: the modules it needs are handed in.
import type * as Crypto from 'node:crypto'
import type * as Fs from 'node:fs'
import type * as Fsp from 'node:fs/promises'
import type * as Os from 'node:os'
import type * as WorkerThreads from 'node:worker_threads'

/**
 * How much nicer than the process a hashing thread runs (Linux; nice values go up to 19, the
 * lowest priority): when it and main's thread both want a core, main's event loop (which answers
 * the windows) goes first and the hash waits a little.
 */
export const HASH_THREAD_NICER = 10

/** A message to the hashing thread. */
export type ToWorker =
  | { t: 'init'; sab: SharedArrayBuffer; slots: number; size: number }
  | { t: 'u'; slot: number; len: number }
  | { t: 'd' }
  | { t: 'f'; path: string; chunk: number }
  | { t: 'fo'; fd: number; syncEvery: number }
  | { t: 'fw'; bufs: ArrayBuffer[] }
  | { t: 'fe' }
  | { t: 'fa' }

/** A message from the hashing thread. */
export type FromWorker =
  { t: 'a' } | { t: 'h'; hex: string; size?: number } | { t: 'e'; code?: string; message: string }

/** The thread's main: slot hashing, whole-file hashing, and hash-and-write file jobs. */
export function hashWorkerMain(
  threads: typeof WorkerThreads,
  crypto: typeof Crypto,
  fs: typeof Fs,
  fsp: typeof Fsp,
  os: typeof Os,
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

  // A whole file: 1 MiB reads, the next read overlapping the hash of the last.
  const hashPath = async (path: string, chunk: number) => {
    const fh = await fsp.open(path, 'r')
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

  // A file job: chunks arrive in batches (transferred, not copied), are hashed here at once and
  // written in order by the thread pool at explicit offsets; every batch, the end and an abort
  // get exactly one reply, in order. Dirty data is flushed every syncEvery bytes in the background.
  interface Job {
    fd: number
    pos: number
    synced: number
    syncEvery: number
    hash: Crypto.Hash
    queue: ArrayBuffer[][]
    writing: boolean
    syncing: boolean
    error: unknown
    ending: 'digest' | 'abort' | null
  }
  let job: Job | null = null
  // Written batches are posted to a closed port: that detaches and frees their memory at once
  // instead of at the next garbage collection, so memory stays flat.
  const drain = new threads.MessageChannel().port1
  drain.close()

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
      const bufs = j.queue.shift()!
      if (j.error) {
        reply(failed(j.error))
        continue
      }
      j.writing = true
      writeAll(
        j,
        bufs.map((b) => new Uint8Array(b)),
        (err) => {
          j.writing = false
          drain.postMessage(null, bufs)
          if (err && !j.error) j.error = err
          reply(j.error ? failed(j.error) : { t: 'a' })
          flushSome(j)
          pump(j)
        },
      )
    }
    if (j.writing || j.syncing || j.queue.length || !j.ending) return
    if (job === j) job = null
    if (j.ending === 'abort') reply({ t: 'a' })
    else reply(j.error ? failed(j.error) : { t: 'h', hex: j.hash.digest('hex') })
  }

  port.on('message', (m: ToWorker) => {
    switch (m.t) {
      case 'fo':
        job = {
          fd: m.fd,
          pos: 0,
          synced: 0,
          syncEvery: m.syncEvery,
          hash: crypto.createHash('sha256'),
          queue: [],
          writing: false,
          syncing: false,
          error: null,
          ending: null,
        }
        return
      case 'fw': {
        const j = job!
        if (!j.error) for (const b of m.bufs) j.hash.update(new Uint8Array(b))
        j.queue.push(m.bufs)
        pump(j)
        return
      }
      case 'fe':
      case 'fa':
        job!.ending = m.t === 'fe' ? 'digest' : 'abort'
        pump(job!)
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
        hashPath(m.path, m.chunk).then(
          (r) => reply({ t: 'h', hex: r.hex, size: r.size }),
          (e: unknown) => reply(failed(e)),
        )
    }
  })
}

/**
 * The source a worker evaluates: `hashWorkerMain` called with the modules it needs. Transpilers
 * may wrap inner functions in a naming helper (esbuild's `__name`, as tsx does); the worker gets a
 * stand-in for it, since nothing outside the function's text exists there.
 */
export function hashWorkerSource(): string {
  return [
    'const __name = (f) => f',
    `;(${hashWorkerMain.toString()})(require('node:worker_threads'), require('node:crypto'), require('node:fs'), require('node:fs/promises'), require('node:os'), ${HASH_THREAD_NICER})`,
  ].join('\n')
}
