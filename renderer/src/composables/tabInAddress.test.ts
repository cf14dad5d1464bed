import { flushPromises, mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { defineComponent, ref } from 'vue'
import { createMemoryHistory, createRouter } from 'vue-router'
import { useTabInAddress } from './tabInAddress'

/** A page at `path` whose tabs are `names`, with what useTabInAddress gave it. */
async function page(path: string, names: string[]) {
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [{ path: '/:rest(.*)*', component: { render: () => null } }],
  })
  await router.push(path)
  const tabs = ref(names.map((name) => ({ name })))
  let tab!: ReturnType<typeof useTabInAddress>
  const Page = defineComponent({
    setup() {
      tab = useTabInAddress(tabs)
      return () => null
    },
  })
  mount(Page, { global: { plugins: [router] } })
  return { router, tabs, tab }
}

describe('the tab kept in the address', () => {
  it('is the one the address names, else the first', async () => {
    expect((await page('/billing?tab=defaults', ['product-a', 'defaults'])).tab.active.value).toBe(
      'defaults',
    )
    expect((await page('/billing?tab=gone', ['product-a', 'defaults'])).tab.active.value).toBe(
      'product-a',
    )
    expect((await page('/billing', [])).tab.active.value).toBe('')
  })

  it('follows the tabs as they arrive', async () => {
    const { tabs, tab } = await page('/billing?tab=features', ['defaults'])
    expect(tab.active.value).toBe('defaults')
    tabs.value = [{ name: 'defaults' }, { name: 'features' }]
    await flushPromises()
    expect(tab.active.value).toBe('features')
  })

  it('names the chosen tab in the address, keeping the rest of its query', async () => {
    const { router, tab } = await page('/vulnerabilities?severity=high', ['a', 'b'])
    tab.choose('b')
    await flushPromises()
    expect(router.currentRoute.value.query).toEqual({ severity: 'high', tab: 'b' })
    expect(tab.active.value).toBe('b')
  })
})
