import type { GroupId } from '@contract/catalog/types'
import type { Release } from '@contract/releases'

/**
 * One entry of the sidebar: a catalog group and how the app names and reaches it. Its icon is in
 * components/shell/navIcons.ts: the router reads this module on the first screen, the icons are
 * needed only where the sidebar is drawn.
 */
export interface GroupNav {
  group: GroupId
  label: string
  path: string
}

// Keyed by GroupId so the compiler insists on every group of the catalog (GROUP_IDS order below).
const NAV: Record<GroupId, Pick<GroupNav, 'label'>> = {
  auth: { label: 'Authentication' },
  targets: { label: 'Targets' },
  scans: { label: 'Scans' },
  reports: { label: 'Reports' },
  advanced_reports: { label: 'Advanced reports' },
  vulnerabilities: { label: 'Vulnerabilities' },
  exceptions: { label: 'Exceptions' },
  schedules: { label: 'Schedules' },
  webhooks: { label: 'Webhooks' },
  audit: { label: 'Audit log' },
  notifications: { label: 'Notifications' },
  hosts: { label: 'Hosts' },
  scanners: { label: 'Scanners' },
  port_lists: { label: 'Port lists' },
  credentials: { label: 'Credentials' },
  user: { label: 'My account' },
  organizations: { label: 'Organizations' },
  users: { label: 'Users' },
  white_label: { label: 'White label' },
  billing: { label: 'Billing' },
  saq: { label: 'Questionnaires (SAQ)' },
}

/** The route path of a group: `/port-lists` for `port_lists`. */
export function groupPath(group: GroupId): string {
  return `/${group.replace(/_/g, '-')}`
}

/** Every group in sidebar order (the catalog's GROUP_IDS order; object keys keep insertion order). */
export const GROUP_NAV: readonly GroupNav[] = (Object.keys(NAV) as GroupId[]).map((group) => ({
  group,
  path: groupPath(group),
  ...NAV[group],
}))

/** The library of downloaded files: not a catalog group; listed under Reports in the sidebar. */
export const LIBRARY_NAV = {
  path: '/library',
  label: 'Downloaded files',
  after: 'reports' as GroupId,
} as const

/** The part of a catalog entry that decides whether its group is shown. */
export interface ReleasedOp {
  group: GroupId
  releases: readonly Release[]
}

/**
 * The sidebar entries for an account on `release`: a group whose operations are all outside the
 * release disappears. With no release known every group shows (main refuses what is missing).
 * `ops` is the catalog's operation list (passed in so this module stays free of the catalog).
 */
export function visibleGroups(
  release: Release | null | undefined,
  ops: readonly ReleasedOp[],
): GroupNav[] {
  if (!release) return [...GROUP_NAV]
  const offered = new Set(ops.filter((op) => op.releases.includes(release)).map((op) => op.group))
  return GROUP_NAV.filter((g) => offered.has(g.group))
}
