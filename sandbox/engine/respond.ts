import { createHash } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import type { SandboxFile } from '../types'
import { DRIP_CHUNK, type Faults } from './faults'

/** Download faults that apply to one answer. */
export type AnswerFaults = Pick<Faults, 'dropMidBody' | 'corruptDownloads' | 'slowDripMs'>

const NONE: AnswerFaults = { dropMidBody: false, corruptDownloads: false, slowDripMs: 0 }

/** A GET's request validator: the If-None-Match header (absent → undefined). */
export interface Conditional {
  ifNoneMatch: string | undefined
}

/** Strong ETag of exact answer bytes: a quoted sha256 prefix (27 base64url chars, 162 bits). */
export function etagOf(payload: Buffer): string {
  return `"${createHash('sha256').update(payload).digest('base64url').slice(0, 27)}"`
}

/**
 * True when an If-None-Match value matches `etag`: `*`, or any listed tag compared weakly
 * (RFC 9110 §13.1.2: `W/"x"` and `"x"` are equal; a malformed list matches nothing).
 */
export function noneMatchHit(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false
  if (header.trim() === '*') return true
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag)
  const wanted = opaque(etag)
  for (const m of header.matchAll(/(?:W\/)?"[^"]*"/g)) {
    if (opaque(m[0]) === wanted) return true
  }
  return false
}

/**
 * Sends a JSON answer (status 204 or an undefined body → no body); returns the status sent.
 * With `conditional` (a GET's answer) a 200 carries the ETag of its bytes, and is a bodiless 304
 * when the request's If-None-Match already names it.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  faults: AnswerFaults = NONE,
  conditional?: Conditional,
): number {
  const payload =
    body === undefined || status === 204 ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body))
  if (conditional && status === 200 && payload.length > 0) {
    const etag = etagOf(payload)
    if (noneMatchHit(conditional.ifNoneMatch, etag)) {
      res.writeHead(304, { ...headers, ETag: etag })
      res.end()
      return 304
    }
    headers = { ...headers, ETag: etag }
  }
  res.writeHead(status, {
    ...headers,
    ...(payload.length > 0 ? { 'Content-Type': 'application/json; charset=utf-8' } : {}),
    'Content-Length': String(payload.length),
  })
  if (faults.dropMidBody && payload.length > 1) {
    res.write(payload.subarray(0, Math.floor(payload.length / 2)), () => res.socket?.destroy())
    return status
  }
  res.end(payload)
  return status
}

/** A filename safe inside a quoted Content-Disposition value (printable ASCII, no quotes). */
export function safeFilename(name: string): string {
  const cleaned = name.replace(/[^\x20-\x7e]|["\\/]/g, '_').trim()
  return cleaned || 'download'
}

/** Flips one byte in every 1 KiB block (the first byte of the file always); `offset` is the chunk's. */
/**
 * Flips the last byte of every KiB and the file's last byte, sparing the first 1023 bytes: a
 * corrupted PDF still starts with `%PDF-`, so clients meet a hash mismatch, not a bad header.
 */
function corrupt(chunk: Buffer, offset: number, size: number): Buffer {
  const out = Buffer.from(chunk)
  for (let i = (1023 - (offset % 1024) + 1024) % 1024; i < out.length; i += 1024) out[i] ^= 0xff
  const last = size - 1 - offset
  if (size > 16 && last >= 0 && last < out.length && (size - 1) % 1024 !== 1023) out[last] ^= 0xff
  return out
}

function* pieces(chunk: Buffer, size: number): Generator<Buffer> {
  for (let i = 0; i < chunk.length; i += size) yield chunk.subarray(i, i + size)
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** Writes one chunk, waiting for 'drain' when the socket buffer is full; false when the peer is gone. */
async function write(res: ServerResponse, chunk: Buffer): Promise<boolean> {
  if (res.destroyed) return false
  if (res.write(chunk)) return true
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
  return !res.destroyed
}

/**
 * Sends a file answer with Content-Type, Content-Length and an attachment Content-Disposition,
 * streaming with backpressure; applies the download faults (corrupt bytes, slow drip, drop the
 * connection after half the body).
 */
export async function sendFile(
  res: ServerResponse,
  status: number,
  file: SandboxFile,
  headers: Record<string, string> = {},
  faults: AnswerFaults = NONE,
): Promise<void> {
  const size = Buffer.isBuffer(file.body) ? file.body.length : file.size
  res.writeHead(status, {
    ...headers,
    'Content-Type': file.contentType,
    'Content-Length': String(size),
    'Content-Disposition': `attachment; filename="${safeFilename(file.filename)}"`,
  })
  const source: Readable = Buffer.isBuffer(file.body) ? Readable.from([file.body]) : file.body()
  const limit = faults.dropMidBody && size > 1 ? Math.floor(size / 2) : Infinity
  let offset = 0
  try {
    for await (const raw of source) {
      let chunk: Buffer = Buffer.isBuffer(raw) ? raw : Buffer.from(raw as Uint8Array)
      if (faults.corruptDownloads) chunk = corrupt(chunk, offset, size)
      const parts = faults.slowDripMs > 0 ? pieces(chunk, DRIP_CHUNK) : [chunk]
      for (let part of parts) {
        if (faults.slowDripMs > 0) await sleep(faults.slowDripMs)
        if (offset + part.length >= limit) {
          part = part.subarray(0, limit - offset)
          res.write(part, () => res.socket?.destroy())
          source.destroy()
          return
        }
        offset += part.length
        if (!(await write(res, part))) {
          source.destroy()
          return
        }
      }
    }
    res.end()
  } catch {
    // The file source failed mid-way: the peer must see a broken connection, not a short file.
    res.socket?.destroy()
  }
}
