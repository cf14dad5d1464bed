import type { Row, SandboxContext } from '../../types'
import { emitWebhookEvent, notify } from '../reporting/activity'

/** Roles told about a scheduled run that nobody started by hand. */
const TOLD_OF_SCHEDULED = new Set(['administrator', 'manager'])

/**
 * Who hears that a scan run ended (decided here): the user who started it by hand, else the
 * organization's administrators and managers; each only while their notification preference for
 * that kind is on (a missing preference counts as on).
 */
function recipients(ctx: SandboxContext, scan: Row, org: string, preference: string): Row[] {
  const starter = scan.internal?.started_by
  const users = ctx.db.list('users').filter((u) => u.attributes.organization_id === org)
  const chosen =
    typeof starter === 'string'
      ? users.filter((u) => u.id === starter)
      : users.filter((u) => TOLD_OF_SCHEDULED.has(String(u.attributes.role)))
  return chosen.filter((u) => {
    if ((u.attributes.status ?? 'active') !== 'active') return false
    const prefs = u.internal?.notification_preferences as Record<string, unknown> | undefined
    return prefs?.[preference] !== false
  })
}

/**
 * A live scan run ended: notifications to the users it concerns and webhook deliveries for
 * scan.completed or scan.failed, plus vulnerability.detected when the run found critical ones.
 */
export function announceRunEnd(ctx: SandboxContext, scan: Row): void {
  const org = String(scan.internal?.organization_id ?? '')
  if (!org) return
  const a = scan.attributes
  const failed = a.status === 'failed'
  const kind = failed ? 'scan_failed' : 'scan_completed'
  const name = String(a.name)
  const counts = (a.severity_counts ?? {}) as Record<string, number>
  const criticals = failed ? 0 : Number(counts.critical ?? 0)
  for (const user of recipients(ctx, scan, org, kind))
    notify(ctx, {
      userId: user.id,
      organizationId: org,
      kind,
      level: failed ? 'warning' : criticals > 0 ? 'critical' : 'info',
      title: failed ? `Scan failed: ${name}` : `Scan completed: ${name}`,
      body: failed
        ? String(a.failure_reason ?? 'The scan could not finish.')
        : `${Number(a.vulnerabilities_count ?? 0)} vulnerabilities found on ${Number(a.hosts_count ?? 0)} hosts${criticals ? `, ${criticals} critical` : ''}.`,
      resourceType: 'scan',
      resourceId: scan.id,
    })
  emitWebhookEvent(ctx, org, failed ? 'scan.failed' : 'scan.completed', {
    scan_id: scan.id,
    name,
    status: a.status,
    vulnerabilities_count: a.vulnerabilities_count ?? 0,
  })
  if (criticals > 0)
    emitWebhookEvent(ctx, org, 'vulnerability.detected', {
      scan_id: scan.id,
      severity: 'critical',
      count: criticals,
    })
}
