import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { useTwoAccounts } from '@/test/composables'
import { mountWithApp } from '@/test/mountApp'
import DueFilterControl from './DueFilterControl.vue'

useTwoAccounts()
const items = () => [...document.querySelectorAll<HTMLElement>('.el-select-dropdown__item')]

describe('the due filter', () => {
  it('says "Any due date" when none is chosen, and makes its menu only when opened', async () => {
    const wrapper = mountWithApp(DueFilterControl, {
      props: { filter: null, needsSeverity: false, noDueDate: false },
    })
    await flushPromises()
    expect(wrapper.text()).toContain('Any due date')
    expect(items()).toHaveLength(0)
    wrapper.find<HTMLElement>('.el-select__wrapper').element.click()
    await flushPromises()
    expect(items().map((el) => el.textContent?.trim())).toEqual([
      'Any due date',
      'Overdue',
      'Due within 7 days',
      'Due within 14 days',
      'Due within 30 days',
    ])
    items()
      .find((el) => el.textContent?.trim() === 'Overdue')!
      .click()
    await flushPromises()
    expect(wrapper.emitted('change')).toEqual([[{ kind: 'overdue' }]])
  })

  it('names a chosen filter by its words', async () => {
    const wrapper = mountWithApp(DueFilterControl, {
      props: { filter: { kind: 'due_within', days: 45 }, needsSeverity: false, noDueDate: false },
    })
    await flushPromises()
    expect(wrapper.text()).toContain('Due within 45 days')
  })
})
