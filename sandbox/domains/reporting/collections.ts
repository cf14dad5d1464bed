import type { CollectionSpec } from '../../types'

/** Collections of the reporting domain (all but saq_types are scoped to an organization). */
export const reportingCollections: Record<string, CollectionSpec> = {
  reports: { type: 'report', prefix: 'rpt', orgScoped: true, searchFields: ['name'] },
  advanced_reports: {
    type: 'advanced_report',
    prefix: 'adr',
    orgScoped: true,
    searchFields: ['name'],
  },
  webhooks: { type: 'webhook', prefix: 'whk', orgScoped: true, searchFields: ['name', 'url'] },
  webhook_deliveries: { type: 'webhook_delivery', prefix: 'dlv', orgScoped: true },
  audit_events: {
    type: 'audit_event',
    prefix: 'aud',
    orgScoped: true,
    searchFields: ['action', 'actor_email'],
  },
  notifications: { type: 'notification', prefix: 'ntf', orgScoped: true, searchFields: ['title'] },
  white_label: { type: 'white_label', prefix: 'wlb', orgScoped: true },
  saqs: { type: 'saq', prefix: 'saq', orgScoped: true, searchFields: ['name'] },
  saq_types: { type: 'saq_type', prefix: 'sqt', searchFields: ['code', 'name'] },
}
