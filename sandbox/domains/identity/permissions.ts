import type { UserRole } from './users'

/**
 * Permission strings by role (decided here): `<area>.<verb>`. Other domains may use `can()` to
 * refuse writes with 403.
 */
const READ = [
  'targets.read',
  'scans.read',
  'reports.read',
  'vulnerabilities.read',
  'exceptions.read',
  'schedules.read',
  'hosts.read',
  'notifications.read',
  'saq.read',
]

const ANALYST = [
  ...READ,
  'targets.write',
  'scans.write',
  'scans.run',
  'reports.write',
  'exceptions.write',
  'schedules.write',
  'saq.write',
  'advanced_reports.read',
  'advanced_reports.write',
  'credentials.read',
  'credentials.write',
]

const MANAGER = [
  ...ANALYST,
  'exceptions.approve',
  'saq.approve',
  'webhooks.read',
  'webhooks.write',
  'audit.read',
  'users.read',
  'users.write',
  'scanners.read',
  'port_lists.read',
  'port_lists.write',
]

const ADMINISTRATOR = [
  ...MANAGER,
  'users.delete',
  'organization.write',
  'organizations.read',
  'organizations.write',
  'billing.read',
  'billing.write',
  'scanners.write',
  'white_label.read',
  'white_label.write',
  'impersonate',
]

const CUSTOMER = [...READ, 'saq.write']

/** Every role's permissions, sorted. */
export const PERMISSIONS: Record<UserRole, readonly string[]> = {
  administrator: [...ADMINISTRATOR].sort(),
  manager: [...MANAGER].sort(),
  analyst: [...ANALYST].sort(),
  customer: [...CUSTOMER].sort(),
}

/** True when `role` has `permission`. */
export function can(role: UserRole, permission: string): boolean {
  return PERMISSIONS[role]?.includes(permission) ?? false
}
