// The sidebar's icons, apart from navigation.ts so the first screen (which reads the routes) does
// not load them.
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

/** Each catalog group's icon in the sidebar. */
export const GROUP_ICONS: Record<GroupId, Component> = {
  auth: Key,
  targets: Aim,
  scans: Monitor,
  reports: Document,
  advanced_reports: DataAnalysis,
  vulnerabilities: Warning,
  exceptions: RemoveFilled,
  schedules: Calendar,
  webhooks: Link,
  audit: Tickets,
  notifications: Bell,
  hosts: Platform,
  scanners: Cpu,
  port_lists: Connection,
  credentials: Lock,
  user: User,
  organizations: OfficeBuilding,
  users: UserFilled,
  white_label: Brush,
  billing: Wallet,
  saq: Checked,
}

/** The icon of the library of downloaded files (navigation.ts LIBRARY_NAV). */
export const LIBRARY_ICON: Component = FolderChecked
