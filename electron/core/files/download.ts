import fsp from 'node:fs/promises'
import path from 'node:path'
import { AppFailure } from '@contract/errors'
import type { TransferProgress } from '@contract/files'
import type { AccountClient } from '../http/client'
import type { StreamHead, ThreadRequest } from '../http/stream'
import { fileFailure, nodeFileOps, removeQuietly, type FileOps, type WritableFile } from './fs-ops'
import { partialName, safeFileName } from './names'
import { downloadOnThread } from './hasher'
import { DATASYNC_EVERY, HashingWriter, type BodyWriter } from './pipeline'
import { placeWithoutOverwrite } from './place'
import { ProgressMeter } from './progress'

/** One download of a generated document into a folder. */
export interface DownloadRequest {
  /** The account's client from electron/core/http/client.ts. */
  client: AccountClient
  /**
   * A report's download, or `saq.show` with query `SAQ_PDF_QUERY` ({format: 'pdf'}): the one JSON
   * operation that answers a file (see `answersFile` in the SAQ catalog).
   */
  opId: 'reports.download' | 'advanced_reports.download' | 'saq.show'
  input: { path: { id: string }; query: { format: 'pdf' | 'csv' } }
  /** Destination folder (must exist; the file lands directly inside it). */
  folder: string
  /** From documentFileName(); never from Content-Disposition (made safe again here). */
  fileName: string
  format: 'pdf' | 'csv'
  signal?: AbortSignal
  /** Throttled (at most 10 a second, plus a final report). */
  onProgress?: (p: TransferProgress) => void
  /** Overrides the client's download deadline (default 10 min). */
  deadlineMs?: number
  /** Overrides the client's idle timeout (default 15 s). */
  idleMs?: number
  /** The file system layer (tests inject failures); default the real one. */
  fileOps?: FileOps
  /** The hard maximum of one download, declared or not (default DEFAULT_MAX_DOWNLOAD_BYTES). */
  maxBytes?: number
  /** Free space of a folder (tests inject a full disk); default fs.statfs. */
  statfs?: (folder: string) => Promise<FreeSpace>
}

/** What the free-space check reads of fs.statfs. */
export interface FreeSpace {
  /** Blocks available to this user. */
  bavail: number
  /** Bytes per block. */
  bsize: number
}

/** The default hard maximum of one download: 4 GiB. */
export const DEFAULT_MAX_DOWNLOAD_BYTES = 4 * 1024 ** 3

/** Room kept free beside a download of a declared size: 64 MiB. */
export const FREE_SPACE_MARGIN = 64 * 1024 ** 2

/**
 * A download refused for its size (over the declared length, over the maximum, or not fitting
 * on the disk): no file was written, so the ledger records nothing.
 */
export class DownloadRefused extends AppFailure {}

/** "1.5 GiB", "12.0 MiB", "900 bytes" — sizes in messages. */
export function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GiB`
  if (n >= 1024 ** 2) return `${(n / 1024 ** 2).toFixed(1)} MiB`
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`
  return `${n} bytes`
}

function tooLarge(message: string): DownloadRefused {
  return new DownloadRefused({ code: 'TOO_LARGE', message })
}

function overDeclared(declared: number): DownloadRefused {
  return new DownloadRefused({
    code: 'INTEGRITY_FAILED',
    message: `The service sent more bytes than it announced (${formatBytes(declared)}); the download was stopped and nothing was kept. Retry; if it happens again, the service is misbehaving.`,
  })
}

function overLimit(maxBytes: number, declared: number | null): DownloadRefused {
  const size = declared !== null ? `(${formatBytes(declared)}) is larger` : `is larger`
  return tooLarge(
    `The file ${size} than the download limit of ${formatBytes(maxBytes)}; the download was stopped and nothing was kept. Raise “Largest download” in Settings to download it.`,
  )
}

async function checkFreeSpace(
  statfs: (folder: string) => Promise<FreeSpace>,
  folder: string,
  declared: number,
): Promise<void> {
  let free: number
  try {
    const s = await statfs(folder)
    free = s.bavail * s.bsize
  } catch {
    return // Free space unknown (some network shares): the write itself reports a full disk.
  }
  if (declared + FREE_SPACE_MARGIN > free)
    throw new DownloadRefused({
      code: 'DISK_FULL',
      message: `Not enough free space in ${folder}: the file is ${formatBytes(declared)} and only ${formatBytes(free)} is free (ScanDesk keeps ${formatBytes(FREE_SPACE_MARGIN)} spare). Free some space or choose another folder, then retry.`,
    })
}

/** A downloaded file: where it is, how big, and the SHA-256 of its bytes as lowercase hex. */
export interface DownloadResult {
  path: string
  size: number
  sha256: string
}

const PDF_MAGIC = '%PDF-'

function integrity(message: string): AppFailure {
  return new AppFailure({ code: 'INTEGRITY_FAILED', message })
}

function cancelled(): AppFailure {
  return new AppFailure({ code: 'CANCELLED', message: 'The download was cancelled.' })
}

/** The signature check of a format, on the first bytes; an error message or null. */
function badSignature(format: 'pdf' | 'csv', head: Buffer, size: number): string | null {
  if (size === 0) return 'The service sent an empty file; it was not saved.'
  if (format === 'pdf' && head.subarray(0, PDF_MAGIC.length).toString('latin1') !== PDF_MAGIC)
    return 'The service sent a file that is not a PDF (it does not start with "%PDF-"); it was not saved.'
  return null
}

async function checkFolder(ops: FileOps, folder: string): Promise<void> {
  try {
    const stat = await ops.stat(folder)
    if (!stat.isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' })
  } catch (err) {
    throw fileFailure(err, 'save the file', folder)
  }
}

/**
 * Streams a document to a temp file in `folder` (`.<name>.<random>.partial`, mode 0600) hashing
 * in the same pass, checks the byte count against Content-Length and the format's signature,
 * fsyncs, then moves it into place without overwriting (`name (2).pdf` …) and fsyncs the
 * folder. Leaves no partial file on failure or cancel. Refuses (DownloadRefused) a declared size
 * over `maxBytes` or not fitting in the folder's free space plus a margin, and stops at the first
 * byte past the declared length or past `maxBytes`. Throws AppFailure: TOO_LARGE, INTEGRITY_FAILED
 * (truncated, length mismatch, empty, a PDF not starting with %PDF-), CANCELLED, TIMEOUT,
 * OFFLINE, UNAUTHORIZED, DISK_FULL, PERMISSION_DENIED, NO_FOLDER, …
 */
export async function downloadToFolder(req: DownloadRequest): Promise<DownloadResult> {
  const ops = req.fileOps ?? nodeFileOps
  const maxBytes = req.maxBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES
  const statfs = req.statfs ?? ((f: string) => fsp.statfs(f))
  const folder = path.resolve(req.folder)
  const fileName = safeFileName(req.fileName)
  if (req.signal?.aborted) throw cancelled()
  await checkFolder(ops, folder)
  const temp = path.join(folder, partialName(fileName))
  let file: WritableFile
  try {
    file = await ops.open(temp, 'wx', 0o600)
  } catch (err) {
    throw fileFailure(err, 'save the file', folder)
  }

  // One signal for the transfer: the caller's cancel, or a failed write/hash stopping it early.
  const stop = new AbortController()
  const onCancel = () => stop.abort()
  req.signal?.addEventListener('abort', onCancel, { once: true })
  let writer: BodyWriter | null = null
  let meter: ProgressMeter | null = null
  let open = true
  let signed = false
  let meterLength: number | null = null
  let announced: number | null = null
  /** A download made on a thread: its digest and first bytes. */
  let threaded: { sha256: string; head: Buffer } | null = null
  const fd = file.fd
  const checkHead = async (head: StreamHead) => {
    const declared = head.contentLength
    announced = declared
    if (declared !== null && declared > maxBytes) throw overLimit(maxBytes, declared)
    if (declared !== null) await checkFreeSpace(statfs, folder, declared)
    meterLength = declared
    meter = new ProgressMeter(head.contentLength, req.onProgress)
  }
  /** Refuses a wrong file at its first bytes instead of after the whole transfer. */
  const checkSignature = (head: Buffer, bytes: number) => {
    if (signed || bytes < PDF_MAGIC.length) return
    signed = true
    const problem = badSignature(req.format, head, bytes)
    if (problem) throw integrity(problem)
  }
  try {
    const result = await req.client.download(
      req.opId,
      req.input,
      {
        start: async (head) => {
          await checkHead(head)
          writer = new HashingWriter(file, head.contentLength, () => stop.abort())
        },
        write: (chunk) => {
          const w = writer as BodyWriter
          const length = chunk.length // read first: the writer may take the chunk's memory
          const declared = meterLength
          if (declared !== null && w.bytes + length > declared) throw overDeclared(declared)
          if (w.bytes + length > maxBytes) throw overLimit(maxBytes, null)
          const waiting = w.write(chunk)
          checkSignature(w.head, w.bytes)
          meter?.add(length)
          return waiting
        },
        // A real file: the request, the body's reading, hashing and writing run on a thread.
        ...(typeof fd === 'number'
          ? {
              thread: async (request: ThreadRequest) => {
                let shown = 0
                const done = await downloadOnThread({
                  request,
                  fd,
                  maxBytes,
                  overMax: () => overLimit(maxBytes, null),
                  syncEvery: DATASYNC_EVERY,
                  start: checkHead,
                  progress: (bytes, head) => {
                    ;(meter as ProgressMeter | null)?.add(bytes - shown)
                    shown = bytes
                    checkSignature(head, bytes)
                  },
                })
                ;(meter as ProgressMeter | null)?.add(done.result.bytes - shown)
                threaded = { sha256: done.sha256, head: done.head }
                return done.result
              },
            }
          : {}),
      },
      { signal: stop.signal, deadlineMs: req.deadlineMs, idleMs: req.idleMs },
    )
    // The body as whichever path took it (a thread, or the writer on main): its first bytes, its
    // size, and its digest once it is on disk.
    const thread = threaded as { sha256: string; head: Buffer } | null
    const w = writer as BodyWriter | null
    const body = thread
      ? {
          head: thread.head,
          size: result.bytes,
          digest: async () => {
            await file.sync()
            return thread.sha256
          },
        }
      : w && { head: w.head, size: w.bytes, digest: () => w.end() }
    if (!body) throw integrity('The service sent no file.')
    const problem = badSignature(req.format, body.head, body.size)
    if (problem) throw integrity(problem)
    const sha256 = await body.digest()
    open = false
    await file.close()
    if (req.signal?.aborted) throw cancelled()
    const finalPath = await placeWithoutOverwrite(ops, temp, folder, fileName)
    ;(meter as ProgressMeter | null)?.finish()
    return { path: finalPath, size: body.size, sha256 }
  } catch (err) {
    const w = writer as BodyWriter | null
    let cause = w?.failure ?? err
    // The HTTP parser stops at Content-Length and fails on the bytes after it (the transport
    // says so, possibly before the sink saw the body): the same refusal as the check in write.
    if (
      announced !== null &&
      cause instanceof AppFailure &&
      !(cause instanceof DownloadRefused) &&
      cause.error.code === 'INTEGRITY_FAILED' &&
      /more bytes than it announced/.test(cause.error.message)
    )
      cause = overDeclared(announced)
    await w?.abort(cause)
    if (open) await file.close().catch(() => undefined)
    await removeQuietly(ops, temp)
    if (req.signal?.aborted) throw cancelled()
    if (cause instanceof AppFailure) throw cause
    throw fileFailure(cause, 'save the file', folder)
  } finally {
    req.signal?.removeEventListener('abort', onCancel)
  }
}
