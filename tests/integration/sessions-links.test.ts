import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AccountView } from '../../electron/contract/accounts'
import type { ApiCallOutput } from '../../electron/contract/channels'
import type { LinkOutcome, LinkView, SignInOutcome } from '../../electron/contract/sessions'
import { LINK_USED } from '../../electron/core/accounts/links'
import { WRONG_PASSWORD } from '../../electron/core/accounts/sign-in'
import { FIXTURES } from '../../sandbox/domains/identity/seed'
import {
  analystAccount,
  startRecordedSandbox,
  startTestCore,
  type RecordedSandbox,
  type TestCore,
} from './core-helpers'

let sandbox: RecordedSandbox
let t: TestCore
let host: string

beforeAll(async () => {
  sandbox = await startRecordedSandbox()
  host = new URL(sandbox.baseUrl).host
})
afterAll(() => sandbox.close())
beforeEach(async () => {
  sandbox.reset()
  t = await startTestCore()
})
afterEach(() => t.close())

/** Adds an account without a second factor and returns its view. */
async function addAccount(
  core: TestCore,
  over: Record<string, unknown> = {},
): Promise<AccountView> {
  const outcome = await core.ok<SignInOutcome>('accounts.add', analystAccount(sandbox, over))
  if (outcome.status !== 'signedIn') throw new Error('expected a sign-in without a second factor')
  return outcome.account
}

function link(kind: string, token: string, at = host): string {
  return `scandesk://${kind}?host=${encodeURIComponent(at)}&token=${token}`
}

/** The last token of `kind` the sandbox logged for `email` (`[kind] email: token`). */
function loggedToken(kind: string, email: string): string {
  const prefix = `[${kind}] ${email}: `
  const line = sandbox.lines.map((l) => l.line).findLast((l) => l.startsWith(prefix))
  if (!line) throw new Error(`no ${kind} token logged for ${email}`)
  return line.slice(prefix.length).trim()
}

async function whoAmI(core: TestCore, accountId: string): Promise<string> {
  const out = await core.ok<ApiCallOutput>('api.call', { accountId, op: 'user.show' })
  return (out.data as { data: { attributes: { email: string } } }).data.attributes.email
}

describe('signing in with an SSO link', () => {
  it('signs the account of the link’s user in and the link works only once', async () => {
    const analyst = await addAccount(t)
    await t.ok('accounts.signOut', { accountId: analyst.id })
    const opened = await t.ok<LinkView>('links.open', { link: link('sso', FIXTURES.ssoToken) })
    expect(opened).toMatchObject({
      kind: 'sso',
      host,
      accountIds: [analyst.id],
      needsPassword: false,
    })
    expect(JSON.stringify(opened)).not.toContain(FIXTURES.ssoToken)

    const done = await t.ok<LinkOutcome>('links.complete', {
      linkId: opened.linkId,
      accountId: analyst.id,
    })
    expect(done).toMatchObject({ kind: 'sso', outcome: { status: 'signedIn' } })
    if (done.kind !== 'sso' || done.outcome.status !== 'signedIn') throw new Error('not signed in')
    expect(done.outcome.account).toMatchObject({ id: analyst.id, signedIn: true })
    expect(await whoAmI(t, analyst.id)).toBe('analyst@sandbox.test')
    expect(sandbox.requests).toContainEqual(
      expect.stringMatching(/^POST \/v2\/auth\/sso_login → 200/),
    )

    // Used: the same id is gone, and the same link opened again is refused in ScanDesk.
    const again = await t.err('links.complete', { linkId: opened.linkId, accountId: analyst.id })
    expect(again.code).toBe('CHALLENGE_EXPIRED')
    const reopened = await t.err('links.open', { link: link('sso', FIXTURES.ssoToken) })
    expect(reopened).toMatchObject({ code: 'VALIDATION', message: LINK_USED })
  })

  it('is refused by the service when another ScanDesk already used it', async () => {
    const analyst = await addAccount(t)
    const first = await t.ok<LinkView>('links.open', { link: link('sso', FIXTURES.ssoToken) })
    await t.ok('links.complete', { linkId: first.linkId, accountId: analyst.id })

    const other = await startTestCore()
    try {
      const account = await addAccount(other)
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
    const manager = await addAccount(t, {
      label: 'Manager',
      username: 'manager@sandbox.test',
    })
    const session = await t.vault!.get(manager.id, 'session_token')
    const opened = await t.ok<LinkView>('links.open', { link: link('sso', FIXTURES.ssoToken) })
    const signOuts = sandbox.requests.filter((r) => r.startsWith('DELETE /v2/auth/sign_out')).length
    const error = await t.err('links.complete', { linkId: opened.linkId, accountId: manager.id })
    expect(error.code).toBe('VALIDATION')
    expect(error.message).toContain('signs in analyst@sandbox.test')
    expect(await t.vault!.get(manager.id, 'session_token')).toBe(session)
    expect(await whoAmI(t, manager.id)).toBe('manager@sandbox.test')
    expect(sandbox.requests.filter((r) => r.startsWith('DELETE /v2/auth/sign_out'))).toHaveLength(
      signOuts + 1,
    )
  })

  it('refuses a forged token with a reason and leaves the account as it was', async () => {
    const analyst = await addAccount(t)
    const session = await t.vault!.get(analyst.id, 'session_token')
    const opened = await t.ok<LinkView>('links.open', { link: link('sso', 'forged-token-0000') })
    const error = await t.err('links.complete', { linkId: opened.linkId, accountId: analyst.id })
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', message: LINK_USED })
    expect(await t.vault!.get(analyst.id, 'session_token')).toBe(session)
    expect(await whoAmI(t, analyst.id)).toBe('analyst@sandbox.test')
  })

  it('refuses foreign and malformed links before anything is sent', async () => {
    await addAccount(t)
    const before = sandbox.requests.length
    const foreign = await t.err('links.open', {
      link: link('sso', FIXTURES.ssoToken, 'scanner.elsewhere.test'),
    })
    expect(foreign).toMatchObject({
      code: 'VALIDATION',
      message: 'No account in ScanDesk uses scanner.elsewhere.test; add that account first.',
    })
    const http = await t.err('links.open', { link: `${sandbox.baseUrl}/sso?token=abcdefgh` })
    expect(http.message).toBe('Only scandesk:// links can be opened in ScanDesk.')
    const noToken = await t.err('links.open', { link: `scandesk://sso?host=${host}` })
    expect(noToken.message).toBe('The link’s token is missing or malformed.')
    const long = await t.err('links.open', { link: `scandesk://sso?${'x'.repeat(5000)}` })
    expect(long.code).toBe('VALIDATION')
    expect(sandbox.requests.length).toBe(before)
  })

  it('refuses to use a link with an account of another host', async () => {
    await addAccount(t)
    const other = await addAccount(t, {
      label: 'Same service, other name',
      baseUrl: sandbox.baseUrl.replace('127.0.0.1', 'localhost'),
      username: 'manager@sandbox.test',
    })
    const opened = await t.ok<LinkView>('links.open', { link: link('sso', FIXTURES.ssoToken) })
    expect(opened.accountIds).not.toContain(other.id)
    const error = await t.err('links.complete', { linkId: opened.linkId, accountId: other.id })
    expect(error.code).toBe('VALIDATION')
    expect(error.fieldErrors?.accountId?.[0]).toContain(`This link is for ${host}`)
    // Still usable with the right account.
    await t.ok('links.complete', { linkId: opened.linkId, accountId: opened.accountIds[0] })
  })
})

describe('confirmation, invitation and password-reset links', () => {
  it('confirms a user, who can then sign in', async () => {
    const analyst = await addAccount(t)
    const refused = await t.err('accounts.add', {
      ...analystAccount(sandbox, { label: 'Uma', username: 'unconfirmed@sandbox.test' }),
    })
    expect(refused.code).toBe('UNAUTHORIZED')
    const opened = await t.ok<LinkView>('links.open', {
      link: link('confirm', FIXTURES.confirmationToken),
    })
    const done = await t.ok<LinkOutcome>('links.complete', {
      linkId: opened.linkId,
      accountId: analyst.id,
    })
    expect(done).toMatchObject({ kind: 'confirm', accountId: analyst.id })
    if (done.kind === 'sso') throw new Error('unexpected')
    expect(done.message).toContain('unconfirmed@sandbox.test is confirmed')
    await addAccount(t, { label: 'Uma', username: 'unconfirmed@sandbox.test' })
  })

  it('accepts an invitation only with a new password, then the invited user can sign in', async () => {
    const analyst = await addAccount(t)
    const opened = await t.ok<LinkView>('links.open', {
      link: link('invite', FIXTURES.invitationToken),
    })
    expect(opened.needsPassword).toBe(true)
    const missing = await t.err('links.complete', { linkId: opened.linkId, accountId: analyst.id })
    expect(missing.code).toBe('VALIDATION')
    expect(missing.fieldErrors?.password).toEqual(['is required'])
    const unnamed = await t.err('links.complete', {
      linkId: opened.linkId,
      accountId: analyst.id,
      password: 'invited-password-1',
      firstName: 'Ivy',
    })
    expect(unnamed.code).toBe('VALIDATION')
    expect(unnamed.fieldErrors?.lastName).toEqual(['is required'])
    const done = await t.ok<LinkOutcome>('links.complete', {
      linkId: opened.linkId,
      accountId: analyst.id,
      password: 'invited-password-1',
      firstName: 'Ivy',
      lastName: 'Invited',
    })
    if (done.kind === 'sso') throw new Error('unexpected')
    expect(done.message).toContain('invited@sandbox.test is accepted')
    // The invited user's session was not given to the analyst's account.
    expect(await whoAmI(t, analyst.id)).toBe('analyst@sandbox.test')
    const ivy = await addAccount(t, {
      label: 'Ivy',
      username: 'invited@sandbox.test',
      password: 'invited-password-1',
    })
    const me = await t.ok<ApiCallOutput>('api.call', { accountId: ivy.id, op: 'user.show' })
    expect(
      (me.data as { data: { attributes: Record<string, unknown> } }).data.attributes,
    ).toMatchObject({
      first_name: 'Ivy',
      last_name: 'Invited',
    })
  })

  it('sets a new password with a reset link: the old one stops working, the new one works', async () => {
    const manager = await addAccount(t, { label: 'Manager', username: 'manager@sandbox.test' })
    const sent = await t.ok<{ sent: true; message: string }>('accounts.requestPasswordReset', {
      accountId: manager.id,
    })
    expect(sent.sent).toBe(true)
    expect(sent.message).toContain('manager@sandbox.test')
    const token = loggedToken('password-reset', 'manager@sandbox.test')
    expect(token).not.toBe(FIXTURES.resetToken)

    const opened = await t.ok<LinkView>('links.open', { link: link('reset', token) })
    const done = await t.ok<LinkOutcome>('links.complete', {
      linkId: opened.linkId,
      accountId: manager.id,
      password: 'manager-password-2',
    })
    expect(done).toMatchObject({ kind: 'reset', accountId: manager.id })
    await t.ok('accounts.signOut', { accountId: manager.id })
    const old = await t.err('accounts.signIn', {
      accountId: manager.id,
      password: 'sandbox-password',
    })
    expect(old.message).toBe(WRONG_PASSWORD)
    const again = await t.ok<SignInOutcome>('accounts.signIn', {
      accountId: manager.id,
      password: 'manager-password-2',
    })
    expect(again.status).toBe('signedIn')
    // The superseded token from the seed no longer works.
    const stale = await t.ok<LinkView>('links.open', { link: link('reset', FIXTURES.resetToken) })
    const refused = await t.err('links.complete', {
      linkId: stale.linkId,
      accountId: manager.id,
      password: 'manager-password-3',
    })
    expect(refused.message).toBe(LINK_USED)
  })
})
