import { timingSafeEqual } from 'node:crypto'
import type {
  Handler,
  HandlerRequest,
  Handlers,
  Row,
  SandboxContext,
  SandboxRequest,
  SandboxResponse,
} from '../../../types'
import { recordAudit } from '../activity'
import { fileAnswer, fileState, readyDigest, startGeneration, type FileFormat } from '../files'
import { callerOf, nowIso, requireOwned } from '../util'

function formatOf(value: unknown): FileFormat {
  return value === 'csv' ? 'csv' : 'pdf'
}

function audit(ctx: SandboxContext, req: SandboxRequest, row: Row, action: string, format: string) {
  const caller = callerOf(req, ctx)
  recordAudit(ctx, {
    organizationId: caller.organizationId,
    action,
    actorId: caller.userId,
    resourceType: row.type,
    resourceId: row.id,
    details: { format },
  })
}

/** Equal digests, compared in constant time. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/** The request of a file operation both reports and advanced reports have. */
type EitherRequest<Name extends 'generate' | 'download'> =
  HandlerRequest<`reports.${Name}`> | HandlerRequest<`advanced_reports.${Name}`>

/**
 * The file operations of reports and advanced reports: generate (202), download (404 until
 * ready), and for reports also file_exists and verify_hash (the catalog gives advanced reports
 * neither). `prepare` runs before a generation starts (advanced reports take their snapshot of
 * findings there).
 */
export function fileHandlers(
  collection: string,
  prefix: 'reports' | 'advanced_reports',
  prepare?: (ctx: SandboxContext, req: SandboxRequest, row: Row) => Row,
): Handlers {
  const generate = (req: EitherRequest<'generate'>, ctx: SandboxContext): SandboxResponse => {
    let row = requireOwned(ctx, req, collection, req.path.id)
    const format = formatOf(req.body.format)
    const before = fileState(row, format)?.status
    if (prepare && before !== 'ready' && before !== 'generating') row = prepare(ctx, req, row)
    const status = startGeneration(ctx, collection, row, format, callerOf(req, ctx).userId)
    if (status === 'generating' && before !== 'generating')
      audit(ctx, req, row, `${row.type}.generate`, format)
    return { status: 202, body: { data: { id: row.id, format, status } } }
  }
  const download = (req: EitherRequest<'download'>, ctx: SandboxContext): SandboxResponse => {
    const row = requireOwned(ctx, req, collection, req.path.id)
    const format = formatOf(req.query.format)
    const file = fileAnswer(row, format, `${row.type.replace('_', '-')}-${row.id}`)
    if (!file) return ctx.notFound(`${format.toUpperCase()} file of ${row.id}`)
    audit(ctx, req, row, `${row.type}.download`, format)
    return { status: 200, file }
  }
  const fileExists: Handler<'reports.file_exists'> = async (req, ctx) => {
    const row = requireOwned(ctx, req, collection, req.path.id)
    const format = formatOf(req.query.format)
    const state = fileState(row, format)
    const ready = state?.status === 'ready'
    const digest = ready ? await readyDigest(row, format) : undefined
    return {
      status: 200,
      body: {
        data: {
          exists: ready,
          format,
          status: state?.status ?? 'not_generated',
          ...(ready ? { size: state.size, sha256: digest } : {}),
          generated_at: state?.generated_at ?? null,
        },
      },
    }
  }
  const verifyHash: Handler<'reports.verify_hash'> = async (req, ctx) => {
    const row = requireOwned(ctx, req, collection, req.path.id)
    const body = req.body
    const format = formatOf(body.format)
    const expected = await readyDigest(row, format)
    if (!expected) return ctx.notFound(`${format.toUpperCase()} file of ${row.id}`)
    const match = sameDigest(expected, body.sha256.toLowerCase())
    audit(ctx, req, row, `${row.type}.verify_hash`, format)
    return {
      status: 200,
      body: {
        data: {
          match,
          format,
          sha256: body.sha256,
          expected_sha256: expected,
          verified_at: nowIso(ctx),
        },
      },
    }
  }
  return prefix === 'reports'
    ? {
        'reports.generate': generate,
        'reports.download': download,
        'reports.file_exists': fileExists,
        'reports.verify_hash': verifyHash,
      }
    : {
        'advanced_reports.generate': generate,
        'advanced_reports.download': download,
      }
}
