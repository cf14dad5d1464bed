// What the dashboard panels' tests share: a memory router with the routes the panels link to.
import { createMemoryHistory, createRouter, type RouteRecordRaw } from 'vue-router'

/** A page that shows nothing: where a panel's link leads. */
const page = { render: () => null }

/** A route of the path and name, showing nothing. */
const blankRoute = (path: string, name: string): RouteRecordRaw => ({
  path,
  name,
  component: page,
})

/**
 * A router with the dashboard and the vulnerabilities list (where most panels' "View all" and
 * counts lead), and `more` routes (path: name) a panel links to as well.
 */
export function panelRouter(more: Record<string, string> = {}) {
  return createRouter({
    history: createMemoryHistory(),
    routes: [
      blankRoute('/', 'dashboard'),
      blankRoute('/vulnerabilities', 'vulnerabilities'),
      ...Object.entries(more).map(([path, name]) => blankRoute(path, name)),
    ],
  })
}
