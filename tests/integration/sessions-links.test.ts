import { beforeAll, describe, expect, it } from 'vitest'
import type { ApiCallOutput } from '@contract/channels'
import type { LinkOutcome, LinkView, SignInOutcome } from '@contract/sessions'
import { LINK_USED } from '../../electron/core/accounts/links'
import { WRONG_PASSWORD } from '../../electron/core/accounts/sign-in'
import { FIXTURES } from '../../sandbox/domains/identity/seed'
import { lastLogged } from '../support/otp'
import { addAnalyst, analystAccount, startTestCore, whoAmI } from './core-helpers'
import { useSandboxAndCore } from './fixture'

const s = useSandboxAndCore()
let host: string
beforeAll(() => {
  host = new URL(s.sandbox.baseUrl).host
})

function link(kind: string, token: string, at = host): string {
  return `scandesk://${kind}?host=${encodeURIComponent(at)}&token=${token}`
}

describe('signing in with an SSO link', () => {
  it('signs the account of the link’s user in and the link works only once', async () => {
    const analyst = await addAnalyst(s.t, s.sandbox)
    await s.t.ok('accounts.signOut', { accountId: analyst.id })
    const opened = await s.t.ok<LinkView>('links.open', { link: link('sso', FIXTURES.ssoToken) })
    expect(opened).toMatchObject({
      kind: 'sso',
      host,
      accountIds: [analyst.id],
      needsPassword: false,
    })
    expect(JSON.stringify(opened)).not.toContain(FIXTURES.ssoToken)

    const done = await s.t.ok<LinkOutcome>('links.complete', {
      linkId: opened.linkId,
      accountId: analyst.id,
    })
    expect(done).toMatchObject({ kind: 'sso', outcome: { status: 'signedIn' } })
    if (done.kind !== 'sso' || done.outcome.status !== 'signedIn') throw new Error('not signed in')
    expect(done.outcome.account).toMatchObject({ id: analyst.id, signedIn: true })
    expect(await whoAmI(s.t, analyst.id)).toBe('analyst@sandbox.test')
    expect(s.sandbox.requests).toContainEqual(
      expect.stringMatching(/^POST \/v2\/auth\/sso_login → 200/),
    )

    // Used: the same id is gone, and the same link opened again is refused in ScanDesk.
    const again = await s.t.err('links.complete', { linkId: opened.linkId, accountId: analyst.id })
    expect(again.code).toBe('CHALLENGE_EXPIRED')
    const reopened = await s.t.err('links.open', { link: link('sso', FIXTURES.ssoToken) })
    expect(reopened).toMatchObject({ code: 'VALIDATION', message: LINK_USED })
  })

  it('is refused by the service when another ScanDesk already used it', async () => {
    const analyst = await addAnalyst(s.t, s.sandbox)
    const first = await s.t.ok<LinkView>('links.open', { link: link('sso', FIXTURES.ssoToken) })
    await s.t.ok('links.complete', { linkId: first.linkId, accountId: analyst.id })

    const other = await startTestCore()
    try {
      const account = await addAnalyst(other, s.sandbox)
      const session = await other.vault!.get(account.id, 'session_token')
      const opened = await other.ok<LinkView>('links.open', {
        link: link('sso', FIXTURES.ssoToken),
      })
      const error = await other.err('links.complete', {
        linkId: opened.linkId,
        accountId: account.id,
      })
      expect(error).toMatchObject({ code: 'UNAUTHORIZED', message: LINK_USED, status: 401 })
      expect(await other.vault!.get(account.id, 'session_token')).toBe(session)
    } finally {
      await other.close()
    }
  })

  it('refuses a link that signs in another user, ending that session, and changes nothing', async () => {
    const manager = await addAnalyst(s.t, s.sandbox, {
      label: 'Manager',
      username: 'manager@sandbox.test',
    })
    const session = await s.t.vault!.get(manager.id, 'session_token')
    const opened = await s.t.ok<LinkView>('links.open', { link: link('sso', FIXTURES.ssoToken) })
    const signOuts = s.sandbox.requests.filter((r) =>
      r.startsWith('DELETE /v2/auth/sign_out'),
    ).length
    const error = await s.t.err('links.complete', { linkId: opened.linkId, accountId: manager.id })
    expect(error.code).toBe('VALIDATION')
    expect(error.message).toContain('signs in analyst@sandbox.test')
    expect(await s.t.vault!.get(manager.id, 'session_token')).toBe(session)
    expect(await whoAmI(s.t, manager.id)).toBe('manager@sandbox.test')
    expect(s.sandbox.requests.filter((r) => r.startsWith('DELETE /v2/auth/sign_out'))).toHaveLength(
      signOuts + 1,
    )
  })

  it('refuses a forged token with a reason and leaves the account as it was', async () => {
    const analyst = await addAnalyst(s.t, s.sandbox)
    const session = await s.t.vault!.get(analyst.id, 'session_token')
    const opened = await s.t.ok<LinkView>('links.open', { link: link('sso', 'forged-token-0000') })
    const error = await s.t.err('links.complete', { linkId: opened.linkId, accountId: analyst.id })
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', message: LINK_USED })
    expect(await s.t.vault!.get(analyst.id, 'session_token')).toBe(session)
    expect(await whoAmI(s.t, analyst.id)).toBe('analyst@sandbox.test')
  })

  it('refuses foreign and malformed links before anything is sent', async () => {
    await addAnalyst(s.t, s.sandbox)
    const before = s.sandbox.requests.length
    const foreign = await s.t.err('links.open', {
      link: link('sso', FIXTURES.ssoToken, 'scanner.elsewhere.test'),
    })
    expect(foreign).toMatchObject({
      code: 'VALIDATION',
      message: 'No account in ScanDesk uses scanner.elsewhere.test; add that account first.',
    })
    const http = await s.t.err('links.open', { link: `${s.sandbox.baseUrl}/sso?token=abcdefgh` })
    expect(http.message).toBe('Only scandesk:// links can be opened in ScanDesk.')
    const noToken = await s.t.err('links.open', { link: `scandesk://sso?host=${host}` })
    expect(noToken.message).toBe('The link’s token is missing or malformed.')
    const long = await s.t.err('links.open', { link: `scandesk://sso?${'x'.repeat(5000)}` })
    expect(long.code).toBe('VALIDATION')
    expect(s.sandbox.requests.length).toBe(before)
  })

  it('refuses to use a link with an account of another host', async () => {
    await addAnalyst(s.t, s.sandbox)
    const other = await addAnalyst(s.t, s.sandbox, {
      label: 'Same service, other name',
      baseUrl: s.sandbox.baseUrl.replace('127.0.0.1', 'localhost'),
      username: 'manager@sandbox.test',
    })
    const opened = await s.t.ok<LinkView>('links.open', { link: link('sso', FIXTURES.ssoToken) })
    expect(opened.accountIds).not.toContain(other.id)
    const error = await s.t.err('links.complete', { linkId: opened.linkId, accountId: other.id })
    expect(error.code).toBe('VALIDATION')
    expect(error.fieldErrors?.accountId?.[0]).toContain(`This link is for ${host}`)
    // Still usable with the right account.
    await s.t.ok('links.complete', { linkId: opened.linkId, accountId: opened.accountIds[0] })
  })
})

describe('confirmation, invitation and password-reset links', () => {
  it('confirms a user, who can then sign in', async () => {
    const analyst = await addAnalyst(s.t, s.sandbox)
    const refused = await s.t.err('accounts.add', {
      ...analystAccount(s.sandbox, { label: 'Uma', username: 'unconfirmed@sandbox.test' }),
    })
    expect(refused.code).toBe('UNAUTHORIZED')
    const opened = await s.t.ok<LinkView>('links.open', {
      link: link('confirm', FIXTURES.confirmationToken),
    })
    const done = await s.t.ok<LinkOutcome>('links.complete', {
      linkId: opened.linkId,
      accountId: analyst.id,
    })
    expect(done).toMatchObject({ kind: 'confirm', accountId: analyst.id })
    if (done.kind === 'sso') throw new Error('unexpected')
    expect(done.message).toContain('unconfirmed@sandbox.test is confirmed')
    await addAnalyst(s.t, s.sandbox, { label: 'Uma', username: 'unconfirmed@sandbox.test' })
  })

  it('accepts an invitation only with a new password, then the invited user can sign in', async () => {
    const analyst = await addAnalyst(s.t, s.sandbox)
    const opened = await s.t.ok<LinkView>('links.open', {
      link: link('invite', FIXTURES.invitationToken),
    })
    expect(opened.needsPassword).toBe(true)
    const missing = await s.t.err('links.complete', {
      linkId: opened.linkId,
      accountId: analyst.id,
    })
    expect(missing.code).toBe('VALIDATION')
    expect(missing.fieldErrors?.password).toEqual(['is required'])
    const unnamed = await s.t.err('links.complete', {
      linkId: opened.linkId,
      accountId: analyst.id,
      password: 'invited-password-1',
      firstName: 'Ivy',
    })
    expect(unnamed.code).toBe('VALIDATION')
    expect(unnamed.fieldErrors?.lastName).toEqual(['is required'])
    const done = await s.t.ok<LinkOutcome>('links.complete', {
      linkId: opened.linkId,
      accountId: analyst.id,
      password: 'invited-password-1',
      firstName: 'Ivy',
      lastName: 'Invited',
    })
    if (done.kind === 'sso') throw new Error('unexpected')
    expect(done.message).toContain('invited@sandbox.test is accepted')
    // The invited user's session was not given to the analyst's account.
    expect(await whoAmI(s.t, analyst.id)).toBe('analyst@sandbox.test')
    const ivy = await addAnalyst(s.t, s.sandbox, {
      label: 'Ivy',
      username: 'invited@sandbox.test',
      password: 'invited-password-1',
    })
    const me = await s.t.ok<ApiCallOutput>('api.call', { accountId: ivy.id, op: 'user.show' })
    expect(
      (me.data as { data: { attributes: Record<string, unknown> } }).data.attributes,
    ).toMatchObject({
      first_name: 'Ivy',
      last_name: 'Invited',
    })
  })

  it('sets a new password with a reset link: the old one stops working, the new one works', async () => {
    const manager = await addAnalyst(s.t, s.sandbox, {
      label: 'Manager',
      username: 'manager@sandbox.test',
    })
    const sent = await s.t.ok<{ sent: true; message: string }>('accounts.requestPasswordReset', {
      accountId: manager.id,
    })
    expect(sent.sent).toBe(true)
    expect(sent.message).toContain('manager@sandbox.test')
    const token = lastLogged(s.sandbox.logged, 'password-reset', 'manager@sandbox.test').trim()
    expect(token).not.toBe(FIXTURES.resetToken)

    const opened = await s.t.ok<LinkView>('links.open', { link: link('reset', token) })
    const done = await s.t.ok<LinkOutcome>('links.complete', {
      linkId: opened.linkId,
      accountId: manager.id,
      password: 'manager-password-2',
    })
    expect(done).toMatchObject({ kind: 'reset', accountId: manager.id })
    await s.t.ok('accounts.signOut', { accountId: manager.id })
    const old = await s.t.err('accounts.signIn', {
      accountId: manager.id,
      password: 'sandbox-password',
    })
    expect(old.message).toBe(WRONG_PASSWORD)
    const again = await s.t.ok<SignInOutcome>('accounts.signIn', {
      accountId: manager.id,
      password: 'manager-password-2',
    })
    expect(again.status).toBe('signedIn')
    // The superseded token from the seed no longer works.
    const stale = await s.t.ok<LinkView>('links.open', { link: link('reset', FIXTURES.resetToken) })
    const refused = await s.t.err('links.complete', {
      linkId: stale.linkId,
      accountId: manager.id,
      password: 'manager-password-3',
    })
    expect(refused.message).toBe(LINK_USED)
  })
})
