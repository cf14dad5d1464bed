import { flushPromises } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { useAccountsStore } from '@/stores/accounts'
import { Fail, installFakeScandesk, type FakeScandesk } from '@/test/fakeScandesk'
import { account } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import AddAccountDialog from './AddAccountDialog.vue'

let fake: FakeScandesk

beforeEach(() => {
  fake = installFakeScandesk()
  setActivePinia(createPinia())
  useAccountsStore()
})
afterEach(() => {
  delete window.scandesk
  document.body.innerHTML = ''
})

function input(testId: string): HTMLInputElement {
  const el = document.querySelector<HTMLInputElement>(`input[data-testid="${testId}"]`)
  if (!el) throw new Error(`no input ${testId}`)
  return el
}

async function type(testId: string, value: string): Promise<void> {
  const el = input(testId)
  el.value = value
  el.dispatchEvent(new Event('input'))
  el.dispatchEvent(new Event('blur'))
  await flushPromises()
}

// Element Plus shows a form item's message after a short debounce.
async function errorOf(field: string): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 150))
  await flushPromises()
  const el = document.querySelector(`[data-field="${field}"] .el-form-item__error`)
  return el?.textContent?.trim() ?? ''
}

async function open() {
  const wrapper = mountWithApp(AddAccountDialog, { props: { modelValue: true } })
  await flushPromises()
  return wrapper
}

async function fillValid(): Promise<void> {
  await type('field-label', 'Production')
  await type('field-base-url', 'https://scanner.example.com')
  await type('field-api-key', 'key-123')
  await type('field-username', 'analyst@example.com')
  await type('field-password', 'not-the-password')
}

function submit(): void {
  document.querySelector<HTMLButtonElement>('[data-testid="add-account-submit"]')!.click()
}

describe('the add-account dialog', () => {
  it('refuses an ftp:// URL as soon as the field is left', async () => {
    await open()
    await type('field-base-url', 'ftp://scanner.example.com')
    expect(await errorOf('baseUrl')).toMatch(/https:\/\/ or http:\/\//)
    expect(await errorOf('label')).toBe('') // untouched fields stay quiet
  })

  it('refuses a URL that carries a user name and password', async () => {
    await open()
    await type('field-base-url', 'https://admin:secret@scanner.example.com')
    expect(await errorOf('baseUrl')).toMatch(/user name or password/)
    await type('field-base-url', 'https://scanner.example.com')
    expect(await errorOf('baseUrl')).toBe('')
  })

  it('shows every problem on submit and sends nothing', async () => {
    await open()
    submit()
    await flushPromises()
    expect(await errorOf('label')).toMatch(/required/)
    expect(await errorOf('apiKey')).toMatch(/required/)
    expect(fake.calls.some((c) => c.channel === 'accounts.add')).toBe(false)
  })

  it('shows the server’s refusal and keeps everything typed', async () => {
    fake.handle(
      'accounts.add',
      () => new Fail({ code: 'UNAUTHORIZED', message: 'The user name or password is wrong.' }),
    )
    await open()
    await fillValid()
    submit()
    await flushPromises()
    const error = document.querySelector('[data-testid="add-account-error"]')
    expect(error?.textContent).toContain('The user name or password is wrong.')
    expect(input('field-label').value).toBe('Production')
    expect(input('field-base-url').value).toBe('https://scanner.example.com')
    expect(input('field-username').value).toBe('analyst@example.com')
    expect(input('field-password').value).toBe('not-the-password')
    expect(fake.calls.find((c) => c.channel === 'accounts.add')?.payload).toMatchObject({
      label: 'Production',
      baseUrl: 'https://scanner.example.com',
      release: 'latest',
    })
  })

  it('puts the server’s field errors under their fields', async () => {
    fake.handle(
      'accounts.add',
      () =>
        new Fail({
          code: 'VALIDATION',
          message: 'The request is not valid.',
          fieldErrors: { label: ['is already used by another account'] },
        }),
    )
    await open()
    await fillValid()
    submit()
    await flushPromises()
    expect(await errorOf('label')).toBe('Label is already used by another account')
    expect(input('field-label').value).toBe('Production')
  })

  it('closes and reports the new account when main accepts it', async () => {
    const added = account('acct-new1', { label: 'Production' })
    fake.handle('accounts.add', () => added)
    fake.handle('accounts.setActive', () => ({ accounts: [added], activeId: 'acct-new1' }))
    const wrapper = await open()
    await fillValid()
    submit()
    await flushPromises()
    expect(wrapper.emitted('added')?.[0]).toEqual([added])
    expect(wrapper.emitted('update:modelValue')?.at(-1)).toEqual([false])
  })
})
