// Mounts a screen the way the shell shows it: on a memory router at its path (with a catch-all
// for wherever it navigates) and the window's one ConfirmHost beside it.
import { flushPromises } from '@vue/test-utils'
import { afterEach } from 'vitest'
import type { Component } from 'vue'
import { createMemoryHistory, createRouter, type Router, type RouteRecordRaw } from 'vue-router'
import ConfirmHost from '@/components/kit/ConfirmHost.vue'
import { detailName, RESOURCES } from '@/resources'
import { mountWithApp } from './mountApp'

/**
 * A memory router with `routes`, every record's page (`/<resource key>/:id`, named as the app
 * names it) and a catch-all named 'any'; the pages render nothing.
 */
export function recordRouter(routes: RouteRecordRaw[] = []): Router {
  const page = { render: () => null }
  return createRouter({
    history: createMemoryHistory(),
    routes: [
      ...routes,
      ...RESOURCES.map((r) => ({ path: `/${r.key}/:id`, name: detailName(r), component: page })),
      { path: '/:rest(.*)*', name: 'any', component: page },
    ],
  })
}

/** What mountRouted gives back: the router, the screen's wrapper, and one way to unmount both. */
export interface Routed {
  router: Router
  wrapper: ReturnType<typeof mountWithApp>
  unmount(): void
}

/**
 * Mounts `view` (with `props`) after navigating to `path`; `routes` are the ones the test
 * navigates to (a catch-all named 'any' is added).
 */
export async function mountRouted(
  view: Component,
  options: { path: string; routes: RouteRecordRaw[]; props?: Record<string, unknown> },
): Promise<Routed> {
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      ...options.routes,
      { path: '/:rest(.*)*', name: 'any', component: { render: () => null } },
    ],
  })
  await router.push(options.path)
  const global = { plugins: [router] }
  const host = mountWithApp(ConfirmHost, { global })
  const wrapper = mountWithApp(view as never, { props: options.props ?? {}, global } as never)
  await flushPromises()
  return {
    router,
    wrapper,
    unmount() {
      wrapper.unmount()
      host.unmount()
    },
  }
}

/** Options of mountRouted. */
type RoutedOptions = Parameters<typeof mountRouted>[1]

/**
 * One screen of a test file: `mount()` mounts `view` with `options` (mountRouted), `router` is the
 * last mount's router, and every mount is unmounted after its test.
 */
export function useRoutedScreen(view: Component, options: RoutedOptions) {
  const mounted: Routed[] = []
  let router: Router | null = null
  afterEach(() => {
    while (mounted.length) mounted.pop()!.unmount()
    router = null
  })
  return {
    async mount(): Promise<Routed['wrapper']> {
      const routed = await mountRouted(view, options)
      mounted.push(routed)
      router = routed.router
      return routed.wrapper
    },
    get router(): Router {
      if (!router) throw new Error('mount() the screen first')
      return router
    },
  }
}
