import { flushPromises } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { LinkView } from '@contract/sessions'
import { useAccountsStore } from '@/stores/accounts'
import { useSignInStore } from '@/stores/signIn'
import { Fail, installFakeScandesk, type FakeScandesk } from '@/test/fakeScandesk'
import { account } from '@/test/fixtures'
import { mountWithApp } from '@/test/mountApp'
import OpenLinkDialog from './OpenLinkDialog.vue'
import { click, errorUnder, shown, submitWith, theTestId, typeInto } from '@/test/dom'
import { challengeView } from './testing'

let fake: FakeScandesk
const LINK_ID = 'link-000000000000000001'

function linkView(extra: Partial<LinkView> = {}): LinkView {
  return {
    linkId: LINK_ID,
    kind: 'sso',
    host: 'scanner.example.com',
    accountIds: ['acct-aaaa'],
    needsPassword: false,
    ...extra,
  }
}

beforeEach(async () => {
  fake = installFakeScandesk()
  fake.handle('links.dismiss', () => ({ dismissed: true }))
  fake.handle('accounts.cancelChallenge', () => ({ cancelled: true }))
  setActivePinia(createPinia())
  useAccountsStore()
  fake.emit('accounts.changed', {
    accounts: [
      account('acct-aaaa', { label: 'Production', signedIn: false }),
      account('acct-bbbb', { label: 'Production (audit)' }),
    ],
    activeId: 'acct-bbbb',
  })
  mountWithApp(OpenLinkDialog)
  await flushPromises()
})
afterEach(() => {
  delete window.scandesk
  document.body.innerHTML = ''
})

async function openAndPaste(text: string): Promise<void> {
  useSignInStore().openLinkDialog()
  await flushPromises()
  await typeInto('link-input', text)
  await click('link-submit')
}

const opens = () => fake.calls.filter((c) => c.channel === 'links.open')
const completes = () => fake.calls.filter((c) => c.channel === 'links.complete')

describe('opening a pasted link', () => {
  it('says plainly that a link for a host no account uses cannot be used', async () => {
    fake.handle(
      'links.open',
      () =>
        new Fail({
          code: 'VALIDATION',
          message: 'No account in ScanDesk uses evil.example.net; add that account first.',
        }),
    )
    await openAndPaste('scandesk://sso?host=evil.example.net&token=abcdefgh12345678')
    expect(theTestId('link-error').textContent).toContain(
      'No account in ScanDesk uses evil.example.net; add that account first.',
    )
    expect(shown('link-complete')).toBe(false)
    expect(shown('link-input')).toBe(true)
  })

  it('refuses a malformed link as it is pasted and sends nothing', async () => {
    useSignInStore().openLinkDialog()
    await flushPromises()
    await typeInto('link-input', 'https://scanner.example.com/sso?token=abcdefgh12345678')
    expect(theTestId('link-error').textContent).toContain('Only scandesk:// links')
    await typeInto('link-input', 'scandesk://sso?host=scanner.example.com&token=short')
    expect(theTestId('link-error').textContent).toContain('token is missing or malformed')
    await click('link-submit')
    expect(opens()).toHaveLength(0)
  })

  it('signs the right account in with an SSO link', async () => {
    fake.handle('links.open', () => linkView())
    fake.handle('links.complete', () => ({
      kind: 'sso',
      outcome: { status: 'signedIn', account: account('acct-aaaa', { label: 'Production' }) },
    }))
    await openAndPaste('scandesk://sso?host=scanner.example.com&token=abcdefgh12345678')
    expect(opens()[0].payload).toEqual({
      link: 'scandesk://sso?host=scanner.example.com&token=abcdefgh12345678',
    })
    expect(theTestId('link-what').textContent).toContain('signs you in to')
    expect(theTestId('link-account').textContent).toContain('Production')
    await submitWith('link-complete')
    expect(completes()[0].payload).toEqual({ linkId: LINK_ID, accountId: 'acct-aaaa' })
    expect(theTestId('link-result').textContent).toContain('Signed in to Production.')
    expect(useAccountsStore().accounts.find((a) => a.id === 'acct-aaaa')?.signedIn).toBe(true)
  })

  it('continues with the second factor when the SSO sign-in is challenged', async () => {
    fake.handle('links.open', () => linkView())
    fake.handle('links.complete', () => ({
      kind: 'sso',
      outcome: { status: 'challenge', challenge: challengeView() },
    }))
    fake.handle('accounts.secondFactor', () => ({
      status: 'signedIn',
      account: account('acct-aaaa', { label: 'Production' }),
    }))
    await openAndPaste('scandesk://sso?host=scanner.example.com&token=abcdefgh12345678')
    await submitWith('link-complete')
    expect(shown('second-factor-step')).toBe(true)
    await typeInto('second-factor-code', '123456')
    await click('second-factor-submit')
    expect(theTestId('link-result').textContent).toContain('Signed in to Production.')
  })
})

describe('links that set a password', () => {
  it('lets the user choose among the matching accounts and checks the new password', async () => {
    fake.emit(
      'links.opened',
      linkView({ kind: 'invite', accountIds: ['acct-aaaa', 'acct-bbbb'], needsPassword: true }),
    )
    await flushPromises()
    fake.handle('links.complete', () => ({
      kind: 'invite',
      accountId: 'acct-bbbb',
      message: 'The invitation is accepted; sign in with your new password.',
    }))
    expect(shown('open-link-dialog')).toBe(true)
    expect(theTestId('link-what').textContent).toContain('accepts an invitation to')
    // The active account is among them, so it is chosen first.
    expect(theTestId('link-account').textContent).toContain('Production (audit)')
    theTestId('link-account').querySelector<HTMLElement>('.el-select__wrapper')!.click()
    await flushPromises()
    const options = [...document.querySelectorAll<HTMLElement>('.el-select-dropdown__item')]
    expect(options.map((o) => o.textContent?.trim())).toEqual(['Production', 'Production (audit)'])
    options[0].click()
    await flushPromises()

    await typeInto('link-password', 'a-new-password-1')
    await typeInto('link-password-confirm', 'a-new-password-1')
    await submitWith('link-complete')
    expect(await errorUnder('link-first-name')).toBe('First name is required')
    expect(await errorUnder('link-last-name')).toBe('Last name is required')
    expect(completes()).toHaveLength(0)
    await typeInto('link-first-name', 'Ivy')
    await typeInto('link-last-name', 'Invited')

    await typeInto('link-password', 'a-new-password-1')
    await typeInto('link-password-confirm', 'a-different-one-2')
    await submitWith('link-complete')
    expect(await errorUnder('link-password-confirm')).toContain('not the same')
    expect(completes()).toHaveLength(0)

    await typeInto('link-password', 'short')
    await typeInto('link-password-confirm', 'short')
    await submitWith('link-complete')
    expect(await errorUnder('link-password')).toContain('at least 10 characters')
    expect(completes()).toHaveLength(0)

    await typeInto('link-password', 'a-new-password-1')
    await typeInto('link-password-confirm', 'a-new-password-1')
    await submitWith('link-complete')
    expect(completes()[0].payload).toEqual({
      linkId: LINK_ID,
      accountId: 'acct-aaaa',
      password: 'a-new-password-1',
      firstName: 'Ivy',
      lastName: 'Invited',
    })
    expect(theTestId('link-result').textContent).toContain('invitation is accepted')
    expect(document.querySelector('[data-testid="link-password"]')).toBeNull()
  })

  it('dismisses a link that was opened but not used', async () => {
    fake.emit('links.opened', linkView({ kind: 'reset', needsPassword: true }))
    await flushPromises()
    useSignInStore().closeLinkDialog()
    await flushPromises()
    expect(fake.calls.at(-1)).toEqual({ channel: 'links.dismiss', payload: { linkId: LINK_ID } })
  })
})
