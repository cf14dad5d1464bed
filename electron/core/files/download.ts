import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { AppFailure } from '@contract/errors'
import type { TransferProgress } from '@contract/files'
import type { AccountClient } from '../http/client'
import { fileFailure, nodeFileOps, removeQuietly, type FileOps, type WritableFile } from './fs-ops'
import { safeFileName } from './names'
import { bodyWriter, type BodyWriter } from './pipeline'
import { placeWithoutOverwrite } from './place'
import { ProgressMeter } from './progress'

/** One download of a generated document into a folder. */
export interface DownloadRequest {
  /** The account's client from electron/core/http/client.ts. */
  client: AccountClient
  opId: 'reports.download' | 'advanced_reports.download'
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
 * folder. Leaves no partial file on failure or cancel. Throws AppFailure: INTEGRITY_FAILED
 * (truncated, length mismatch, empty, a PDF not starting with %PDF-), CANCELLED, TIMEOUT,
 * OFFLINE, UNAUTHORIZED, DISK_FULL, PERMISSION_DENIED, NO_FOLDER, …
 */
export async function downloadToFolder(req: DownloadRequest): Promise<DownloadResult> {
  const ops = req.fileOps ?? nodeFileOps
  const folder = path.resolve(req.folder)
  const fileName = safeFileName(req.fileName)
  if (req.signal?.aborted) throw cancelled()
  await checkFolder(ops, folder)
  const temp = path.join(folder, `.${fileName}.${randomBytes(6).toString('hex')}.partial`)
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
  try {
    await req.client.download(
      req.opId,
      req.input,
      {
        start: (head) => {
          writer = bodyWriter(file, head.contentLength, () => stop.abort())
          meter = new ProgressMeter(head.contentLength, req.onProgress)
        },
        write: (chunk) => {
          const w = writer as BodyWriter
          const length = chunk.length // read first: the writer may take the chunk's memory
          const waiting = w.write(chunk)
          if (!signed && w.bytes >= PDF_MAGIC.length) {
            // Refuse a wrong file at its first bytes instead of after the whole transfer.
            signed = true
            const problem = badSignature(req.format, w.head, w.bytes)
            if (problem) throw integrity(problem)
          }
          meter?.add(length)
          return waiting
        },
      },
      { signal: stop.signal, deadlineMs: req.deadlineMs, idleMs: req.idleMs },
    )
    const w = writer as BodyWriter | null
    if (!w) throw integrity('The service sent no file.')
    const problem = badSignature(req.format, w.head, w.bytes)
    if (problem) throw integrity(problem)
    const sha256 = await w.end()
    open = false
    await file.close()
    if (req.signal?.aborted) throw cancelled()
    const finalPath = await placeWithoutOverwrite(ops, temp, folder, fileName)
    ;(meter as ProgressMeter | null)?.finish()
    return { path: finalPath, size: w.bytes, sha256 }
  } catch (err) {
    const w = writer as BodyWriter | null
    const cause = w?.failure ?? err
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
