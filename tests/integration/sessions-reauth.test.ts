// Session expiry and several accounts, through the real core and the real sandbox over HTTP: a
// remembered password signs in again silently; otherwise one prompt pauses only that account
// (api calls and export downloads alike) until the user signs in or cancels; two accounts on two
// sandboxes never mix keys or tokens.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AccountView } from '../../electron/contract/accounts'
import type { AccountList, ApiCallOutput } from '../../electron/contract/channels'
import type { ExportJob } from '../../electron/contract/files'
import type { ReauthRequest, SignInOutcome } from '../../electron/contract/sessions'
import {
  addAnalyst,
  analystAccount,
  signedIn,
  startRecordedSandbox,
  startTestCore,
  type RecordedSandbox,
  type TestCore,
} from './core-helpers'
import { startExportCore, waitForJob } from './exports-helpers'
import {
  challengeOf,
  otpFor,
  startRecordingProxy,
  until,
  type RecordingProxy,
} from './sessions-helpers'

let sandbox: RecordedSandbox
let t: TestCore

beforeAll(async () => {
  sandbox = await startRecordedSandbox()
})
afterAll(() => sandbox.close())
beforeEach(async () => {
  sandbox.reset()
  t = await startTestCore()
})
afterEach(() => t.close())

const ADMIN = 'admin@sandbox.test'
const list = () => t.ok<AccountList>('accounts.list')
const apiCall = (accountId: string, op = 'targets.list') =>
  t.call<ApiCallOutput>('api.call', { accountId, op })

describe('when a session ends', () => {
  it('signs in again silently with a remembered password (opt-in)', async () => {
    const view = await addAnalyst(t, sandbox, { rememberPassword: true })
    expect(view.rememberPassword).toBe(true)
    expect(await t.vault!.get(view.id, 'password')).toBe('sandbox-password')
    sandbox.advanceClock(9 * 60 * 60_000) // past the 8-hour session
    const from = sandbox.requests.length
    expect((await apiCall(view.id)).ok).toBe(true)
    expect(sandbox.requests.slice(from).map((r) => r.split(' (')[0])).toEqual([
      'GET /v2/targets → 401',
      'POST /auth/sign_in → 200',
      'GET /v2/targets → 200',
    ])
    expect(t.events.some((e) => e.name === 'accounts.reauthRequired')).toBe(false)
    // turning it off deletes the password
    const off = await t.ok<AccountView>('accounts.setRemember', {
      accountId: view.id,
      remember: false,
    })
    expect(off.rememberPassword).toBe(false)
    expect(await t.vault!.get(view.id, 'password')).toBeNull()
  })

  it('pauses only that account, prompts once, and resumes its waiting calls after sign-in', async () => {
    const a = await addAnalyst(t, sandbox)
    const b = await addAnalyst(t, sandbox, { label: 'Manager', username: 'manager@sandbox.test' })
    // the service ends A's session (as an expiry would)
    const token = await t.vault!.get(a.id, 'session_token')
    await fetch(`${sandbox.baseUrl}/v2/auth/sign_out`, {
      method: 'DELETE',
      headers: { 'x-api-key': sandbox.apiKey, authorization: `Bearer ${token}` },
    })
    const waiting = [apiCall(a.id), apiCall(a.id, 'scans.upcoming'), apiCall(a.id, 'reports.list')]
    await until(() => t.events.some((e) => e.name === 'accounts.reauthRequired'))
    expect((await apiCall(b.id)).ok).toBe(true)
    const prompts = t.events.filter((e) => e.name === 'accounts.reauthRequired')
    expect(prompts).toHaveLength(1)
    expect(prompts[0].payload).toMatchObject({
      accountId: a.id,
      label: 'Sandbox analyst',
      username: 'analyst@sandbox.test',
    } satisfies Partial<ReauthRequest>)
    const during = (await list()).accounts
    expect(during.find((x) => x.id === a.id)).toMatchObject({
      awaitingReauth: true,
      signedIn: false,
    })
    expect(during.find((x) => x.id === b.id)).toMatchObject({
      awaitingReauth: false,
      signedIn: true,
    })
    await t.ok('accounts.signIn', { accountId: a.id, password: 'sandbox-password' })
    const results = await Promise.all(waiting)
    expect(results.map((r) => r.ok)).toEqual([true, true, true])
    expect(t.events.filter((e) => e.name === 'accounts.reauthRequired')).toHaveLength(1)
    expect((await list()).accounts.find((x) => x.id === a.id)?.awaitingReauth).toBe(false)
  })

  it('resumes after a sign-in that needs a second factor, and cancelling fails the waiting', async () => {
    const from = sandbox.lines.length
    const c = challengeOf(
      await t.ok<SignInOutcome>('accounts.add', analystAccount(sandbox, { username: ADMIN })),
    )
    const admin = signedIn(
      await t.ok<SignInOutcome>('accounts.secondFactor', {
        challengeId: c.challengeId,
        method: 'app',
        code: otpFor(sandbox, ADMIN, from),
      }),
    )
    sandbox.advanceClock(9 * 60 * 60_000)
    const first = apiCall(admin.id)
    await until(() => t.events.some((e) => e.name === 'accounts.reauthRequired'))
    const mark = sandbox.lines.length
    const again = challengeOf(
      await t.ok<SignInOutcome>('accounts.signIn', {
        accountId: admin.id,
        password: 'sandbox-password',
      }),
    )
    await t.ok('accounts.secondFactor', {
      challengeId: again.challengeId,
      method: 'app',
      code: otpFor(sandbox, ADMIN, mark),
    })
    expect((await first).ok).toBe(true)

    sandbox.advanceClock(9 * 60 * 60_000)
    const sent = sandbox.requests.length
    const waiting = [apiCall(admin.id), apiCall(admin.id, 'scans.upcoming')]
    await until(() => t.events.filter((e) => e.name === 'accounts.reauthRequired').length === 2)
    await until(() => sandbox.requests.slice(sent).filter((r) => / → 401/.test(r)).length === 2)
    await new Promise((r) => setTimeout(r, 50))
    expect(await t.ok('accounts.cancelReauth', { accountId: admin.id })).toEqual({ cancelled: 2 })
    for (const r of await Promise.all(waiting))
      expect(r.ok ? null : r.error).toEqual({
        code: 'NOT_SIGNED_IN',
        message: `Signed out: sign in to Sandbox analyst again.`,
      })
  })
})

describe('an export download when the session ends', () => {
  it('waits for the sign-in instead of failing, then downloads and verifies', async () => {
    const s = await startExportCore(sandbox)
    try {
      const job = await s.t.ok<ExportJob>('exports.generate', {
        accountId: s.account.id,
        kind: 'report',
        resourceId: 'rpt-003',
        format: 'pdf',
      })
      await waitForJob(s.t, s.account.id, job.id, ['ready'])
      sandbox.setFaults({ unauthorizedAfter: 1 })
      await s.t.ok('exports.download', { jobId: job.id })
      await until(() => s.t.events.some((e) => e.name === 'accounts.reauthRequired'))
      const paused = (await s.t.ok<ExportJob[]>('exports.list', { accountId: s.account.id }))[0]
      expect(['downloading', 'verifying']).toContain(paused.state)
      sandbox.setFaults({ unauthorizedAfter: 0 })
      await s.t.ok('accounts.signIn', { accountId: s.account.id, password: 'sandbox-password' })
      const done = await waitForJob(s.t, s.account.id, job.id, ['verified', 'failed', 'mismatch'])
      expect(done.state).toBe('verified')
      expect(s.t.events.filter((e) => e.name === 'accounts.reauthRequired')).toHaveLength(1)
    } finally {
      await s.t.close()
    }
  })
})

describe('two accounts on two sandboxes', () => {
  let second: RecordedSandbox
  let proxies: RecordingProxy[]

  beforeAll(async () => {
    second = await startRecordedSandbox({ apiKey: 'second-sandbox-key' })
  })
  afterAll(() => second.close())
  afterEach(async () => {
    await Promise.all(proxies.map((p) => p.close()))
  })

  it('keeps each key and token with its own service, and signing out or removing A spares B', async () => {
    second.reset()
    proxies = [
      await startRecordingProxy(sandbox.baseUrl),
      await startRecordingProxy(second.baseUrl),
    ]
    const [pa, pb] = proxies
    const [a, b] = await Promise.all([
      addAnalyst(t, { baseUrl: pa.baseUrl, apiKey: sandbox.apiKey }, { label: 'A' }),
      addAnalyst(t, { baseUrl: pb.baseUrl, apiKey: second.apiKey }, { label: 'B' }),
    ])
    await Promise.all([apiCall(a.id), apiCall(b.id), apiCall(a.id, 'scans.upcoming')])
    const tokenA = await t.vault!.get(a.id, 'session_token')
    const tokenB = await t.vault!.get(b.id, 'session_token')
    expect(tokenA).not.toBe(tokenB)
    expect(new Set(pa.seen.map((r) => r.apiKey))).toEqual(new Set([sandbox.apiKey]))
    expect(new Set(pb.seen.map((r) => r.apiKey))).toEqual(new Set([second.apiKey]))
    const authA = pa.seen.map((r) => r.authorization).filter(Boolean)
    const authB = pb.seen.map((r) => r.authorization).filter(Boolean)
    expect(new Set(authA)).toEqual(new Set([`Bearer ${tokenA}`]))
    expect(new Set(authB)).toEqual(new Set([`Bearer ${tokenB}`]))

    await t.ok('accounts.signOut', { accountId: a.id })
    const after = (await list()).accounts
    expect(after.find((x) => x.id === b.id)?.signedIn).toBe(true)
    expect((await apiCall(b.id)).ok).toBe(true)
    expect(pb.seen.some((r) => r.path === '/v2/auth/sign_out')).toBe(false)

    await t.ok('accounts.remove', { accountId: a.id })
    expect(await t.vault!.get(b.id, 'api_key')).toBe(second.apiKey)
    expect(await t.vault!.get(b.id, 'session_token')).toBe(tokenB)
    expect(await t.vault!.get(a.id, 'api_key')).toBeNull()
    expect((await list()).accounts.map((x) => x.id)).toEqual([b.id])
  })
})
