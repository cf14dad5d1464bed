import { createRouter, createWebHashHistory, type RouteRecordRaw } from 'vue-router'
import { watchEffect, type Component } from 'vue'
import type { GroupId } from '@contract/catalog/types'
import { GROUP_NAV, LIBRARY_NAV } from './navigation'
import { useAccountsStore } from './stores/accounts'
import { useAppStore } from './stores/app'
import { userRoutes } from './views/user/routes'

declare module 'vue-router' {
  interface RouteMeta {
    /** Page title (also the "coming soon" heading). */
    title?: string
    /** True for screens outside the app shell (welcome). */
    bare?: boolean
  }
}

// Groups with a screen of their own; the rest show "coming soon".
const GROUP_VIEWS: Partial<Record<GroupId, () => Promise<Component>>> = {
  reports: () => import('./views/reports/ReportsView.vue'),
  advanced_reports: () => import('./views/advanced-reports/AdvancedReportsView.vue'),
}

// My account has tabs of its own (views/user/routes.ts).
const OWN_ROUTES: readonly GroupId[] = ['user']

const groupRoutes: RouteRecordRaw[] = GROUP_NAV.filter((g) => !OWN_ROUTES.includes(g.group)).map(
  (g) => ({
    path: g.path.slice(1),
    name: g.group,
    component: GROUP_VIEWS[g.group] ?? (() => import('./views/common/GroupComingView.vue')),
    meta: { title: g.label },
    // The catalog's spelling (/advanced_reports) reaches the same screen.
    ...(g.group.includes('_') ? { alias: `/${g.group}` } : {}),
  }),
)

const routes: RouteRecordRaw[] = [
  {
    path: '/welcome',
    name: 'welcome',
    component: () => import('./views/welcome/WelcomeView.vue'),
    meta: { title: 'Welcome', bare: true },
  },
  {
    path: '/',
    component: () => import('./layouts/AppShell.vue'),
    children: [
      { path: '', redirect: { name: 'dashboard' } },
      {
        path: 'dashboard',
        name: 'dashboard',
        component: () => import('./views/dashboard/DashboardView.vue'),
        meta: { title: 'Dashboard' },
      },
      ...groupRoutes,
      ...userRoutes,
      {
        path: LIBRARY_NAV.path.slice(1),
        name: 'library',
        component: () => import('./views/library/LibraryView.vue'),
        meta: { title: LIBRARY_NAV.label },
      },
    ],
  },
  { path: '/:rest(.*)*', redirect: { name: 'dashboard' } },
]

/** The app's router: hash history (the page is a file in Electron, and one path in browser mode). */
export function createAppRouter() {
  const router = createRouter({ history: createWebHashHistory(), routes })
  // Without accounts there is only the welcome screen; with accounts, no welcome screen.
  router.beforeEach(async (to) => {
    const accounts = useAccountsStore()
    await accounts.ensureLoaded()
    if (!accounts.loaded) return true // main is unreachable: let the views show the error
    if (!accounts.hasAccounts && to.name !== 'welcome') return { name: 'welcome' }
    if (accounts.hasAccounts && to.name === 'welcome') return { name: 'dashboard' }
    return true
  })
  return router
}

/** The window title: the account's name first, so every window says which account it shows. */
export function windowTitle(accountLabel: string | null | undefined, pageTitle?: string): string {
  if (accountLabel) return `${accountLabel} — ScanDesk`
  return pageTitle ? `${pageTitle} · ScanDesk` : 'ScanDesk'
}

/** Keeps document.title on this window's account (and the page, while there is no account). */
export function syncWindowTitle(router: ReturnType<typeof createAppRouter>): () => void {
  const app = useAppStore()
  return watchEffect(() => {
    document.title = windowTitle(app.account?.label, router.currentRoute.value.meta.title)
  })
}
