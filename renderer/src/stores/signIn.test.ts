import { describe, expect, it } from 'vitest'
import type { ChallengeView, ReauthRequest } from '@contract/sessions'
import { useFakeBridge } from '@/test/fakeApp'
import { Fail } from '@/test/fakeScandesk'
import { account } from '@/test/fixtures'
import { useAccountsStore } from './accounts'
import { useSignInStore } from './signIn'

const fake = useFakeBridge()

const challenge: ChallengeView = {
  challengeId: 'chal-0000000000000001',
  accountId: 'acct-aaaa',
  label: 'Production',
  username: 'sms@example.com',
  methods: ['sms', 'recovery'],
  defaultMethod: 'sms',
  expiresAt: '2030-01-01T00:05:00Z',
  phoneHint: null,
  smsResendAt: null,
}

function reauth(accountId: string, waiting: number): ReauthRequest {
  return { accountId, label: accountId, username: 'u', waiting, reason: 'session ended' }
}

describe('second-factor challenges', () => {
  it('keeps a challenge after a wrong code and forgets it once it expired', async () => {
    fake.handle('accounts.signIn', () => ({ status: 'challenge', challenge }))
    const store = useSignInStore()
    await store.signIn('acct-aaaa', 'pw')
    expect(Object.keys(store.challenges)).toEqual([challenge.challengeId])

    fake.handle('accounts.secondFactor', () => new Fail({ code: 'UNAUTHORIZED', message: 'no' }))
    await store.submitCode(challenge, 'sms', '111111')
    expect(Object.keys(store.challenges)).toEqual([challenge.challengeId])

    fake.handle(
      'accounts.secondFactor',
      () => new Fail({ code: 'CHALLENGE_EXPIRED', message: 'The sign-in took too long.' }),
    )
    await store.submitCode(challenge, 'sms', '222222')
    expect(store.challenges).toEqual({})
  })

  it('takes the masked phone and resend time from an SMS send', async () => {
    fake.handle('accounts.sendSms', () => ({
      ...challenge,
      phoneHint: '+44 •••• ••8750',
      smsResendAt: '2030-01-01T00:01:00Z',
    }))
    const store = useSignInStore()
    await store.sendSms(challenge.challengeId)
    expect(store.challenges[challenge.challengeId]).toMatchObject({
      phoneHint: '+44 •••• ••8750',
      smsResendAt: '2030-01-01T00:01:00Z',
    })
  })
})

describe('re-authentication requests', () => {
  it('keeps one request per account, in arrival order', () => {
    const store = useSignInStore()
    fake.emit('accounts.reauthRequired', reauth('acct-aaaa', 1))
    fake.emit('accounts.reauthRequired', reauth('acct-bbbb', 1))
    fake.emit('accounts.reauthRequired', reauth('acct-aaaa', 4))
    expect(store.reauthQueue.map((r) => [r.accountId, r.waiting])).toEqual([
      ['acct-aaaa', 4],
      ['acct-bbbb', 1],
    ])
    expect(store.currentReauth?.accountId).toBe('acct-aaaa')
  })

  it('ends an account’s request when it signs in, and only that one', async () => {
    fake.handle('accounts.signIn', () => ({
      status: 'signedIn',
      account: account('acct-bbbb'),
    }))
    const store = useSignInStore()
    fake.emit('accounts.reauthRequired', reauth('acct-aaaa', 1))
    fake.emit('accounts.reauthRequired', reauth('acct-bbbb', 1))
    await store.signIn('acct-bbbb', 'pw')
    expect(store.reauthQueue.map((r) => r.accountId)).toEqual(['acct-aaaa'])
  })

  it('keeps the request when main could not cancel it', async () => {
    fake.handle('accounts.cancelReauth', () => new Fail({ code: 'INTERNAL', message: 'busy' }))
    const store = useSignInStore()
    fake.emit('accounts.reauthRequired', reauth('acct-aaaa', 1))
    const result = await store.cancelReauth('acct-aaaa')
    expect(result.ok).toBe(false)
    expect(store.reauthQueue).toHaveLength(1)
  })

  it('drops the request of an account that was removed', async () => {
    const accounts = useAccountsStore()
    const store = useSignInStore()
    fake.emit('accounts.changed', {
      accounts: [account('acct-aaaa', { awaitingReauth: true })],
      activeId: 'acct-aaaa',
    })
    fake.emit('accounts.reauthRequired', reauth('acct-aaaa', 1))
    expect(store.reauthQueue).toHaveLength(1)
    fake.emit('accounts.changed', { accounts: [], activeId: null })
    expect(accounts.accounts).toEqual([])
    expect(store.reauthQueue).toEqual([])
  })
})

describe('links', () => {
  const view = {
    linkId: 'link-000000000000000001',
    kind: 'confirm',
    host: 'scanner.example.com',
    accountIds: ['acct-aaaa'],
    needsPassword: false,
  }

  it('opens the dialog on a link from the OS and dismisses the one it replaces', () => {
    fake.handle('links.dismiss', () => ({ dismissed: true }))
    const store = useSignInStore()
    fake.emit('links.opened', view)
    expect(store.linkDialogOpen).toBe(true)
    expect(store.link?.linkId).toBe(view.linkId)
    fake.emit('links.opened', { ...view, linkId: 'link-000000000000000002' })
    expect(fake.calls).toEqual([{ channel: 'links.dismiss', payload: { linkId: view.linkId } }])
  })

  it('does not dismiss a link once it was used', async () => {
    fake.handle('links.complete', () => ({
      kind: 'confirm',
      accountId: 'acct-aaaa',
      message: 'Confirmed.',
    }))
    const store = useSignInStore()
    fake.emit('links.opened', view)
    await store.completeLink('acct-aaaa')
    store.closeLinkDialog()
    expect(fake.calls.map((c) => c.channel)).toEqual(['links.complete'])
    expect(store.link).toBeNull()
    expect(store.linkDialogOpen).toBe(false)
  })
})
