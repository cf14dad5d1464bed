import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { resourceByKey } from '@/resources'
import { useTwoAccounts } from '@/test/composables'
import { mountWithApp } from '@/test/mountApp'
import ResourceFilters from './ResourceFilters.vue'

useTwoAccounts()

const items = () => [...document.querySelectorAll<HTMLElement>('.el-select-dropdown__item')]

function mountFilters(modelValue: Record<string, unknown>) {
  return mountWithApp(ResourceFilters, {
    props: {
      resource: resourceByKey('vulnerabilities')!,
      op: 'vulnerabilities.list',
      names: ['severity', 'pci_compliant'],
      modelValue,
    },
  })
}

describe("a list's choice filters", () => {
  it('draw no dropdown until one is opened', async () => {
    const wrapper = mountFilters({ pci_compliant: true })
    await flushPromises()
    expect(items()).toHaveLength(0)
    expect(document.querySelectorAll('.el-select-dropdown')).toHaveLength(0)
    // the filters themselves are there
    expect(wrapper.find('[data-filter="severity"]').exists()).toBe(true)
    expect(wrapper.find('[data-filter="pci_compliant"]').exists()).toBe(true)
  })

  it('offer their options once opened, and a choice changes the filters', async () => {
    const wrapper = mountFilters({ pci_compliant: true })
    await flushPromises()
    wrapper.find<HTMLElement>('[data-filter="severity"] .el-select__wrapper').element.click()
    await flushPromises()
    const labels = items().map((el) => el.textContent?.trim())
    expect(labels).toEqual(expect.arrayContaining(['high', 'critical', 'low']))
    items()
      .find((el) => el.textContent?.trim() === 'high')!
      .click()
    await flushPromises()
    expect(wrapper.emitted('change')).toEqual([[{ pci_compliant: true, severity: 'high' }]])
  })
})
