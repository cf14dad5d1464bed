import { describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { AccountList } from '@contract/channels'
import type { SignInOutcome } from '@contract/sessions'
import { analystAccount, whoAmI } from './core-helpers'
import { useSandboxAndCore } from './fixture'

const OTP = '424242'
/** Seeded users (sandbox/domains/identity/seed.ts): admin usr-001, analyst usr-002, manager usr-003. */
const ANALYST_ID = 'usr-002'
const MANAGER_ID = 'usr-003'

const s = useSandboxAndCore({ sandbox: { fixedOtp: OTP } })

/** Adds an account, finishing a second factor (app code) when the user has one. */
async function addAccount(over: Record<string, unknown> = {}): Promise<AccountView> {
  const first = await s.t.ok<SignInOutcome>('accounts.add', analystAccount(s.sandbox, over))
  if (first.status === 'signedIn') return first.account
  const done = await s.t.ok<SignInOutcome>('accounts.secondFactor', {
    challengeId: first.challenge.challengeId,
    method: 'app',
    code: OTP,
  })
  if (done.status !== 'signedIn') throw new Error('the second factor did not sign in')
  return done.account
}

const addAdmin = () =>
  addAccount({ label: 'Acme admin', username: 'admin@sandbox.test', color: '#aa3300' })

function lastListed(accountId: string): AccountView | undefined {
  const changes = s.t.events.filter((e) => e.name === 'accounts.changed')
  return (changes.at(-1)?.payload as AccountList | undefined)?.accounts.find(
    (a) => a.id === accountId,
  )
}

describe('an administrator acting as a user', () => {
  it('acts as the user, shows it on the account, and stopping restores the administrator', async () => {
    const admin = await addAdmin()
    const adminToken = await s.t.vault!.get(admin.id, 'session_token')
    expect(await whoAmI(s.t, admin.id)).toBe('admin@sandbox.test')

    const acting = await s.t.ok<AccountView>('accounts.impersonate', {
      accountId: admin.id,
      userId: ANALYST_ID,
    })
    expect(acting.impersonating).toMatchObject({
      userId: ANALYST_ID,
      email: 'analyst@sandbox.test',
    })
    expect(Number.isNaN(Date.parse(acting.impersonating!.since))).toBe(false)
    expect(acting.signedIn).toBe(true)
    expect(lastListed(admin.id)?.impersonating?.email).toBe('analyst@sandbox.test')
    expect(await whoAmI(s.t, admin.id)).toBe('analyst@sandbox.test')
    expect(await s.t.vault!.get(admin.id, 'impersonator_token')).toBe(adminToken)
    const impersonatedToken = await s.t.vault!.get(admin.id, 'session_token')
    expect(impersonatedToken).not.toBe(adminToken)

    const again = await s.t.err('accounts.impersonate', { accountId: admin.id, userId: MANAGER_ID })
    expect(again.code).toBe('CONFLICT')
    expect(again.message).toContain('already acting as analyst@sandbox.test')

    const back = await s.t.ok<AccountView>('accounts.stopImpersonation', { accountId: admin.id })
    expect(back.impersonating).toBeNull()
    expect(lastListed(admin.id)?.impersonating).toBeNull()
    expect(await whoAmI(s.t, admin.id)).toBe('admin@sandbox.test')
    expect(await s.t.vault!.get(admin.id, 'impersonator_token')).toBeNull()
    expect(s.sandbox.requests).toContainEqual(
      expect.stringMatching(/^DELETE \/v2\/auth\/impersonate → 200/),
    )
    // The impersonation session is over at the service.
    const res = await fetch(`${s.sandbox.baseUrl}/v2/user`, {
      headers: { 'x-api-key': s.sandbox.apiKey, authorization: `Bearer ${impersonatedToken}` },
    })
    expect(res.status).toBe(401)
  })

  it('goes back to the set-aside session when the service already ended the impersonation', async () => {
    const admin = await addAdmin()
    const adminToken = await s.t.vault!.get(admin.id, 'session_token')
    await s.t.ok('accounts.impersonate', { accountId: admin.id, userId: ANALYST_ID })
    const impersonatedToken = await s.t.vault!.get(admin.id, 'session_token')
    const ended = await fetch(`${s.sandbox.baseUrl}/v2/auth/sign_out`, {
      method: 'DELETE',
      headers: { 'x-api-key': s.sandbox.apiKey, authorization: `Bearer ${impersonatedToken}` },
    })
    expect(ended.status).toBe(200)

    const back = await s.t.ok<AccountView>('accounts.stopImpersonation', { accountId: admin.id })
    expect(back).toMatchObject({ impersonating: null, signedIn: true })
    expect(await s.t.vault!.get(admin.id, 'session_token')).toBe(adminToken)
    expect(await whoAmI(s.t, admin.id)).toBe('admin@sandbox.test')
  })

  it('stopping when not acting as anyone changes nothing', async () => {
    const admin = await addAdmin()
    const token = await s.t.vault!.get(admin.id, 'session_token')
    const view = await s.t.ok<AccountView>('accounts.stopImpersonation', { accountId: admin.id })
    expect(view.impersonating).toBeNull()
    expect(await s.t.vault!.get(admin.id, 'session_token')).toBe(token)
  })
})

describe('refused impersonations', () => {
  it('tells a non-administrator plainly and changes nothing', async () => {
    const analyst = await addAccount()
    const token = await s.t.vault!.get(analyst.id, 'session_token')
    const error = await s.t.err('accounts.impersonate', {
      accountId: analyst.id,
      userId: MANAGER_ID,
    })
    expect(error).toMatchObject({ code: 'FORBIDDEN', status: 403 })
    expect(error.message).toBe(
      'Only an administrator can act as another user, and analyst@sandbox.test (“Sandbox analyst”) is not one.',
    )
    expect(await s.t.vault!.get(analyst.id, 'session_token')).toBe(token)
    expect(await s.t.vault!.get(analyst.id, 'impersonator_token')).toBeNull()
    expect(await whoAmI(s.t, analyst.id)).toBe('analyst@sandbox.test')
  })

  it('says so when the user does not exist for this administrator', async () => {
    const admin = await addAdmin()
    const error = await s.t.err('accounts.impersonate', { accountId: admin.id, userId: 'usr-999' })
    expect(error).toMatchObject({ code: 'NOT_FOUND' })
    expect(error.message).toContain('There is no user usr-999')
    expect(await whoAmI(s.t, admin.id)).toBe('admin@sandbox.test')
  })

  it('refuses an id that is not a user id before asking the service', async () => {
    const admin = await addAdmin()
    const before = s.sandbox.requests.length
    const error = await s.t.err('accounts.impersonate', { accountId: admin.id, userId: '../x' })
    expect(error.code).toBe('VALIDATION')
    expect(error.fieldErrors?.userId).toBeDefined()
    expect(s.sandbox.requests.length).toBe(before)
  })
})
