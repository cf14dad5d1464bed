import type { Component } from 'vue'
import type { GroupId } from '@contract/catalog'
import { RESOURCES, RESOURCE_GROUPS } from './resources'

type Loader = () => Promise<Component>

/**
 * Groups with a view of their own: those a registry entry names (`custom.list`), and White label,
 * which has no entry (its settings are one record, not a list). The others with resources get
 * the registry's generic screens.
 */
export const GROUP_VIEWS: Partial<Record<GroupId, Loader>> = {
  ...Object.fromEntries(
    RESOURCES.flatMap((r) => (r.custom?.list ? [[r.group, r.custom.list]] : [])),
  ),
  white_label: () => import('./views/white-label/WhiteLabelView.vue'),
}

/**
 * Resources whose detail page is a view of their own (`custom.detail`, with the registry's
 * ResourceDetailView's props: `resourceKey` and `id`); the others get the generic detail.
 */
export const DETAIL_VIEWS: Partial<Record<string, Loader>> = Object.fromEntries(
  RESOURCES.flatMap((r) => (r.custom?.detail ? [[r.key, r.custom.detail]] : [])),
)

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
