import type { ListOperationId } from '@/data/useOperationList'

/**
 * Every resource of the registry, by key, with its list operation: what a cross-reference (a
 * column's `link`, a field's `picker`, a related list's `resource` and `filter`) is checked
 * against at compile time, and what an entry's `ops.list` must be.
 */
export const RESOURCE_LISTS = {
  targets: 'targets.list',
  scans: 'scans.list',
  scan_profiles: 'scans.scan_profiles',
  scan_history: 'scans.history',
  schedules: 'schedules.list',
  hosts: 'hosts.list',
  scanners: 'scanners.list',
  port_lists: 'port_lists.list',
  credentials: 'credentials.list',
  reports: 'reports.list',
  advanced_reports: 'advanced_reports.list',
  vulnerabilities: 'vulnerabilities.list',
  exceptions: 'exceptions.list',
  webhooks: 'webhooks.list',
  webhook_deliveries: 'webhooks.deliveries',
  audit: 'audit.list',
  notifications: 'notifications.list',
  organizations: 'organizations.list',
  subscriptions: 'organizations.list_subscriptions',
  users: 'users.list',
  saq: 'saq.list',
  saq_types: 'saq.types',
  billing_features: 'billing.list_features',
} as const satisfies Record<string, ListOperationId>

/** The key of a resource of the registry. */
export type ResourceKey = keyof typeof RESOURCE_LISTS

/** The list operation of the resource `K`. */
export type ListOf<K extends ResourceKey> = (typeof RESOURCE_LISTS)[K]
