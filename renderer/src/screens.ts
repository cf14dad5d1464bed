import type { Component } from 'vue'
import type { GroupId } from '@contract/catalog'
import { RESOURCE_GROUPS } from './resources'

/** Groups with a view of their own; the others with resources get the registry's generic screens. */
export const GROUP_VIEWS: Partial<Record<GroupId, () => Promise<Component>>> = {
  reports: () => import('./views/reports/ReportsView.vue'),
  advanced_reports: () => import('./views/advanced-reports/AdvancedReportsView.vue'),
  white_label: () => import('./views/white-label/WhiteLabelView.vue'),
  saq: () => import('./views/saq/SaqView.vue'),
  exceptions: () => import('./views/exceptions/ExceptionsView.vue'),
  billing: () => import('./views/billing/BillingView.vue'),
}

/**
 * Resources whose detail page is a view of its own (same props as the registry's
 * ResourceDetailView: `resourceKey` and `id`); the others get the generic detail.
 */
export const DETAIL_VIEWS: Partial<Record<string, () => Promise<Component>>> = {
  scans: () => import('./views/scans/ScanDetailView.vue'),
  saq: () => import('./views/saq/SaqFillView.vue'),
  vulnerabilities: () => import('./views/vulnerabilities/VulnerabilityDetailView.vue'),
}

/** Groups whose routes are declared elsewhere (My account's tabs: views/user/routes.ts). */
export const OWN_ROUTES: readonly GroupId[] = ['user']

/**
 * Groups that are not a page: the Authentication operations live in the sign-in, link and
 * account dialogs.
 */
export const NOT_A_PAGE: readonly GroupId[] = ['auth']

/** Groups that have a screen: the sidebar offers these and names the rest as not built yet. */
export const BUILT_GROUPS: ReadonlySet<GroupId> = new Set([
  ...(Object.keys(GROUP_VIEWS) as GroupId[]),
  ...OWN_ROUTES,
  ...RESOURCE_GROUPS,
])
