import { flushPromises } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import { useAccountsStore } from '@/stores/accounts'
import { useFakeBridge } from '@/test/fakeApp'
import { Fail } from '@/test/fakeScandesk'
import { account, challengeExpired } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import AddAccountDialog from './AddAccountDialog.vue'
import { click, errorOfField, formSettled, inputOf, shown, theTestId, typeInto } from '@/test/dom'
import { challengeView } from './testing'

const fake = useFakeBridge(() => useAccountsStore())

async function open() {
  const wrapper = mountWithApp(AddAccountDialog, { props: { modelValue: true } })
  await flushPromises()
  return wrapper
}

async function fillValid(): Promise<void> {
  await typeInto('field-label', 'Production')
  await typeInto('field-base-url', 'https://scanner.example.com')
  await typeInto('field-api-key', 'key-123')
  await typeInto('field-username', 'analyst@example.com')
  await typeInto('field-password', 'not-the-password')
}

/** Submits and waits past the form's check (vee-validate runs it after 5 ms) and the call. */
async function submit(): Promise<void> {
  document.querySelector<HTMLButtonElement>('[data-testid="add-account-submit"]')!.click()
  await formSettled()
}

describe('the add-account dialog', () => {
  it('refuses an ftp:// URL as soon as the field is left', async () => {
    await open()
    await typeInto('field-base-url', 'ftp://scanner.example.com')
    expect(await errorOfField('baseUrl')).toMatch(/https:\/\/ or http:\/\//)
    expect(await errorOfField('label')).toBe('') // untouched fields stay quiet
  })

  it('refuses a URL that carries a user name and password', async () => {
    await open()
    await typeInto('field-base-url', 'https://admin:secret@scanner.example.com')
    expect(await errorOfField('baseUrl')).toMatch(/user name or password/)
    await typeInto('field-base-url', 'https://scanner.example.com')
    expect(await errorOfField('baseUrl')).toBe('')
  })

  it('shows every problem on submit and sends nothing', async () => {
    await open()
    await submit()
    expect(await errorOfField('label')).toMatch(/required/)
    expect(await errorOfField('apiKey')).toMatch(/required/)
    expect(fake.calls.some((c) => c.channel === 'accounts.add')).toBe(false)
  })

  it('shows the server’s refusal and keeps everything typed', async () => {
    fake.handle(
      'accounts.add',
      () => new Fail({ code: 'UNAUTHORIZED', message: 'The user name or password is wrong.' }),
    )
    await open()
    await fillValid()
    await submit()
    const error = document.querySelector('[data-testid="add-account-error"]')
    expect(error?.textContent).toContain('The user name or password is wrong.')
    expect(inputOf('field-label').value).toBe('Production')
    expect(inputOf('field-base-url').value).toBe('https://scanner.example.com')
    expect(inputOf('field-username').value).toBe('analyst@example.com')
    expect(inputOf('field-password').value).toBe('not-the-password')
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
    await submit()
    expect(await errorOfField('label')).toBe('Label is already used by another account')
    expect(inputOf('field-label').value).toBe('Production')
  })

  it('closes and reports the new account when main accepts it', async () => {
    const added = account('acct-new1', { label: 'Production' })
    fake.handle('accounts.add', () => ({ status: 'signedIn', account: added }))
    fake.handle('accounts.setActive', () => ({ accounts: [added], activeId: 'acct-new1' }))
    const wrapper = await open()
    await fillValid()
    await submit()
    expect(wrapper.emitted('added')?.[0]).toEqual([added])
    expect(wrapper.emitted('update:modelValue')?.at(-1)).toEqual([false])
  })
})

function sent(): Record<string, unknown> | undefined {
  return fake.calls.find((c) => c.channel === 'accounts.add')?.payload as
    Record<string, unknown> | undefined
}

describe('signing in with an access token', () => {
  it('sends the token, no password and no remember choice, with an empty user name allowed', async () => {
    const added = account('acct-tok1', { label: 'Production', authMethod: 'access_token' })
    fake.handle('accounts.add', () => ({ status: 'signedIn', account: added }))
    fake.handle('accounts.setActive', () => ({ accounts: [added], activeId: 'acct-tok1' }))
    const wrapper = await open()
    await typeInto('field-label', 'Production')
    await typeInto('field-base-url', 'https://scanner.example.com')
    await typeInto('field-api-key', 'key-123')
    await typeInto('field-password', 'typed-before-switching')
    await click('auth-method-access-token')
    expect(shown('field-password')).toBe(false)
    await typeInto('field-access-token', 'tok-abc-123')
    await submit()
    const payload = sent()
    expect(payload).toMatchObject({ authMethod: 'access_token', accessToken: 'tok-abc-123' })
    expect(payload).not.toHaveProperty('password')
    expect(payload).not.toHaveProperty('rememberPassword')
    expect(JSON.stringify(payload)).not.toContain('typed-before-switching')
    expect(wrapper.emitted('added')?.[0]).toEqual([added])
  })

  it('requires the token', async () => {
    await open()
    await click('auth-method-access-token')
    await submit()
    expect(await errorOfField('accessToken')).toBe('Access token is required')
    expect(sent()).toBeUndefined()
  })
})

describe('remembering the password', () => {
  it('is off unless the user ticks it', async () => {
    fake.handle('accounts.add', () => new Fail({ code: 'UNAUTHORIZED', message: 'no' }))
    await open()
    await fillValid()
    await submit()
    expect(sent()).toMatchObject({ authMethod: 'password', rememberPassword: false })
    await click('field-remember-password')
    await submit()
    expect(fake.calls.filter((c) => c.channel === 'accounts.add').at(-1)?.payload).toMatchObject({
      rememberPassword: true,
    })
  })
})

describe('oversized input', () => {
  it('refuses 10,000 characters in a field with that field’s message and sends nothing', async () => {
    await open()
    await fillValid()
    await typeInto('field-label', 'L'.repeat(10_000))
    await typeInto('field-username', 'u'.repeat(10_000))
    await submit()
    expect(await errorOfField('label')).toBe('Label is longer than 80 characters')
    expect(await errorOfField('username')).toBe('User name is too long')
    expect(sent()).toBeUndefined()
  })
})

describe('a user with two-factor sign-in', () => {
  it('switches to the second factor and adds the account once the code is accepted', async () => {
    const added = account('acct-2fa1', { label: 'Production' })
    fake.handle('accounts.add', () => ({
      status: 'challenge',
      challenge: challengeView({ accountId: null, challengeId: 'chal-add-000000000001' }),
    }))
    fake.handle('accounts.secondFactor', () => ({ status: 'signedIn', account: added }))
    fake.handle('accounts.setActive', () => ({ accounts: [added], activeId: 'acct-2fa1' }))
    const wrapper = await open()
    await fillValid()
    await submit()
    expect(shown('second-factor-step')).toBe(true)
    expect(shown('field-label')).toBe(false)
    await typeInto('second-factor-code', '654321')
    await click('second-factor-submit')
    expect(wrapper.emitted('added')?.[0]).toEqual([added])
    expect(useAccountsStore().activeId).toBe('acct-2fa1')
  })

  it('returns to the form with an empty password when the challenge expired', async () => {
    fake.handle('accounts.add', () => ({
      status: 'challenge',
      challenge: challengeView({ accountId: null }),
    }))
    fake.handle('accounts.secondFactor', challengeExpired)
    await open()
    await fillValid()
    await submit()
    await typeInto('second-factor-code', '654321')
    await click('second-factor-submit')
    expect(shown('second-factor-step')).toBe(false)
    expect(inputOf('field-password').value).toBe('')
    expect(inputOf('field-label').value).toBe('Production')
    expect(theTestId('add-account-error').textContent).toContain('took too long')
  })
})

describe('detecting the release', () => {
  it('probes with the URL and API key, sets the release and shows the evidence', async () => {
    fake.handle('accounts.detectRelease', () => ({
      release: '5.3.0',
      evidence: ['scans.upcoming: present', 'saq.list: missing (404)'],
    }))
    await open()
    await typeInto('field-base-url', 'https://scanner.example.com')
    await typeInto('field-api-key', 'key-123')
    await click('detect-release')
    await formSettled()
    expect(fake.calls.find((c) => c.channel === 'accounts.detectRelease')?.payload).toEqual({
      baseUrl: 'https://scanner.example.com',
      apiKey: 'key-123',
    })
    expect(theTestId('detect-evidence').textContent).toContain('saq.list: missing (404)')
    expect(theTestId('detect-result').textContent).toContain('5.3.0')
    expect(theTestId('field-release').textContent).toContain('5.3.0')
  })

  it('does not probe without a valid URL', async () => {
    await open()
    await typeInto('field-base-url', 'ftp://scanner.example.com')
    await click('detect-release')
    await formSettled()
    expect(fake.calls.some((c) => c.channel === 'accounts.detectRelease')).toBe(false)
    expect(await errorOfField('baseUrl')).toMatch(/https:\/\//)
  })
})

const PEM = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n'

async function pick(name: string, text: string): Promise<void> {
  const el = theTestId<HTMLInputElement>('field-ca-bundle')
  Object.defineProperty(el, 'files', {
    configurable: true,
    value: [new File([text], name, { type: 'application/x-pem-file' })],
  })
  el.dispatchEvent(new Event('change'))
  // FileReader answers on its own schedule; the field says when it has finished.
  await flushPromises()
  await vi.waitFor(() => expect(theTestId('ca-bundle').getAttribute('aria-busy')).toBe('false'))
  await flushPromises()
}

describe('a custom CA bundle', () => {
  it('sends a PEM file’s text with the account, and nothing once removed', async () => {
    fake.handle('accounts.add', () => new Fail({ code: 'UNAUTHORIZED', message: 'no' }))
    await open()
    await fillValid()
    await pick('corp-ca.pem', PEM)
    expect(theTestId('ca-bundle-name').textContent).toContain('corp-ca.pem')
    await submit()
    expect(sent()?.caBundle).toBe(PEM)
    await click('ca-bundle-clear')
    await submit()
    expect(
      fake.calls.filter((c) => c.channel === 'accounts.add').at(-1)?.payload,
    ).not.toHaveProperty('caBundle')
  })

  it('refuses a file without a certificate and blocks the form until it is fixed', async () => {
    await open()
    await fillValid()
    await pick('notes.crt', 'just some text')
    expect(await errorOfField('caBundle')).toMatch(/PEM certificate/)
    await submit()
    expect(sent()).toBeUndefined()
  })
})
