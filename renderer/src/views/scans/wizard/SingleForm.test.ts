import { flushPromises } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import OperationFormDialog from '@/components/kit/OperationFormDialog.vue'
import { byTestId, click, shown } from '@/test/dom'
import { answer, mountWizard, scan, serve, t, useWizardTests, writes } from './wizardTestKit'

useWizardTests()

/** Titles of the dialogs on screen. */
const openDialogs = () =>
  [...document.querySelectorAll<HTMLElement>('.el-overlay')]
    .filter((o) => o.style.display !== 'none')
    .map((o) => o.querySelector('.el-dialog__title')?.textContent?.trim())

describe('the single form, reached from inside the wizard', () => {
  it('opens the generic form of scans.create over the wizard', async () => {
    serve()
    await mountWizard()
    expect(openDialogs()).toEqual([])
    await click('scan-wizard-single-form')
    await flushPromises()
    expect(openDialogs()).toEqual(['New scan (single form)'])
    const form = byTestId('operation-form').find((f) => f.closest('.el-dialog'))!
    expect(form.querySelector('[data-field="name"]')).not.toBeNull()
    // Its pickers read their lists; nothing is written before Create.
    expect(writes().filter((c) => !c.op.endsWith('.list'))).toEqual([])
  })

  it('opens the new scan’s page once the form created it', async () => {
    serve({ 'scans.create': () => answer(scan('queued')) })
    const wrapper = await mountWizard()
    await click('scan-wizard-single-form')
    wrapper.findComponent(OperationFormDialog).vm.$emit('saved', scan('queued'))
    await vi.waitFor(() => expect(t.router.currentRoute.value.fullPath).toBe('/scans/scn-77'))
  })

  it('is not offered to a user who may not create scans', async () => {
    serve({
      'user.permissions': () =>
        answer({ data: { role: 'auditor', permissions: ['scans.read', 'targets.write'] } }),
    })
    await mountWizard()
    expect(shown('scan-wizard-single-form')).toBe(false)
  })
})
