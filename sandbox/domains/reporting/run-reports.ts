// The report a completed scan run leaves behind, as a real service makes one (decided in
// docs/decisions.md, "The report of a scan run").
import type { Row, SandboxContext } from '../../types'
import { scanFindings } from './seed-reports'

/** The name of a run's report: the scan's name, the kind and when the run finished (UTC). */
export function runReportName(scanName: string, finishedAt: string): string {
  return `${scanName} - technical report, ${finishedAt.slice(0, 16).replace('T', ' ')} UTC`
}

/**
 * Makes the report of a scan run that completed: one technical report per run (a run that
 * already has one keeps it; a failed or stopped run has none), with the run's findings as its
 * snapshot and no file yet (`pending`: generating builds the PDF or CSV). Everything in it comes
 * from the scan, the run and the sandbox clock, so the same run makes the same report.
 */
export function reportRun(ctx: SandboxContext, scan: Row, run: Row): Row | null {
  if (run.attributes.status !== 'completed') return null
  const existing = ctx.db.list('reports').find((r) => r.internal?.run_id === run.id)
  if (existing) return existing
  const org = String(run.internal?.organization_id ?? scan.internal?.organization_id ?? '')
  if (!org) return null
  const scanName = String(scan.attributes.name ?? scan.id)
  const finished = String(run.attributes.finished_at ?? ctx.now().toISOString())
  const targets = Array.isArray(scan.attributes.target_ids)
    ? (scan.attributes.target_ids as unknown[]).map(String)
    : []
  const findings = scanFindings(ctx, scan.id, 0)
  const starter = scan.internal?.started_by
  return ctx.db.insert('reports', {
    id: ctx.db.nextId('rpt'),
    type: 'report',
    attributes: {
      name: runReportName(scanName, finished),
      report_type: 'technical',
      scan_id: scan.id,
      target_id: targets.find((id) => ctx.db.get('targets', id)) ?? targets[0] ?? null,
      status: 'pending',
      findings_count: findings.length,
      files: {},
      created_at: finished,
      updated_at: finished,
    },
    internal: {
      organization_id: org,
      findings,
      scan_name: scanName,
      run_id: run.id,
      requested_by: typeof starter === 'string' ? starter : null,
    },
  })
}
