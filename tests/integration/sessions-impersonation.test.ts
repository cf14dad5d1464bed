import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AccountView } from '../../electron/contract/accounts'
import type { AccountList, ApiCallOutput } from '../../electron/contract/channels'
import type { SignInOutcome } from '../../electron/contract/sessions'
import {
  analystAccount,
  startRecordedSandbox,
  startTestCore,
  type RecordedSandbox,
  type TestCore,
} from './core-helpers'

const OTP = '424242'
/** Seeded users (sandbox/domains/identity/seed.ts): admin usr-001, analyst usr-002, manager usr-003. */
const ANALYST_ID = 'usr-002'
const MANAGER_ID = 'usr-003'

let sandbox: RecordedSandbox
let t: TestCore

beforeAll(async () => {
  sandbox = await startRecordedSandbox({ fixedOtp: OTP })
})
afterAll(() => sandbox.close())
beforeEach(async () => {
  sandbox.reset()
  t = await startTestCore()
})
afterEach(() => t.close())

/** Adds an account, finishing a second factor (app code) when the user has one. */
async function addAccount(over: Record<string, unknown> = {}): Promise<AccountView> {
  const first = await t.ok<SignInOutcome>('accounts.add', analystAccount(sandbox, over))
  if (first.status === 'signedIn') return first.account
  const done = await t.ok<SignInOutcome>('accounts.secondFactor', {
    challengeId: first.challenge.challengeId,
    method: 'app',
    code: OTP,
  })
  if (done.status !== 'signedIn') throw new Error('the second factor did not sign in')
  return done.account
}

const addAdmin = () =>
  addAccount({ label: 'Acme admin', username: 'admin@sandbox.test', color: '#aa3300' })

async function whoAmI(accountId: string): Promise<string> {
  const out = await t.ok<ApiCallOutput>('api.call', { accountId, op: 'user.show' })
  return (out.data as { data: { attributes: { email: string } } }).data.attributes.email
}

function lastListed(accountId: string): AccountView | undefined {
  const changes = t.events.filter((e) => e.name === 'accounts.changed')
  return (changes.at(-1)?.payload as AccountList | undefined)?.accounts.find(
    (a) => a.id === accountId,
  )
}

describe('an administrator acting as a user', () => {
  it('acts as the user, shows it on the account, and stopping restores the administrator', async () => {
    const admin = await addAdmin()
    const adminToken = await t.vault!.get(admin.id, 'session_token')
    expect(await whoAmI(admin.id)).toBe('admin@sandbox.test')

    const acting = await t.ok<AccountView>('accounts.impersonate', {
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
    expect(await whoAmI(admin.id)).toBe('analyst@sandbox.test')
    expect(await t.vault!.get(admin.id, 'impersonator_token')).toBe(adminToken)
    const impersonatedToken = await t.vault!.get(admin.id, 'session_token')
    expect(impersonatedToken).not.toBe(adminToken)

    const again = await t.err('accounts.impersonate', { accountId: admin.id, userId: MANAGER_ID })
    expect(again.code).toBe('CONFLICT')
    expect(again.message).toContain('already acting as analyst@sandbox.test')

    const back = await t.ok<AccountView>('accounts.stopImpersonation', { accountId: admin.id })
    expect(back.impersonating).toBeNull()
    expect(lastListed(admin.id)?.impersonating).toBeNull()
    expect(await whoAmI(admin.id)).toBe('admin@sandbox.test')
    expect(await t.vault!.get(admin.id, 'impersonator_token')).toBeNull()
    expect(sandbox.requests).toContainEqual(
      expect.stringMatching(/^DELETE \/v2\/auth\/impersonate → 200/),
    )
    // The impersonation session is over at the service.
    const res = await fetch(`${sandbox.baseUrl}/v2/user`, {
      headers: { 'x-api-key': sandbox.apiKey, authorization: `Bearer ${impersonatedToken}` },
    })
    expect(res.status).toBe(401)
  })

  it('goes back to the set-aside session when the service already ended the impersonation', async () => {
    const admin = await addAdmin()
    const adminToken = await t.vault!.get(admin.id, 'session_token')
    await t.ok('accounts.impersonate', { accountId: admin.id, userId: ANALYST_ID })
    const impersonatedToken = await t.vault!.get(admin.id, 'session_token')
    const ended = await fetch(`${sandbox.baseUrl}/v2/auth/sign_out`, {
      method: 'DELETE',
      headers: { 'x-api-key': sandbox.apiKey, authorization: `Bearer ${impersonatedToken}` },
    })
    expect(ended.status).toBe(200)

    const back = await t.ok<AccountView>('accounts.stopImpersonation', { accountId: admin.id })
    expect(back).toMatchObject({ impersonating: null, signedIn: true })
    expect(await t.vault!.get(admin.id, 'session_token')).toBe(adminToken)
    expect(await whoAmI(admin.id)).toBe('admin@sandbox.test')
  })

  it('stopping when not acting as anyone changes nothing', async () => {
    const admin = await addAdmin()
    const token = await t.vault!.get(admin.id, 'session_token')
    const view = await t.ok<AccountView>('accounts.stopImpersonation', { accountId: admin.id })
    expect(view.impersonating).toBeNull()
    expect(await t.vault!.get(admin.id, 'session_token')).toBe(token)
  })
})

describe('refused impersonations', () => {
  it('tells a non-administrator plainly and changes nothing', async () => {
    const analyst = await addAccount()
    const token = await t.vault!.get(analyst.id, 'session_token')
    const error = await t.err('accounts.impersonate', {
      accountId: analyst.id,
      userId: MANAGER_ID,
    })
    expect(error).toMatchObject({ code: 'FORBIDDEN', status: 403 })
    expect(error.message).toBe(
      'Only an administrator can act as another user, and analyst@sandbox.test (“Sandbox analyst”) is not one.',
    )
    expect(await t.vault!.get(analyst.id, 'session_token')).toBe(token)
    expect(await t.vault!.get(analyst.id, 'impersonator_token')).toBeNull()
    expect(await whoAmI(analyst.id)).toBe('analyst@sandbox.test')
  })

  it('says so when the user does not exist for this administrator', async () => {
    const admin = await addAdmin()
    const error = await t.err('accounts.impersonate', { accountId: admin.id, userId: 'usr-999' })
    expect(error).toMatchObject({ code: 'NOT_FOUND' })
    expect(error.message).toContain('There is no user usr-999')
    expect(await whoAmI(admin.id)).toBe('admin@sandbox.test')
  })

  it('refuses an id that is not a user id before asking the service', async () => {
    const admin = await addAdmin()
    const before = sandbox.requests.length
    const error = await t.err('accounts.impersonate', { accountId: admin.id, userId: '../x' })
    expect(error.code).toBe('VALIDATION')
    expect(error.fieldErrors?.userId).toBeDefined()
    expect(sandbox.requests.length).toBe(before)
  })
})
