import { flushPromises } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ReauthRequest } from '@contract/sessions'
import { useAccountsStore } from '@/stores/accounts'
import { Fail, installFakeScandesk, type FakeScandesk } from '@/test/fakeScandesk'
import { account } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import ReauthPrompt from './ReauthPrompt.vue'
import { click, inputOf, shown, submitWith, theTestId, typeInto } from '@/test/dom'
import { challengeView } from './testing'

let fake: FakeScandesk

function reauth(accountId: string, label: string, waiting: number): ReauthRequest {
  return { accountId, label, username: 'analyst@example.com', waiting, reason: 'session ended' }
}
const prod = account('acct-aaaa', { label: 'Production', awaitingReauth: true })
const lab = account('acct-bbbb', { label: 'Lab', awaitingReauth: true })

beforeEach(async () => {
  fake = installFakeScandesk()
  fake.handle('accounts.cancelChallenge', () => ({ cancelled: true }))
  setActivePinia(createPinia())
  useAccountsStore()
  fake.emit('accounts.changed', { accounts: [prod, lab], activeId: 'acct-aaaa' })
  mountWithApp(ReauthPrompt)
  await flushPromises()
})
afterEach(() => {
  delete window.scandesk
  document.body.innerHTML = ''
})

const prompts = () => document.querySelectorAll('[data-testid="reauth-message"]').length
const message = () => theTestId('reauth-message').textContent?.replace(/\s+/g, ' ').trim()

describe('the re-authentication prompt', () => {
  it('shows one prompt for two events of the same account, with the newest waiting count', async () => {
    expect(prompts()).toBe(0)
    fake.emit('accounts.reauthRequired', reauth('acct-aaaa', 'Production', 1))
    fake.emit('accounts.reauthRequired', reauth('acct-aaaa', 'Production', 3))
    await flushPromises()
    expect(prompts()).toBe(1)
    expect(message()).toBe(
      'Your session with Production ended. Sign in again to continue (3 requests are waiting).',
    )
    // Settling it once settles it: no second prompt for the same account follows.
    fake.handle('accounts.cancelReauth', () => ({ cancelled: 3 }))
    await click('reauth-cancel')
    expect(prompts()).toBe(0)
    expect(fake.calls.filter((c) => c.channel === 'accounts.cancelReauth')).toHaveLength(1)
  })

  it('queues another account’s prompt until the first is settled', async () => {
    fake.handle('accounts.signIn', (p: { accountId: string }) => ({
      status: 'signedIn',
      account: account(p.accountId, { label: 'Production', awaitingReauth: false }),
    }))
    fake.emit('accounts.reauthRequired', reauth('acct-aaaa', 'Production', 2))
    fake.emit('accounts.reauthRequired', reauth('acct-bbbb', 'Lab', 1))
    await flushPromises()
    expect(prompts()).toBe(1)
    expect(message()).toContain('Production')

    await typeInto('reauth-password', 'sandbox-password')
    await submitWith('reauth-submit')
    expect(fake.calls.find((c) => c.channel === 'accounts.signIn')?.payload).toEqual({
      accountId: 'acct-aaaa',
      password: 'sandbox-password',
    })
    expect(message()).toBe(
      'Your session with Lab ended. Sign in again to continue (1 request is waiting).',
    )
    expect(inputOf('reauth-password').value).toBe('')
  })

  it('cancels through main, which fails the waiting calls', async () => {
    fake.handle('accounts.cancelReauth', () => ({ cancelled: 2 }))
    fake.emit('accounts.reauthRequired', reauth('acct-aaaa', 'Production', 2))
    await flushPromises()
    await click('reauth-cancel')
    expect(fake.calls.at(-1)).toEqual({
      channel: 'accounts.cancelReauth',
      payload: { accountId: 'acct-aaaa' },
    })
    await flushPromises()
    expect(prompts()).toBe(0)
  })

  it('asks for the second factor when the sign-in is challenged, then closes', async () => {
    fake.handle('accounts.signIn', () => ({
      status: 'challenge',
      challenge: challengeView({ accountId: 'acct-aaaa' }),
    }))
    fake.handle('accounts.secondFactor', () => ({
      status: 'signedIn',
      account: account('acct-aaaa', { label: 'Production', awaitingReauth: false }),
    }))
    fake.emit('accounts.reauthRequired', reauth('acct-aaaa', 'Production', 1))
    await flushPromises()
    await typeInto('reauth-password', 'sandbox-password')
    await submitWith('reauth-submit')
    expect(shown('second-factor-step')).toBe(true)
    await typeInto('second-factor-code', '123456')
    await click('second-factor-submit')
    expect(prompts()).toBe(0)
  })

  it('keeps the prompt and says why when the password is wrong', async () => {
    fake.handle(
      'accounts.signIn',
      () => new Fail({ code: 'UNAUTHORIZED', message: 'The user name or password is wrong.' }),
    )
    fake.emit('accounts.reauthRequired', reauth('acct-aaaa', 'Production', 1))
    await flushPromises()
    await typeInto('reauth-password', 'nope-nope')
    await submitWith('reauth-submit')
    await new Promise((r) => setTimeout(r, 150))
    expect(prompts()).toBe(1)
    expect(theTestId('reauth-prompt').textContent).toContain('password is wrong')
  })

  it('goes away when the account stops waiting (signed in from another window)', async () => {
    fake.emit('accounts.reauthRequired', reauth('acct-aaaa', 'Production', 1))
    await flushPromises()
    fake.emit('accounts.changed', {
      accounts: [{ ...prod, awaitingReauth: false }, lab],
      activeId: 'acct-aaaa',
    })
    await flushPromises()
    expect(prompts()).toBe(0)
  })
})
