import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import type { Row, SandboxContext, SandboxFile } from '../../types'
import { emitWebhookEvent, notify } from './activity'
import { reportCsv, reportPdf, targetNamesSnapshot } from './documents'
import { nowIso, orgOf } from './util'

/** File formats of reports. */
export type FileFormat = 'pdf' | 'csv'

/** How long generating a file takes on the sandbox clock. */
export const GENERATION_MS = 3_000

/** Stored state of one file of a row (attributes.files[format]). */
export interface FileInfo {
  status: 'generating' | 'ready' | 'failed'
  size?: number
  sha256?: string
  requested_at?: string | null
  generated_at?: string | null
}

const CONTENT_TYPE: Record<FileFormat, string> = {
  pdf: 'application/pdf',
  csv: 'text/csv; charset=utf-8',
}

/** The bytes of a (non-synthetic) file: deterministic from the row. */
export function fileBytes(row: Row, format: FileFormat): Buffer {
  return format === 'pdf' ? reportPdf(row) : reportCsv(row)
}

/** SHA-256 of bytes as lowercase hex. */
export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex')
}

function filesOf(row: Row): Partial<Record<FileFormat, FileInfo>> {
  return (row.attributes.files as Partial<Record<FileFormat, FileInfo>> | undefined) ?? {}
}

/** Size set for a test-only huge file (internal.synthetic_size), or undefined. */
export function syntheticSize(row: Row): number | undefined {
  const n = row.internal?.synthetic_size
  return typeof n === 'number' && n > 0 ? Math.floor(n) : undefined
}

/** Overall status from the files: generating > ready > failed > pending. */
export function overallStatus(files: Partial<Record<FileFormat, FileInfo>>): string {
  const states = Object.values(files).map((f) => f?.status)
  if (states.includes('generating')) return 'generating'
  if (states.includes('ready')) return 'ready'
  if (states.includes('failed')) return 'failed'
  return 'pending'
}

/** The state of one file: not generated, generating, ready (with size and digest) or failed. */
export function fileState(row: Row, format: FileFormat): FileInfo | undefined {
  const size = syntheticSize(row)
  if (size !== undefined) {
    const digest = syntheticDigests.get(syntheticKey(row, format, size))
    return { status: 'ready', size, sha256: typeof digest === 'string' ? digest : undefined }
  }
  return filesOf(row)[format]
}

/** Writes one file's state into the row and recomputes its overall status. */
export function setFileState(
  ctx: SandboxContext,
  collection: string,
  row: Row,
  format: FileFormat,
  info: FileInfo | undefined,
  internal?: Record<string, unknown>,
): Row {
  const files = { ...filesOf(row) }
  if (info) files[format] = info
  else delete files[format]
  return ctx.db.update(
    collection,
    row.id,
    { files, status: overallStatus(files), updated_at: nowIso(ctx) },
    internal,
  )
}

/** The current name of a target, or null when it has none or no longer exists. */
function targetName(ctx: SandboxContext): (id: string) => string | null {
  return (id) => {
    const name = ctx.db.get('targets', id)?.attributes.name
    return typeof name === 'string' && name ? name : null
  }
}

/**
 * Marks a file ready now: keeps the names of the report's targets (the first time), then computes
 * its bytes once to record size and digest.
 */
export function completeFile(
  ctx: SandboxContext,
  collection: string,
  row: Row,
  format: FileFormat,
): Row {
  const names = targetNamesSnapshot(row, targetName(ctx))
  const named = names ? { ...row, internal: { ...row.internal, ...names } } : row
  const bytes = fileBytes(named, format)
  const previous = filesOf(named)[format]
  return setFileState(
    ctx,
    collection,
    named,
    format,
    {
      status: 'ready',
      size: bytes.length,
      sha256: sha256(bytes),
      requested_at: previous?.requested_at ?? null,
      generated_at: nowIso(ctx),
    },
    names ?? undefined,
  )
}

/**
 * Starts generating a file; 'ready' when the current file already exists (content is
 * deterministic, so there is nothing new to build), 'generating' otherwise.
 */
export function startGeneration(
  ctx: SandboxContext,
  collection: string,
  row: Row,
  format: FileFormat,
  requestedBy: string,
): 'generating' | 'ready' {
  const state = fileState(row, format)
  if (state?.status === 'ready') return 'ready'
  if (state?.status === 'generating') return 'generating'
  const due = { ...((row.internal?.due as Record<string, number>) ?? {}) }
  due[format] = ctx.now().getTime() + GENERATION_MS
  setFileState(
    ctx,
    collection,
    row,
    format,
    { status: 'generating', requested_at: nowIso(ctx), generated_at: null },
    { due, requested_by: requestedBy },
  )
  return 'generating'
}

/** Completes every generation of a collection whose time has come (called by the tick). */
export function completeDueFiles(ctx: SandboxContext, collection: string): void {
  const now = ctx.now().getTime()
  for (const row of ctx.db.list(collection)) {
    const due = row.internal?.due as Record<string, number> | undefined
    if (!due) continue
    const left: Record<string, number> = {}
    let current = row
    for (const [format, at] of Object.entries(due)) {
      if (at > now) {
        left[format] = at
        continue
      }
      current = completeFile(ctx, collection, current, format as FileFormat)
      announceReady(ctx, current, format as FileFormat)
    }
    ctx.db.update(collection, row.id, {}, { due: Object.keys(left).length ? left : undefined })
  }
}

function announceReady(ctx: SandboxContext, row: Row, format: FileFormat): void {
  const org = orgOf(row)
  const userId = row.internal?.requested_by
  if (typeof userId === 'string' && org)
    notify(ctx, {
      userId,
      organizationId: org,
      kind: 'report_ready',
      title: `Report ready: ${String(row.attributes.name)}`,
      body: `The ${format.toUpperCase()} file can now be downloaded.`,
      resourceType: row.type,
      resourceId: row.id,
    })
  if (org) emitWebhookEvent(ctx, org, 'report.ready', { report_id: row.id, type: row.type, format })
}

// --- test-only huge files ------------------------------------------------------------------

const CHUNK = 64 * 1024
const syntheticBlocks = new Map<string, Buffer>()
const syntheticDigests = new Map<string, string | Promise<string>>()

function syntheticKey(row: Row, format: FileFormat, size: number): string {
  return `${row.id}:${format}:${size}`
}

function baseBlock(seed: string): Buffer {
  let block = syntheticBlocks.get(seed)
  if (!block) {
    const parts: Buffer[] = []
    for (let i = 0; i < CHUNK / 32; i++)
      parts.push(createHash('sha256').update(`${seed}:${i}`).digest())
    block = Buffer.concat(parts)
    if (syntheticBlocks.size > 16) syntheticBlocks.clear()
    syntheticBlocks.set(seed, block)
  }
  return block
}

/** The chunks of a synthetic file, generated one at a time (memory stays flat). */
export function* syntheticChunks(row: Row, format: FileFormat, size: number): Generator<Buffer> {
  const base = baseBlock(`${row.id}:${format}`)
  const header = Buffer.from(
    format === 'pdf' ? '%PDF-1.4\n% ScanDesk sandbox synthetic file\n' : 'report_id,chunk,data\r\n',
    'latin1',
  )
  for (let offset = 0, index = 0; offset < size; offset += CHUNK, index++) {
    const chunk = Buffer.from(base.subarray(0, Math.min(CHUNK, size - offset)))
    const mark = index === 0 ? header : Buffer.from(`\n%${index.toString(16).padStart(8, '0')}\n`)
    mark.copy(chunk, 0, 0, Math.min(mark.length, chunk.length))
    yield chunk
  }
}

/** SHA-256 of a synthetic file, computed once (asynchronously, yielding between chunks). */
export function syntheticSha256(row: Row, format: FileFormat, size: number): Promise<string> {
  const key = syntheticKey(row, format, size)
  const known = syntheticDigests.get(key)
  if (known !== undefined) return Promise.resolve(known)
  const promise = (async () => {
    const hash = createHash('sha256')
    let n = 0
    for (const chunk of syntheticChunks(row, format, size)) {
      hash.update(chunk)
      if (++n % 64 === 0) await new Promise((resolve) => setImmediate(resolve))
    }
    const digest = hash.digest('hex')
    syntheticDigests.set(key, digest)
    return digest
  })()
  syntheticDigests.set(key, promise)
  return promise
}

/** The digest of a ready file (synthetic ones are computed on first use). */
export async function readyDigest(row: Row, format: FileFormat): Promise<string | undefined> {
  const size = syntheticSize(row)
  if (size !== undefined) return syntheticSha256(row, format, size)
  const state = filesOf(row)[format]
  return state?.status === 'ready' ? state.sha256 : undefined
}

/** The file answer of a download; undefined when the file is not ready. */
export function fileAnswer(
  row: Row,
  format: FileFormat,
  baseName: string,
): SandboxFile | undefined {
  const filename = `${baseName}.${format}`
  const size = syntheticSize(row)
  if (size !== undefined)
    return {
      contentType: CONTENT_TYPE[format],
      filename,
      size,
      body: () => Readable.from(syntheticChunks(row, format, size), { objectMode: false }),
    }
  if (filesOf(row)[format]?.status !== 'ready') return undefined
  const bytes = fileBytes(row, format)
  return {
    contentType: CONTENT_TYPE[format],
    filename,
    size: bytes.length,
    body: () => Readable.from([bytes], { objectMode: false }),
  }
}

/** Streams any file answer body to a buffer (tests). */
export async function readAll(file: SandboxFile): Promise<Buffer> {
  if (Buffer.isBuffer(file.body)) return file.body
  const parts: Buffer[] = []
  for await (const chunk of file.body()) parts.push(Buffer.from(chunk as Buffer))
  return Buffer.concat(parts)
}

/** Content type of a saq PDF and other generated PDFs. */
export const PDF_TYPE = CONTENT_TYPE.pdf

/**
 * Test and benchmark helper: adds a report whose PDF and CSV are `size` deterministic bytes,
 * streamed without being held in memory (digest computed once, on first use).
 */
export function addSyntheticReport(
  ctx: SandboxContext,
  options: { size: number; organizationId?: string; name?: string },
): Row {
  const at = nowIso(ctx)
  return ctx.db.insert('reports', {
    id: ctx.db.nextId('rpt'),
    type: 'report',
    attributes: {
      name: options.name ?? `Synthetic report (${options.size} bytes)`,
      report_type: 'technical',
      scan_id: null,
      target_id: null,
      status: 'ready',
      findings_count: 0,
      files: {},
      created_at: at,
      updated_at: at,
    },
    internal: {
      organization_id: options.organizationId ?? 'org-001',
      synthetic_size: options.size,
    },
  })
}

/**
 * A state saved before reports kept their targets' names (upgrade of a loaded data file): each
 * report with a ready PDF keeps them now, and the PDF's recorded size and digest follow the bytes
 * it is now printed with, so a download still matches what the service says it holds.
 */
export function keepTargetNames(ctx: SandboxContext, collection: string): void {
  for (const row of ctx.db.list(collection)) {
    const pdf = filesOf(row).pdf
    if (pdf?.status !== 'ready' || syntheticSize(row) !== undefined) continue
    const names = targetNamesSnapshot(row, targetName(ctx))
    if (!names) continue
    const bytes = reportPdf({ ...row, internal: { ...row.internal, ...names } })
    const files = { ...filesOf(row), pdf: { ...pdf, size: bytes.length, sha256: sha256(bytes) } }
    ctx.db.update(collection, row.id, { files }, names)
  }
}
