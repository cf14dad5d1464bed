import type { RouteRecordRaw } from 'vue-router'
import { USER_TABS } from './tabs'

const TAB_PATTERN = USER_TABS.map((t) => t.name).join('|')

/** My account: `/user` (profile) and `/user/<tab>` for the other tabs; a child of the app shell. */
export const userRoutes: RouteRecordRaw[] = [
  {
    path: `/user/:tab(${TAB_PATTERN})?`,
    name: 'user',
    component: () => import('./UserAccountView.vue'),
    props: true,
    meta: { title: 'My account' },
  },
]
