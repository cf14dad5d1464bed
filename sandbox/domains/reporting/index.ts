import type { SandboxDomain } from '../../types'
import { reportingCollections } from './collections'
import { completeDueFiles, keepTargetNames } from './files'
import { auditWrites } from './audit-writes'
import { advancedReportHandlers } from './handlers/advanced-reports'
import { auditHandlers } from './handlers/audit'
import { notificationHandlers } from './handlers/notifications'
import { reportHandlers } from './handlers/reports'
import { saqHandlers } from './handlers/saq'
import { webhookHandlers } from './handlers/webhooks'
import { whiteLabelHandlers } from './handlers/white-label'
import { reserveReferencedIds, seedNotifications, seedAudit, seedWebhooks } from './seed-activity'
import { seedAdvancedReports, seedReports } from './seed-reports'
import { seedSaqs, seedSaqTypes, seedWhiteLabel } from './seed-saq'

export { notify, recordAudit, emitWebhookEvent } from './activity'
export { addSyntheticReport } from './files'

/**
 * The reporting domain: reports and advanced reports with real PDF/CSV files, webhooks and their
 * deliveries, the audit log, notifications, white label settings and SAQs. Seeded after
 * identity, commerce and scanning, in a fixed order (ids depend on it).
 */
export const reportingDomain: SandboxDomain = {
  name: 'reporting',
  collections: reportingCollections,
  seed(ctx) {
    seedReports(ctx)
    seedAdvancedReports(ctx)
    seedWebhooks(ctx)
    seedAudit(ctx)
    seedNotifications(ctx)
    seedWhiteLabel(ctx)
    seedSaqTypes(ctx)
    seedSaqs(ctx)
    reserveReferencedIds(ctx)
  },
  upgrade(ctx) {
    keepTargetNames(ctx, 'reports')
    keepTargetNames(ctx, 'advanced_reports')
    reserveReferencedIds(ctx)
  },
  around: auditWrites,
  handlers: {
    ...reportHandlers,
    ...advancedReportHandlers,
    ...webhookHandlers,
    ...auditHandlers,
    ...notificationHandlers,
    ...whiteLabelHandlers,
    ...saqHandlers,
  },
  tick(ctx) {
    completeDueFiles(ctx, 'reports')
    completeDueFiles(ctx, 'advanced_reports')
  },
}
