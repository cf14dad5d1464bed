import { flushPromises } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { useAccountsStore } from '@/stores/accounts'
import { useSignInStore } from '@/stores/signIn'
import { installFakeScandesk, type FakeScandesk } from '@/test/fakeScandesk'
import { account, challengeExpired } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import SignInDialog from './SignInDialog.vue'
import { click, inputOf, shown, submitWith, theTestId, typeInto } from '@/test/dom'
import { challengeView } from './testing'

let fake: FakeScandesk
const signedOut = account('acct-aaaa', {
  label: 'Production',
  signedIn: false,
  rememberPassword: false,
  impersonating: null,
  hasCaBundle: false,
  awaitingReauth: false,
})

beforeEach(() => {
  fake = installFakeScandesk()
  fake.handle('accounts.cancelChallenge', () => ({ cancelled: true }))
  setActivePinia(createPinia())
  useAccountsStore()
  fake.emit('accounts.changed', { accounts: [signedOut], activeId: 'acct-aaaa' })
})
afterEach(() => {
  delete window.scandesk
  document.body.innerHTML = ''
})

async function openDialog() {
  const wrapper = mountWithApp(SignInDialog, {
    props: { accountId: 'acct-aaaa', modelValue: true },
  })
  await flushPromises()
  return wrapper
}

const signIns = () => fake.calls.filter((c) => c.channel === 'accounts.signIn')

describe('signing in to an account', () => {
  it('sends the password with the remember choice and closes when signed in', async () => {
    fake.handle('accounts.signIn', () => ({
      status: 'signedIn',
      account: { ...signedOut, signedIn: true, rememberPassword: true },
    }))
    const wrapper = await openDialog()
    await typeInto('sign-in-password', 'sandbox-password')
    await click('sign-in-remember')
    await submitWith('sign-in-submit')
    expect(signIns()[0].payload).toEqual({
      accountId: 'acct-aaaa',
      password: 'sandbox-password',
      remember: true,
    })
    expect(wrapper.emitted('update:modelValue')?.at(-1)).toEqual([false])
    expect(useAccountsStore().accounts[0].signedIn).toBe(true)
  })

  it('goes to the second factor, and back to an empty password when the sign-in took too long', async () => {
    fake.handle('accounts.signIn', () => ({ status: 'challenge', challenge: challengeView() }))
    fake.handle('accounts.secondFactor', challengeExpired)
    await openDialog()
    await typeInto('sign-in-password', 'sandbox-password')
    await submitWith('sign-in-submit')
    expect(shown('second-factor-step')).toBe(true)
    expect(shown('sign-in-password')).toBe(false)

    await typeInto('second-factor-code', '123456')
    await click('second-factor-submit')
    await new Promise((r) => setTimeout(r, 150)) // the form item shows its error after a debounce
    expect(shown('second-factor-step')).toBe(false)
    expect(inputOf('sign-in-password').value).toBe('')
    expect(document.querySelector('[data-testid="sign-in-dialog"]')?.textContent).toContain(
      'The sign-in took too long',
    )
    // Signing in again works from the fresh password step.
    await typeInto('sign-in-password', 'sandbox-password')
    await submitWith('sign-in-submit')
    expect(signIns()).toHaveLength(2)
  })

  it('refuses a 10,000-character password without sending it', async () => {
    await openDialog()
    await typeInto('sign-in-password', 'x'.repeat(10_000))
    await submitWith('sign-in-submit')
    await new Promise((r) => setTimeout(r, 150)) // the form item shows its error after a debounce
    expect(theTestId('sign-in-dialog').textContent).toContain('The password is too long.')
    expect(signIns()).toHaveLength(0)
  })

  it('asks main to send a password reset and shows its answer', async () => {
    fake.handle('accounts.requestPasswordReset', () => ({
      sent: true,
      message: 'A password reset e-mail is on its way to analyst@example.com.',
    }))
    await openDialog()
    await click('sign-in-forgot')
    expect(fake.calls.at(-1)).toEqual({
      channel: 'accounts.requestPasswordReset',
      payload: { accountId: 'acct-aaaa' },
    })
    expect(theTestId('sign-in-reset-message').textContent).toContain('on its way')
  })

  it('opens the link dialog from “Sign in with a link…”', async () => {
    const wrapper = await openDialog()
    await click('sign-in-with-link')
    expect(useSignInStore().linkDialogOpen).toBe(true)
    expect(wrapper.emitted('update:modelValue')?.at(-1)).toEqual([false])
  })
})
