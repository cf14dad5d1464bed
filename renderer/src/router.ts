import { createRouter, createWebHashHistory, type Router, type RouteRecordRaw } from 'vue-router'
import { watchEffect } from 'vue'
import type { GroupId } from '@contract/catalog'
import { holdBackgroundReadsWhileNavigating } from './data/backgroundReads'
import { GROUP_NAV, LIBRARY_NAV, groupPath } from './navigation'
import { BUILT_GROUPS, OWN_ROUTES, RESOURCE_GROUPS, RESOURCES, detailName } from './resources'
import { DETAIL_VIEWS, GROUP_VIEWS, RESOURCE_DETAIL_VIEW, RESOURCE_LIST_VIEW } from './screens'
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

const groupRoutes: RouteRecordRaw[] = GROUP_NAV.filter(
  (g) => BUILT_GROUPS.has(g.group) && !OWN_ROUTES.includes(g.group),
).map((g) => ({
  path: g.path.slice(1),
  name: g.group,
  component: GROUP_VIEWS[g.group] ?? RESOURCE_LIST_VIEW,
  props: GROUP_VIEWS[g.group] ? false : { group: g.group },
  meta: { title: g.label },
  // The catalog's spelling (/advanced_reports) reaches the same screen.
  ...(g.group.includes('_') ? { alias: `/${g.group}` } : {}),
}))

// A detail page per resource with a show operation: /targets/:id, /scans/scan-history/:id.
const detailRoutes: RouteRecordRaw[] = RESOURCES.filter((r) => r.ops.show).map((r) => ({
  path: `${groupPath(r.group).slice(1)}/${r.key === r.group ? '' : r.key.replace(/_/g, '-') + '/'}:id`,
  name: detailName(r),
  component: DETAIL_VIEWS[r.key] ?? RESOURCE_DETAIL_VIEW,
  props: (route) => ({ resourceKey: r.key, id: String(route.params.id) }),
  meta: { title: r.noun.charAt(0).toUpperCase() + r.noun.slice(1) },
}))

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
      {
        path: 'scans/new',
        name: 'scan-wizard',
        component: () => import('./views/scans/wizard/ScanWizardView.vue'),
        meta: { title: 'New scan' },
      },
      {
        path: 'saq/new',
        name: 'saq-start',
        component: () => import('./views/saq/SaqStartView.vue'),
        meta: { title: 'New questionnaire' },
      },
      {
        path: 'saq/draft/:key',
        name: 'saq-draft',
        component: () => import('./views/saq/SaqFillView.vue'),
        props: (route) => ({ draftKey: String(route.params.key) }),
        meta: { title: 'Questionnaire' },
      },
      {
        path: 'bulk',
        name: 'bulk-runs',
        component: () => import('./views/bulk/BulkRunsView.vue'),
        meta: { title: 'Bulk runs' },
      },
      {
        path: 'bulk/:runId',
        name: 'bulk-run',
        component: () => import('./views/bulk/BulkRunView.vue'),
        props: (route) => ({ runId: String(route.params.runId) }),
        meta: { title: 'Bulk run' },
      },
      {
        path: 'asset-context',
        name: 'asset-context',
        component: () => import('./views/assets/AssetContextView.vue'),
        meta: { title: 'Asset context' },
      },
      {
        path: 'outbox',
        name: 'outbox',
        component: () => import('./views/outbox/OutboxView.vue'),
        meta: { title: 'Outbox' },
      },
      ...detailRoutes,
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
  // First, so the hold covers the guards below and the new screen's code loading.
  holdBackgroundReadsWhileNavigating(router)
  // Without accounts there is only the welcome screen; with accounts, no welcome screen.
  router.beforeEach(async (to) => {
    const accounts = useAccountsStore()
    await accounts.ensureLoaded()
    if (!accounts.loaded) return true // main is unreachable: let the views show the error
    if (!accounts.hasAccounts && to.name !== 'welcome') return { name: 'welcome' }
    if (accounts.hasAccounts && to.name === 'welcome') return { name: 'dashboard' }
    return true
  })
  // Last: after the guards that may send the navigation elsewhere.
  startFirstReadsOnEntry(router)
  return router
}

/**
 * A list's page entered (not the list following its own address): its first read starts then,
 * beside the page's code loading (data/firstReads.ts), not once the page is made. That module is
 * loaded a task after the first screen is shown, so the read leaves with the click: a page whose
 * code is in is made in the click's own task, before an import made then could run.
 */
export function startFirstReadsOnEntry(router: Router): void {
  let loaded: typeof import('./data/firstReads') | null = null
  const load = () => import('./data/firstReads').then((m) => (loaded = m))
  const stop = router.afterEach(() => {
    stop()
    setTimeout(() => void load().catch(() => undefined), 0)
  })
  router.beforeEach((to, from) => {
    const group = to.name as GroupId
    if (to.path === from.path || !RESOURCE_GROUPS.has(group)) return
    if (loaded) loaded.startFirstListRead(group, to.query)
    // the page reads for itself if this fails
    else
      void load().then(
        (m) => m.startFirstListRead(group, to.query),
        () => undefined,
      )
  })
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
