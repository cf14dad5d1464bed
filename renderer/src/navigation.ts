import {
  Aim,
  Bell,
  Brush,
  Calendar,
  Checked,
  Connection,
  Cpu,
  DataAnalysis,
  Document,
  FolderChecked,
  Key,
  Link,
  Lock,
  Monitor,
  OfficeBuilding,
  Platform,
  RemoveFilled,
  Tickets,
  User,
  UserFilled,
  Wallet,
  Warning,
} from '@element-plus/icons-vue'
import type { Component } from 'vue'
import type { GroupId } from '@contract/catalog/types'
import type { Release } from '@contract/releases'

/** One entry of the sidebar: a catalog group and how the app names and reaches it. */
export interface GroupNav {
  group: GroupId
  label: string
  path: string
  icon: Component
}

// Keyed by GroupId so the compiler insists on every group of the catalog (GROUP_IDS order below).
const NAV: Record<GroupId, Omit<GroupNav, 'group' | 'path'>> = {
  auth: { label: 'Authentication', icon: Key },
  targets: { label: 'Targets', icon: Aim },
  scans: { label: 'Scans', icon: Monitor },
  reports: { label: 'Reports', icon: Document },
  advanced_reports: { label: 'Advanced reports', icon: DataAnalysis },
  vulnerabilities: { label: 'Vulnerabilities', icon: Warning },
  exceptions: { label: 'Exceptions', icon: RemoveFilled },
  schedules: { label: 'Schedules', icon: Calendar },
  webhooks: { label: 'Webhooks', icon: Link },
  audit: { label: 'Audit log', icon: Tickets },
  notifications: { label: 'Notifications', icon: Bell },
  hosts: { label: 'Hosts', icon: Platform },
  scanners: { label: 'Scanners', icon: Cpu },
  port_lists: { label: 'Port lists', icon: Connection },
  credentials: { label: 'Credentials', icon: Lock },
  user: { label: 'My account', icon: User },
  organizations: { label: 'Organizations', icon: OfficeBuilding },
  users: { label: 'Users', icon: UserFilled },
  white_label: { label: 'White label', icon: Brush },
  billing: { label: 'Billing', icon: Wallet },
  saq: { label: 'Questionnaires (SAQ)', icon: Checked },
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
  icon: FolderChecked,
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
