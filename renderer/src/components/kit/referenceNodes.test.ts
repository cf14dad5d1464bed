import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { createMemoryHistory, createRouter } from 'vue-router'
import { detailName, resourceByKey } from '@/resources'
import { useTwoAccounts } from '@/test/composables'
import { mountWithApp } from '@/test/mountApp'
import RecordRef from './RecordRef.vue'
import ReferenceValue from './ReferenceValue.vue'

useTwoAccounts()
const hosts = resourceByKey('hosts')!

async function mountRef(name: Parameters<typeof mountWithApp>[1]) {
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', component: { render: () => null } },
      { path: '/hosts/:id', name: detailName(hosts), component: { render: () => null } },
    ],
  })
  await router.push('/')
  const wrapper = mountWithApp(RecordRef, { ...name, global: { plugins: [router] } })
  await flushPromises()
  return { router, wrapper }
}

describe('a reference to a record', () => {
  it('links its name to the record’s page, followed by the router', async () => {
    const { router, wrapper } = await mountRef({
      props: { resource: hosts, id: 'hst-1', name: { state: 'named', name: '192.0.2.1' } },
    })
    const link = wrapper.get('a.record-ref__link')
    expect(link.text()).toBe('192.0.2.1')
    expect(link.attributes('title')).toBe('hst-1')
    expect(link.attributes('href')).toBe(
      router.resolve({ name: detailName(hosts), params: { id: 'hst-1' } }).href,
    )
    await link.trigger('click', { button: 0 })
    await flushPromises()
    expect(router.currentRoute.value.path).toBe('/hosts/hst-1')
  })

  it('leaves a modified click to the browser', async () => {
    const { router, wrapper } = await mountRef({
      props: { resource: hosts, id: 'hst-1', name: { state: 'named', name: '192.0.2.1' } },
    })
    await wrapper.get('a.record-ref__link').trigger('click', { button: 0, ctrlKey: true })
    await flushPromises()
    expect(router.currentRoute.value.path).toBe('/')
  })

  it('says its id muted while the name is read, and why when no name can be had', async () => {
    const { wrapper } = await mountRef({
      props: { resource: hosts, id: 'hst-1', name: { state: 'loading' } },
    })
    expect(wrapper.get('.record-ref').classes()).toContain('record-ref--loading')
    expect(wrapper.get('.record-ref').attributes('aria-busy')).toBe('true')
    await wrapper.setProps({ name: { state: 'unnamed', reason: 'missing' } })
    // a record known missing has no page to open
    expect(wrapper.find('a').exists()).toBe(false)
    expect(wrapper.text()).toMatch(/^hst-1 \(.+\)$/)
    expect(wrapper.get('.record-ref').attributes('data-name-state')).toBe('unnamed')
  })

  it('says in words that an attribute names no record', () => {
    const wrapper = mountWithApp(ReferenceValue, {
      props: {
        reference: { resource: hosts, ids: [] },
        nameOf: () => ({ state: 'loading' }),
      },
    })
    expect(wrapper.text()).toBe('No host')
    expect(wrapper.find('[data-name-state="none"]').exists()).toBe(true)
  })
})
