import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { useAppStore } from '@/stores/app'
import { catchAllRouter as router } from '@/test/composables'
import { useFakeApp } from '@/test/fakeApp'
import { account, browserAppInfo } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import VerifyFileDialog from './VerifyFileDialog.vue'

const fake = useFakeApp({
  // The dialog is for another account than the window's, so ids are typed (no service list).
  accounts: () => [account('acct-aaaa'), account('acct-bbbb')],
  store: 'app',
  setup: (fake) => {
    fake.handle('app.info', browserAppInfo)
    fake.handle('library.verifyFile', () => ({
      path: '/home/me/saq.pdf',
      size: 10,
      sha256: 'a'.repeat(64),
      match: true,
      message: 'This file is exactly the PDF of “Shop” as ScanDesk downloaded it on 2030-01-01.',
    }))
  },
})

const el = <T extends HTMLElement>(id: string) =>
  document.querySelector<T>(`[data-testid="${id}"]`)!

async function type(id: string, value: string): Promise<void> {
  const input = el(id).querySelector('input') ?? (el(id) as HTMLInputElement)
  ;(input as HTMLInputElement).value = value
  input.dispatchEvent(new Event('input'))
  await flushPromises()
}

describe('verifying a file by hand', () => {
  it('checks an SAQ’s PDF (PDF only) and shows the answer', async () => {
    await useAppStore().load()
    const wrapper = mountWithApp(VerifyFileDialog, {
      props: { modelValue: true },
      global: { plugins: [router()] },
    })
    await flushPromises()
    wrapper.findComponent({ name: 'ElSelect' }).vm.$emit('update:modelValue', 'acct-bbbb')
    await flushPromises()
    const kinds = [...el('verify-kind').querySelectorAll<HTMLInputElement>('input[type="radio"]')]
    kinds.find((r) => r.value === 'saq')!.click()
    await flushPromises()
    const csv = [...document.querySelectorAll<HTMLInputElement>('input[type="radio"]')].find(
      (r) => r.value === 'csv',
    )!
    expect(csv.disabled).toBe(true)
    expect(document.body.textContent).toContain('The service offers no check for SAQ files')
    await type('verify-report-id', 'saq-001')
    await type('verify-path', '/home/me/saq.pdf')
    el('verify-submit').click()
    await flushPromises()
    const call = fake.calls.find((c) => c.channel === 'library.verifyFile')
    expect(call?.payload).toMatchObject({
      accountId: 'acct-bbbb',
      kind: 'saq',
      resourceId: 'saq-001',
      format: 'pdf',
      path: '/home/me/saq.pdf',
    })
    expect(el('verify-result').textContent).toContain('as ScanDesk downloaded it')
  })
})
