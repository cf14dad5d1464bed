import type { Handlers, Row, SandboxContext } from '../../../types'
import { recordAudit } from '../activity'
import type { Finding } from '../documents'
import { callerOf, listAnswer, nowIso, orgOf, ownedRows, requireOwned, singleAnswer } from '../util'
import { fileHandlers } from './file-ops'

interface Filters {
  severity?: string[]
  target_ids?: string[]
  date_from?: string
  date_to?: string
}

/**
 * The findings an advanced report covers: those of the organization's scan reports, narrowed by
 * severity, target and the report dates. Kept as a snapshot so the files stay the same bytes.
 */
export function gatherFindings(
  ctx: SandboxContext,
  organizationId: string,
  filters: Filters,
): Finding[] {
  const out: Finding[] = []
  for (const report of ctx.db.list('reports')) {
    if (orgOf(report) !== organizationId) continue
    const day = String(report.attributes.created_at ?? '').slice(0, 10)
    if (filters.date_from && day < filters.date_from) continue
    if (filters.date_to && day > filters.date_to) continue
    const target = report.attributes.target_id as string | null | undefined
    if (filters.target_ids && (!target || !filters.target_ids.includes(target))) continue
    for (const f of (report.internal?.findings as Finding[] | undefined) ?? []) {
      if (filters.severity && !filters.severity.includes(f.severity)) continue
      out.push({ ...f, target_id: target ?? null })
    }
  }
  return out.slice(0, 500)
}

/** Takes the findings snapshot unless one exists (a file of the other format may be ready). */
export function snapshotFindings(ctx: SandboxContext, row: Row): Row {
  if (Array.isArray(row.internal?.findings)) return row
  const findings = gatherFindings(ctx, orgOf(row) ?? '', (row.attributes.filters ?? {}) as Filters)
  return ctx.db.update(
    'advanced_reports',
    row.id,
    { findings_count: findings.length },
    { findings },
  )
}

/** Handlers of the advanced reports group (show, delete and bulk delete are generic). */
export const advancedReportHandlers: Handlers = {
  'advanced_reports.list': (req, ctx) => {
    const q = req.query
    const rows = ownedRows(ctx, req, 'advanced_reports').filter(
      (r) =>
        (!q.report_type || r.attributes.report_type === q.report_type) &&
        (!q.status || r.attributes.status === q.status),
    )
    return listAnswer(req, rows, { defaultSort: '-created_at', searchFields: ['name'] })
  },
  'advanced_reports.create': (req, ctx) => {
    const caller = callerOf(req, ctx)
    const body = req.body
    const now = nowIso(ctx)
    const row = ctx.db.insert('advanced_reports', {
      id: ctx.db.nextId('adr'),
      type: 'advanced_report',
      attributes: {
        name: body.name,
        description: body.description ?? null,
        report_type: body.report_type,
        filters: body.filters ?? {},
        sections: body.sections,
        status: 'pending',
        findings_count: null,
        files: {},
        created_at: now,
        updated_at: now,
      },
      internal: { organization_id: caller.organizationId, created_by: caller.userId },
    })
    recordAudit(ctx, {
      organizationId: caller.organizationId,
      action: 'advanced_report.create',
      actorId: caller.userId,
      resourceType: 'advanced_report',
      resourceId: row.id,
    })
    return singleAnswer(row, 201)
  },
  'advanced_reports.update': (req, ctx) => {
    const row = requireOwned(ctx, req, 'advanced_reports', req.path.id)
    const body = req.body
    const changes: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(body)) if (value !== undefined) changes[key] = value
    // The files showed the old definition: they are discarded, like a pending generation.
    const updated = ctx.db.update(
      'advanced_reports',
      row.id,
      { ...changes, files: {}, status: 'pending', findings_count: null, updated_at: nowIso(ctx) },
      { findings: undefined, due: undefined },
    )
    return singleAnswer(updated)
  },
  ...fileHandlers('advanced_reports', 'advanced_reports', (ctx, _req, row) =>
    snapshotFindings(ctx, row),
  ),
}
