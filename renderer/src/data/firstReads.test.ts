import { flushPromises } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import type { Component } from 'vue'
import { createMemoryHistory, createRouter, type RouteRecordRaw } from 'vue-router'
import { startFirstReadsOnEntry } from '@/router'
import { deferred } from '@/test/fakeScandesk'
import { useFakeApp } from '@/test/fakeApp'
import { mountWithApp } from '@/test/mountApp'
import ResourceListView from '@/views/resources/ResourceListView.vue'
import VulnerabilitiesView from '@/views/vulnerabilities/VulnerabilitiesView.vue'
import { createLimiter } from './backgroundReads'
import { firstListRead, startFirstListRead } from './firstReads'

const fake = useFakeApp()

type Call = { op: string; input: { query?: Record<string, unknown> } }
const answer = (data: unknown) => ({ data, fetchedAt: '2030-01-01T00:00:00Z', fromCache: false })
const rows = (prefix: string) => ({
  data: [1, 2].map((n) => ({
    id: `${prefix}-${n}`,
    type: prefix,
    attributes: { name: `${prefix} ${n}`, title: `${prefix} ${n}`, severity: 'high' },
  })),
  meta: { pagination: { total_count: 2 } },
})

/** Lists answer when `held` says (held back by default until released); the rest at once. */
function serve(lists: ReadonlySet<string>) {
  const held = deferred<void>()
  fake.handle('api.call', async (p: Call) => {
    if (lists.has(p.op)) {
      await held.promise
      return answer(rows(p.op.split('.')[0]!))
    }
    if (p.op === 'user.permissions') return answer({ data: { permissions: [] } })
    return answer({ data: [], meta: { pagination: { total_count: 0 } } })
  })
  fake.handle('api.cancel', () => ({ cancelled: true }))
  return { answerLists: () => held.resolve() }
}

/** The queries `op` was asked with, oldest first. */
const asked = (op: string) =>
  fake.calls
    .filter((c) => c.channel === 'api.call')
    .map((c) => c.payload as Call)
    .filter((c) => c.op === op)
    .map((c) => c.input.query)

/**
 * The app's guard on a router whose list pages' code comes only when `codeIn` is released: a
 * page at `path` of `group` shown by `view`.
 */
async function lists(path: string, group: string, view: Component, props: object = {}) {
  const code = deferred<void>()
  const blank = { render: () => null }
  const routes: RouteRecordRaw[] = [
    { path: '/', component: blank },
    { path, name: group, component: () => code.promise.then(() => view), props },
    { path: '/:rest(.*)*', component: blank },
  ]
  const router = createRouter({ history: createMemoryHistory(), routes })
  startFirstReadsOnEntry(router)
  await router.push('/')
  const wrapper = mountWithApp({ template: '<router-view />' }, { global: { plugins: [router] } })
  await flushPromises()
  return { router, wrapper, codeIn: () => code.resolve() }
}

describe('a list’s first read', () => {
  it('is sent as its page is entered, before the page’s code is in, and the page asks no more', async () => {
    const { answerLists } = serve(new Set(['targets.list']))
    const { router, wrapper, codeIn } = await lists('/targets', 'targets', ResourceListView, {
      group: 'targets',
    })
    const arrived = router.push('/targets?tag=web&sort=name&page=2')
    await vi.waitFor(() => expect(asked('targets.list')).toHaveLength(1))
    expect(asked('targets.list')[0]).toEqual({ tag: 'web', sort: 'name', page: 2, per_page: 25 })
    expect(router.currentRoute.value.path).toBe('/')

    codeIn()
    await arrived
    await flushPromises()
    // the page is made while the read is still on its way: it waits for that one
    expect(wrapper.find('.resource-table[data-resource="targets"]').exists()).toBe(true)
    answerLists()
    await vi.waitFor(() => expect(wrapper.findAll('[data-testid="resource-row"]')).toHaveLength(2))
    expect(asked('targets.list')).toHaveLength(1)
  })

  it('is the tab’s the address names, as the page shows it', async () => {
    const { answerLists } = serve(new Set(['scanners.list', 'scanners.activated']))
    const { router, wrapper, codeIn } = await lists('/scanners', 'scanners', ResourceListView, {
      group: 'scanners',
    })
    const arrived = router.push('/scanners?tab=scanners:scanners.activated')
    await vi.waitFor(() => expect(asked('scanners.activated')).toHaveLength(1))
    codeIn()
    answerLists()
    await arrived
    await vi.waitFor(() => expect(wrapper.findAll('[data-testid="resource-row"]')).toHaveLength(2))
    expect(asked('scanners.activated')).toHaveLength(1)
    expect(asked('scanners.list')).toEqual([])
  })

  it('is the vulnerabilities list’s own read, unless its own filters are in the address', async () => {
    const { answerLists } = serve(new Set(['vulnerabilities.list']))
    const { router, wrapper, codeIn } = await lists(
      '/vulnerabilities',
      'vulnerabilities',
      VulnerabilitiesView,
    )
    const arrived = router.push('/vulnerabilities?severity=critical')
    await vi.waitFor(() => expect(asked('vulnerabilities.list')).toHaveLength(1))
    expect(asked('vulnerabilities.list')[0]).toEqual({
      severity: 'critical',
      sort: '-cvss_score',
      page: 1,
      per_page: 25,
    })
    codeIn()
    answerLists()
    await arrived
    await vi.waitFor(() => expect(wrapper.findAll('[data-testid="resource-row"]')).toHaveLength(2))
    expect(asked('vulnerabilities.list')).toHaveLength(1)
  })

  it('is left to the page while the address has the page’s own filters', async () => {
    serve(new Set(['vulnerabilities.list', 'targets.list']))
    const { router } = await lists('/vulnerabilities', 'vulnerabilities', VulnerabilitiesView)
    // a due filter is the page's own: a first-seen range from the account's policy
    void router.push('/vulnerabilities?severity=high&due_within=7')
    // the page's code never comes, so reads are the router's: the next entry's comes alone
    void router.push('/vulnerabilities?severity=low')
    await vi.waitFor(() => expect(asked('vulnerabilities.list')).toHaveLength(1))
    expect(asked('vulnerabilities.list')[0]).toMatchObject({ severity: 'low' })
  })

  it('is not started again while the list follows its own address', async () => {
    const { answerLists } = serve(new Set(['targets.list']))
    answerLists()
    const { router, codeIn } = await lists('/targets', 'targets', { render: () => null })
    codeIn()
    await router.push('/targets')
    await vi.waitFor(() => expect(asked('targets.list')).toHaveLength(1))
    await router.replace('/targets?page=3')
    await flushPromises()
    expect(asked('targets.list')).toHaveLength(1)
  })
})

describe('firstListRead', () => {
  const all = () => true
  it('names nothing for a page whose first read is its own, or that has none', () => {
    expect(firstListRead('reports', {}, all)).toBeNull()
    expect(firstListRead('white_label', {}, all)).toBeNull()
    expect(firstListRead('vulnerabilities', { first_seen_after: '2026-11-01' }, all)).toBeNull()
    expect(firstListRead('vulnerabilities', { overdue: 'true' }, all)).toBeNull()
    expect(firstListRead('targets', {}, () => false)).toBeNull()
  })
})

describe('a list’s first read and the background work', () => {
  it('holds the window’s background work until the list’s rows are drawn', async () => {
    const { answerLists } = serve(new Set(['targets.list']))
    const limiter = createLimiter(2)
    const { router, codeIn } = await lists('/targets', 'targets', ResourceListView, {
      group: 'targets',
    })
    router.beforeEach((to) => {
      if (to.path === '/targets') startFirstListRead('targets', to.query, limiter)
    })
    const background = vi.fn(async () => undefined)
    const arrived = router.push('/targets')
    await vi.waitFor(() => expect(asked('targets.list').length).toBeGreaterThan(0))
    void limiter.run(background)
    codeIn()
    await arrived
    await new Promise((r) => setTimeout(r, 20))
    // the page is entered, its list still on its way: the background waits
    expect(background).not.toHaveBeenCalled()
    answerLists()
    await vi.waitFor(() => expect(background).toHaveBeenCalledTimes(1))
  })
})
