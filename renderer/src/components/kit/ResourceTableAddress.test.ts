import { flushPromises, type VueWrapper } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import type { Router } from 'vue-router'
import { queryFromState, stateFromQuery } from '@/composables/listAddress'
import { useFakeApp } from '@/test/fakeApp'
import { mountWithApp } from '@/test/mountApp'
import { recordRouter } from '@/test/routed'
import ResourceListView from '@/views/resources/ResourceListView.vue'
import ResourceFilters from './ResourceFilters.vue'

const fake = useFakeApp()

type Call = { op: string; input: { query?: Record<string, unknown> } }
const answer = (data: unknown) => ({ data, fetchedAt: '2030-01-01T00:00:00Z', fromCache: false })
const finding = (id: string) => ({
  id,
  type: 'vulnerability',
  attributes: { title: `Finding ${id}`, severity: 'high', cvss_score: 7.5, last_seen_at: null },
})

function serve() {
  fake.handle('api.call', (p: Call) => {
    if (p.op === 'vulnerabilities.list')
      return answer({
        data: [finding('vul-1'), finding('vul-2')],
        meta: { pagination: { total_count: 300 } },
      })
    if (p.op === 'user.permissions') return answer({ data: { permissions: [] } })
    return answer({ data: [], meta: { pagination: { total_count: 0 } } })
  })
  fake.handle('api.cancel', () => ({ cancelled: true }))
}

/** The queries the vulnerabilities list was asked with, oldest first. */
const asked = () =>
  fake.calls
    .filter((c) => c.channel === 'api.call')
    .map((c) => c.payload as Call)
    .filter((c) => c.op === 'vulnerabilities.list')
    .map((c) => c.input.query)
const lastAsked = () => asked().at(-1)

async function mountAt(path: string): Promise<{ router: Router; wrapper: VueWrapper }> {
  const router = recordRouter([
    {
      path: '/vulnerabilities',
      component: ResourceListView,
      props: { group: 'vulnerabilities' },
    },
  ])
  await router.push(path)
  const wrapper = mountWithApp({ template: '<router-view />' }, { global: { plugins: [router] } })
  await flushPromises()
  await vi.waitFor(() => expect(asked().length).toBeGreaterThan(0))
  return { router, wrapper }
}

describe('a list kept in the address', () => {
  it('starts as the address says, leaving out what the list’s query refuses', async () => {
    serve()
    await mountAt(
      '/vulnerabilities?severity=high&pci_compliant=true&search=ssl&sort=title&page=3&per_page=50',
    )
    expect(asked()).toHaveLength(1)
    expect(lastAsked()).toEqual({
      severity: 'high',
      pci_compliant: 'true',
      search: 'ssl',
      sort: 'title',
      page: 3,
      per_page: 50,
    })
  })

  it('drops what is not valid for the list', async () => {
    serve()
    await mountAt('/vulnerabilities?severity=bogus&cve_id=nope&page=-2&per_page=7&other=x')
    expect(lastAsked()).toEqual({ page: 1, per_page: 25, sort: '-cvss_score' })
  })

  it('writes a filter chosen in the control to the address and keeps it after a detail and Back', async () => {
    serve()
    const { router, wrapper } = await mountAt('/vulnerabilities')
    wrapper.findComponent(ResourceFilters).vm.$emit('change', { severity: 'critical' })
    await flushPromises()
    expect(router.currentRoute.value.query).toEqual({ severity: 'critical' })
    expect(lastAsked()).toMatchObject({ severity: 'critical', page: 1 })

    await router.push('/vulnerabilities/vul-2')
    await flushPromises()
    expect(router.currentRoute.value.query).toEqual({})
    const before = asked().length
    router.back()
    await vi.waitFor(() => expect(router.currentRoute.value.path).toBe('/vulnerabilities'))
    await flushPromises()
    expect(router.currentRoute.value.query).toEqual({ severity: 'critical' })
    expect(
      asked()
        .slice(before)
        .every((q) => q?.severity === 'critical'),
    ).toBe(true)
    expect(wrapper.findComponent(ResourceFilters).props('modelValue')).toEqual({
      severity: 'critical',
    })
  })

  it('writes sort and page, and follows an address typed over it', async () => {
    serve()
    const { router, wrapper } = await mountAt('/vulnerabilities?severity=high')
    // the Title header clicked once: ascending
    await wrapper.find('th[data-column="title"]').trigger('click')
    await flushPromises()
    wrapper.findComponent({ name: 'ElPagination' }).vm.$emit('current-change', 4)
    await flushPromises()
    expect(router.currentRoute.value.query).toEqual({ severity: 'high', sort: 'title', page: '4' })
    expect(lastAsked()).toMatchObject({ severity: 'high', sort: 'title', page: 4 })

    await router.push('/vulnerabilities?severity=low&per_page=100')
    await flushPromises()
    expect(lastAsked()).toEqual({ severity: 'low', page: 1, per_page: 100, sort: '-cvss_score' })
    expect(router.currentRoute.value.query).toEqual({ severity: 'low', per_page: '100' })
  })
})

describe('a list’s state in words of an address', () => {
  const defaults = { sort: '-cvss_score', perPage: 25 }
  const names = ['severity', 'cvss_score_min', 'pci_compliant']
  it('reads back what it wrote', () => {
    const state = {
      filters: { severity: 'medium', cvss_score_min: '4.5', pci_compliant: 'false' },
      search: 'openssl',
      sort: 'title',
      page: 2,
      perPage: 100,
    }
    const query = queryFromState(state, defaults)
    expect(query).toEqual({
      severity: 'medium',
      cvss_score_min: '4.5',
      pci_compliant: 'false',
      search: 'openssl',
      sort: 'title',
      page: '2',
      per_page: '100',
    })
    expect(stateFromQuery(query, 'vulnerabilities.list', names, defaults)).toEqual(state)
  })

  it('leaves the defaults out', () => {
    expect(
      queryFromState(
        { filters: { severity: '' }, search: '', sort: '-cvss_score', page: 1, perPage: 25 },
        defaults,
      ),
    ).toEqual({})
  })
})
