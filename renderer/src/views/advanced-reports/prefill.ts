import type { z } from 'zod'
import { name as nameSchema } from '@contract/schemas/common'
import type { advancedReportCreateBody } from '@contract/catalog/advanced-reports'

/** Starting values of a new advanced report (the create body's fields, any of them). */
export type AdvancedReportPrefill = Partial<z.input<typeof advancedReportCreateBody>>

const MAX_NAME = nameSchema.maxLength ?? 200

/**
 * A new advanced report about one scan: named for it, a technical detail of its findings
 * (summary, findings, hosts, remediation) over the scan's targets — advanced reports filter by
 * target, not by scan (docs/decisions.md, "Reports of a scan").
 */
export function advancedReportForScan(scan: {
  name: string
  target_ids: readonly string[]
}): AdvancedReportPrefill {
  const suffix = ' - technical detail'
  const name = `${scan.name.trim().slice(0, MAX_NAME - suffix.length)}${suffix}`
  return {
    name,
    report_type: 'technical_detail',
    sections: ['summary', 'findings', 'hosts', 'remediation'],
    ...(scan.target_ids.length ? { filters: { target_ids: scan.target_ids.slice(0, 200) } } : {}),
  }
}
