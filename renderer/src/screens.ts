import type { Component } from 'vue'
import type { GroupId } from '@contract/catalog'
import { backgroundReads, type Limiter } from './data/backgroundReads'
import { GROUP_NAV } from './navigation'
import { BUILT_GROUPS, GROUPS_WITHOUT_ENTRY, NOT_A_PAGE, OWN_ROUTES, RESOURCES } from './resources'

type Loader = () => Promise<Component>

/** The registry's generic screens: a group's list of tables, and a record's page. */
export const RESOURCE_LIST_VIEW: Loader = () => import('./views/resources/ResourceListView.vue')
export const RESOURCE_DETAIL_VIEW: Loader = () => import('./views/resources/ResourceDetailView.vue')

/** Runs a callback when the browser is idle (requestIdleCallback where there is one). */
export type IdleScheduler = (run: () => void) => void

const whenIdle: IdleScheduler = (run) => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 3000 })
  else setTimeout(run, 500)
}

/**
 * Loads each loader's code in an idle slot of its own, one after the other (never one long task
 * of them all), through `limiter` when given: as background work it then waits while the router
 * moves to a screen (the hold of data/backgroundReads), and takes no more connections than the
 * other background reads. A failed load is left to the route, which retries it when opened.
 */
export function loadWhenIdle(
  loaders: readonly Loader[],
  idle: IdleScheduler = whenIdle,
  limiter?: Limiter,
): void {
  const queue = [...loaders]
  const step = () => {
    const load = queue.shift()
    if (!load) return
    void (limiter ? limiter.run(load) : load()).catch(() => undefined).finally(() => idle(step))
  }
  idle(step)
}

/** The views of the groups without a registry entry (resources' GROUPS_WITHOUT_ENTRY). */
const OWN_VIEWS: Record<(typeof GROUPS_WITHOUT_ENTRY)[number], Loader> = {
  white_label: () => import('./views/white-label/WhiteLabelView.vue'),
}

/**
 * Groups with a view of their own: those a registry entry names (`custom.list`), and those
 * without an entry (White label). The others with resources get the registry's generic screens.
 */
export const GROUP_VIEWS: Partial<Record<GroupId, Loader>> = {
  ...Object.fromEntries(
    RESOURCES.flatMap((r) => (r.custom?.list ? [[r.group, r.custom.list]] : [])),
  ),
  ...OWN_VIEWS,
}

/**
 * Resources whose detail page is a view of their own (`custom.detail`, with the registry's
 * ResourceDetailView's props: `resourceKey` and `id`); the others get the generic detail.
 */
export const DETAIL_VIEWS: Partial<Record<string, Loader>> = Object.fromEntries(
  RESOURCES.flatMap((r) => (r.custom?.detail ? [[r.key, r.custom.detail]] : [])),
)

/**
 * Loads the code of the list screens, in the sidebar's order (the groups' own, as Vulnerabilities,
 * and the generic one), then of the generic detail, once the browser is idle after the app's
 * shell has shown, so opening a list waits for its rows, not for its code. The first screen does
 * not carry it (the budget in build-output.test.ts). Profiled on the large seed (issue 22 §1):
 * the Vulnerabilities screen's own chunks (7 files) were fetched after the click, 30-60 ms of its
 * cold open, sharing the connections with the dashboard's reads. They are background work: a
 * probe at load ~6 saw the remaining screens' chunks loading while a just-opened list read.
 */
export function prefetchScreens(idle: IdleScheduler = whenIdle): void {
  loadWhenIdle(screensToPrefetch(), idle, backgroundReads)
}

/**
 * The analyst's day starts from these lists (the triage workbench, then the generic list of
 * targets, hosts…): their code loads first, before the sidebar's order. Opened within a second of
 * the start, Vulnerabilities' screen (5th in the sidebar) still had its code to load and evaluate,
 * 30-40 ms of its cold open (issue 22 §1).
 */
export const PREFETCH_FIRST: readonly GroupId[] = ['vulnerabilities', 'targets']

/** The lists the analyst starts from, then the others in the sidebar's order, each once, then the generic detail. */
export function screensToPrefetch(): Loader[] {
  const built = GROUP_NAV.filter((g) => BUILT_GROUPS.has(g.group) && !OWN_ROUTES.includes(g.group))
    .filter((g) => !NOT_A_PAGE.includes(g.group))
    .map((g) => g.group)
  const first = PREFETCH_FIRST.filter((g) => built.includes(g))
  const lists = [...first, ...built].map((g) => GROUP_VIEWS[g] ?? RESOURCE_LIST_VIEW)
  return [...new Set([...lists, RESOURCE_DETAIL_VIEW])]
}
