// Dashboard numbers computed from the rows the caller can see.
import type { Row, SandboxContext, SandboxRequest } from '../../types'
import { isOpen } from './evolution'
import { countSeverities } from './results'
import { visibleRows } from './util'

/** Open vulnerabilities the caller sees (fixed ones left out), optionally of one scan and/or host. */
export function vulnerabilitiesFor(
  ctx: SandboxContext,
  req: SandboxRequest,
  filter: { scan_id?: unknown; host_id?: unknown },
): Row[] {
  return visibleRows(ctx, req, 'vulnerabilities').filter(
    (v) =>
      isOpen(v) &&
      (filter.scan_id === undefined || v.attributes.scan_id === filter.scan_id) &&
      (filter.host_id === undefined || v.attributes.host_id === filter.host_id),
  )
}

/** Counts by severity plus the total. */
export function totalWidget(rows: Row[]) {
  return { total: rows.length, ...countSeverities(rows) }
}

/** The `limit` rows with the highest CVSS score (ties: most recently seen, then id). */
export function topByCvss(rows: Row[], limit: number): Row[] {
  return [...rows]
    .sort(
      (a, b) =>
        (b.attributes.cvss_score as number) - (a.attributes.cvss_score as number) ||
        String(b.attributes.last_seen_at).localeCompare(String(a.attributes.last_seen_at)) ||
        a.id.localeCompare(b.id),
    )
    .slice(0, limit)
}

/** Findings that pass and fail PCI DSS, and the verdict. */
export function pciWidget(rows: Row[]) {
  const pass = rows.filter((r) => r.attributes.pci_compliant === true).length
  return { pass, fail: rows.length - pass, total: rows.length, compliant: rows.length - pass === 0 }
}

/** Counts exceptions by state and kind, and active ones expiring within 30 days. */
export function exceptionStatistics(rows: Row[], nowMs: number) {
  const by = (field: string, value: string) =>
    rows.filter((r) => r.attributes[field] === value).length
  const soon = nowMs + 30 * 86_400_000
  return {
    total: rows.length,
    by_state: {
      pending: by('state', 'pending'),
      active: by('state', 'active'),
      expired: by('state', 'expired'),
    },
    by_kind: {
      accepted_risk: by('kind', 'accepted_risk'),
      false_positive: by('kind', 'false_positive'),
    },
    expiring_soon: rows.filter(
      (r) => r.attributes.state === 'active' && Date.parse(String(r.attributes.expires_at)) <= soon,
    ).length,
  }
}
