// Session expiry and several accounts, through the real core and the real sandbox over HTTP: a
// remembered password signs in again silently; otherwise one prompt pauses only that account
// (api calls and export downloads alike) until the user signs in or cancels; two accounts on two
// sandboxes never mix keys or tokens.
import { afterEach, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { AccountList, ApiCallOutput } from '@contract/channels'
import type { ExportJob } from '@contract/files'
import type { ReauthRequest, SignInOutcome } from '@contract/sessions'
import { otpFor } from '../support/otp'
import { addAnalyst, analystAccount, signedIn, startTestCore } from './core-helpers'
import { startExportCore, waitForJob } from './exports-helpers'
import { useSandboxAndCore } from './fixture'
import { challengeOf, startRecordingProxy, until, type RecordingProxy } from './sessions-helpers'

const s = useSandboxAndCore()

const ADMIN = 'admin@sandbox.test'
const list = () => s.t.ok<AccountList>('accounts.list')
const apiCall = (accountId: string, op = 'targets.list') =>
  s.t.call<ApiCallOutput>('api.call', { accountId, op })

describe('when a session ends', () => {
  it('signs in again silently with a remembered password (opt-in)', async () => {
    const view = await addAnalyst(s.t, s.sandbox, { rememberPassword: true })
    expect(view.rememberPassword).toBe(true)
    expect(await s.t.vault!.get(view.id, 'password')).toBe('sandbox-password')
    s.sandbox.advanceClock(9 * 60 * 60_000) // past the 8-hour session
    const from = s.sandbox.requests.length
    expect((await apiCall(view.id)).ok).toBe(true)
    expect(s.sandbox.requests.slice(from).map((r) => r.split(' (')[0])).toEqual([
      'GET /v2/targets → 401',
      'POST /auth/sign_in → 200',
      'GET /v2/targets → 200',
    ])
    expect(s.t.events.some((e) => e.name === 'accounts.reauthRequired')).toBe(false)
    // turning it off deletes the password
    const off = await s.t.ok<AccountView>('accounts.setRemember', {
      accountId: view.id,
      remember: false,
    })
    expect(off.rememberPassword).toBe(false)
    expect(await s.t.vault!.get(view.id, 'password')).toBeNull()
  })

  it('pauses only that account, prompts once, and resumes its waiting calls after sign-in', async () => {
    const a = await addAnalyst(s.t, s.sandbox)
    const b = await addAnalyst(s.t, s.sandbox, {
      label: 'Manager',
      username: 'manager@sandbox.test',
    })
    // the service ends A's session (as an expiry would)
    const token = await s.t.vault!.get(a.id, 'session_token')
    await fetch(`${s.sandbox.baseUrl}/v2/auth/sign_out`, {
      method: 'DELETE',
      headers: { 'x-api-key': s.sandbox.apiKey, authorization: `Bearer ${token}` },
    })
    const waiting = [apiCall(a.id), apiCall(a.id, 'scans.upcoming'), apiCall(a.id, 'reports.list')]
    await until(() => s.t.events.some((e) => e.name === 'accounts.reauthRequired'))
    expect((await apiCall(b.id)).ok).toBe(true)
    const prompts = s.t.events.filter((e) => e.name === 'accounts.reauthRequired')
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
    await s.t.ok('accounts.signIn', { accountId: a.id, password: 'sandbox-password' })
    const results = await Promise.all(waiting)
    expect(results.map((r) => r.ok)).toEqual([true, true, true])
    expect(s.t.events.filter((e) => e.name === 'accounts.reauthRequired')).toHaveLength(1)
    expect((await list()).accounts.find((x) => x.id === a.id)?.awaitingReauth).toBe(false)
  })

  it('resumes after a sign-in that needs a second factor, and cancelling fails the waiting', async () => {
    const from = s.sandbox.lines.length
    const c = challengeOf(
      await s.t.ok<SignInOutcome>('accounts.add', analystAccount(s.sandbox, { username: ADMIN })),
    )
    const admin = signedIn(
      await s.t.ok<SignInOutcome>('accounts.secondFactor', {
        challengeId: c.challengeId,
        method: 'app',
        code: otpFor(s.sandbox.logged, ADMIN, from),
      }),
    )
    s.sandbox.advanceClock(9 * 60 * 60_000)
    const first = apiCall(admin.id)
    await until(() => s.t.events.some((e) => e.name === 'accounts.reauthRequired'))
    const mark = s.sandbox.lines.length
    const again = challengeOf(
      await s.t.ok<SignInOutcome>('accounts.signIn', {
        accountId: admin.id,
        password: 'sandbox-password',
      }),
    )
    await s.t.ok('accounts.secondFactor', {
      challengeId: again.challengeId,
      method: 'app',
      code: otpFor(s.sandbox.logged, ADMIN, mark),
    })
    expect((await first).ok).toBe(true)

    s.sandbox.advanceClock(9 * 60 * 60_000)
    const sent = s.sandbox.requests.length
    // Reads never made before: no offline copy to fall back on once signed out.
    const waiting = [apiCall(admin.id, 'scans.list'), apiCall(admin.id, 'scans.upcoming')]
    await until(() => s.t.events.filter((e) => e.name === 'accounts.reauthRequired').length === 2)
    await until(() => s.sandbox.requests.slice(sent).filter((r) => / → 401/.test(r)).length === 2)
    await new Promise((r) => setTimeout(r, 50))
    expect(await s.t.ok('accounts.cancelReauth', { accountId: admin.id })).toEqual({ cancelled: 2 })
    for (const r of await Promise.all(waiting))
      expect(r.ok ? null : r.error).toEqual({
        code: 'NOT_SIGNED_IN',
        message: `Signed out: sign in to Sandbox analyst again.`,
      })
    // What was opened before stays readable from the copy.
    const opened = await apiCall(admin.id)
    expect(opened.ok && opened.data.fromCache).toBe(true)
  })
})

describe('a service that answers 401 to everything while a sign-in is awaited', () => {
  it('answers reads from the copy at once or says "sign in again" within the deadline, and queues safe writes', async () => {
    // A short deadline, so the bound is seen in a test (the default is 30 s).
    const t = await startTestCore({ httpLimits: { deadlineMs: 1_500 } })
    try {
      const a = await addAnalyst(t, s.sandbox)
      const call = (op: string, input?: object) =>
        t.call<ApiCallOutput>('api.call', { accountId: a.id, op, ...(input ? { input } : {}) })
      expect((await call('targets.list')).ok).toBe(true) // opened once: an offline copy
      const notes = await call('notifications.list')
      const note = (notes.ok ? (notes.data.data as { data: { id: string }[] }).data : [])[0]?.id
      expect(note).toBeTruthy()
      const token = await t.vault!.get(a.id, 'session_token')
      await fetch(`${s.sandbox.baseUrl}/v2/auth/sign_out`, {
        method: 'DELETE',
        headers: { 'x-api-key': s.sandbox.apiKey, authorization: `Bearer ${token}` },
      })
      // The first refusal pauses the account and asks the user to sign in again.
      const first = call('scans.list')
      await until(() => t.events.some((e) => e.name === 'accounts.reauthRequired'))
      const copy = await call('targets.list')
      expect(copy.ok && copy.data.fromCache).toBe(true)
      const never = await call('reports.list')
      expect(never.ok ? null : never.error).toEqual({
        code: 'NOT_SIGNED_IN',
        message: 'Signed out: sign in to Sandbox analyst again.',
      })
      expect((await first).ok).toBe(false)
      // A write the outbox may keep waits there instead of hanging, and goes once signed in.
      const sent = s.sandbox.requests.length
      const marked = await call('notifications.mark_read', { path: { id: note } })
      expect(marked.ok && marked.data.queued?.id).toBeTruthy()
      expect(s.sandbox.requests.slice(sent).some((r) => r.includes('mark_read'))).toBe(false)
      await t.ok('accounts.signIn', { accountId: a.id, password: 'sandbox-password' })
      const markReads = () => s.sandbox.requests.filter((r) => r.includes(`${note}/mark_read`))
      await until(() => markReads().some((r) => r.includes('→ 200')))
      expect(markReads()).toHaveLength(1)
      const fresh = await call('targets.list')
      expect(fresh.ok && fresh.data.fromCache).toBe(false)
    } finally {
      await t.close()
    }
  })
})

describe('an export download when the session ends', () => {
  it('waits for the sign-in instead of failing, then downloads and verifies', async () => {
    const ex = await startExportCore(s.sandbox)
    try {
      const job = await ex.t.ok<ExportJob>('exports.generate', {
        accountId: ex.account.id,
        kind: 'report',
        resourceId: 'rpt-003',
        format: 'pdf',
      })
      await waitForJob(ex.t, ex.account.id, job.id, ['ready'])
      s.sandbox.setFaults({ unauthorizedAfter: 1 })
      await ex.t.ok('exports.download', { jobId: job.id })
      await until(() => ex.t.events.some((e) => e.name === 'accounts.reauthRequired'))
      const paused = (await ex.t.ok<ExportJob[]>('exports.list', { accountId: ex.account.id }))[0]
      expect(['downloading', 'verifying']).toContain(paused.state)
      s.sandbox.setFaults({ unauthorizedAfter: 0 })
      await ex.t.ok('accounts.signIn', { accountId: ex.account.id, password: 'sandbox-password' })
      const done = await waitForJob(ex.t, ex.account.id, job.id, ['verified', 'failed', 'mismatch'])
      expect(done.state).toBe('verified')
      expect(ex.t.events.filter((e) => e.name === 'accounts.reauthRequired')).toHaveLength(1)
    } finally {
      await ex.t.close()
    }
  })
})

describe('two accounts on two sandboxes', () => {
  const second = useSandboxAndCore({ sandbox: { apiKey: 'second-sandbox-key' }, each: 'none' })
  let proxies: RecordingProxy[]

  afterEach(async () => {
    await Promise.all(proxies.map((p) => p.close()))
  })

  it('keeps each key and token with its own service, and signing out or removing A spares B', async () => {
    second.sandbox.reset()
    proxies = [
      await startRecordingProxy(s.sandbox.baseUrl),
      await startRecordingProxy(second.sandbox.baseUrl),
    ]
    const [pa, pb] = proxies
    const [a, b] = await Promise.all([
      addAnalyst(s.t, { baseUrl: pa.baseUrl, apiKey: s.sandbox.apiKey }, { label: 'A' }),
      addAnalyst(s.t, { baseUrl: pb.baseUrl, apiKey: second.sandbox.apiKey }, { label: 'B' }),
    ])
    await Promise.all([apiCall(a.id), apiCall(b.id), apiCall(a.id, 'scans.upcoming')])
    const tokenA = await s.t.vault!.get(a.id, 'session_token')
    const tokenB = await s.t.vault!.get(b.id, 'session_token')
    expect(tokenA).not.toBe(tokenB)
    expect(new Set(pa.seen.map((r) => r.apiKey))).toEqual(new Set([s.sandbox.apiKey]))
    expect(new Set(pb.seen.map((r) => r.apiKey))).toEqual(new Set([second.sandbox.apiKey]))
    const authA = pa.seen.map((r) => r.authorization).filter(Boolean)
    const authB = pb.seen.map((r) => r.authorization).filter(Boolean)
    expect(new Set(authA)).toEqual(new Set([`Bearer ${tokenA}`]))
    expect(new Set(authB)).toEqual(new Set([`Bearer ${tokenB}`]))

    await s.t.ok('accounts.signOut', { accountId: a.id })
    const after = (await list()).accounts
    expect(after.find((x) => x.id === b.id)?.signedIn).toBe(true)
    expect((await apiCall(b.id)).ok).toBe(true)
    expect(pb.seen.some((r) => r.path === '/v2/auth/sign_out')).toBe(false)

    await s.t.ok('accounts.remove', { accountId: a.id })
    expect(await s.t.vault!.get(b.id, 'api_key')).toBe(second.sandbox.apiKey)
    expect(await s.t.vault!.get(b.id, 'session_token')).toBe(tokenB)
    expect(await s.t.vault!.get(a.id, 'api_key')).toBeNull()
    expect((await list()).accounts.map((x) => x.id)).toEqual([b.id])
  })
})
