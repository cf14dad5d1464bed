import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { resourceByKey } from '@/resources'
import { apiCalls, listAnswer, useTwoAccounts } from '@/test/composables'
import { mountWithApp } from '@/test/mountApp'
import ResourcePicker from './ResourcePicker.vue'

const fake = useTwoAccounts()

async function openPicker(): Promise<void> {
  mountWithApp(ResourcePicker, {
    props: { resource: resourceByKey('targets')!, modelValue: null },
  })
  await flushPromises()
  document.querySelector<HTMLElement>('.el-select__wrapper')!.click()
  await flushPromises()
}

describe('a pick list over another resource', () => {
  it('says its choices are the offline copy, and of when', async () => {
    fake.handle('api.call', () => listAnswer('T', 2, 2, true))
    await openPicker()
    // The copy's time (2030) is ahead of this clock: it reads "now".
    expect(document.querySelector('[data-testid="data-freshness"]')?.textContent?.trim()).toBe(
      'Offline copy · as of now',
    )
  })

  it('says nothing about an answer of the service', async () => {
    fake.handle('api.call', () => listAnswer('T', 2))
    await openPicker()
    expect(document.body.textContent).toContain('T 1')
    expect(document.querySelector('[data-testid="data-freshness"]')).toBeNull()
  })
})

describe('a pick list asks for its choices', () => {
  const targetReads = () => apiCalls(fake).filter((c) => c.op === 'targets.list')

  it('only once it is opened, not when it is drawn (nor its dropdown)', async () => {
    fake.handle('api.call', () => listAnswer('T', 2))
    mountWithApp(ResourcePicker, {
      props: { resource: resourceByKey('targets')!, modelValue: null },
    })
    await flushPromises()
    expect(targetReads()).toHaveLength(0)
    expect(document.querySelector('.el-select-dropdown')).toBeNull()
    document.querySelector<HTMLElement>('.el-select__wrapper')!.click()
    await flushPromises()
    expect(targetReads()).toHaveLength(1)
    expect(document.body.textContent).toContain('T 1')
    expect(document.querySelector('.el-select-dropdown')).not.toBeNull()
  })

  it('at once when it starts with a value, to show that value by its name', async () => {
    fake.handle('api.call', () => listAnswer('T', 2))
    const picker = mountWithApp(ResourcePicker, {
      props: { resource: resourceByKey('targets')!, modelValue: 'T-2' },
    })
    await flushPromises()
    expect(targetReads()).toHaveLength(1)
    expect(picker.text()).toContain('T 2')
    expect(picker.text()).not.toContain('T-2')
  })
})
