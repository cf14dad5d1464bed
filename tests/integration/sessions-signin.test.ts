// Every way of signing in, through the real core and the real sandbox over HTTP: second factor
// (app code, SMS, recovery code), access tokens, remembered passwords, session expiry, and two
// accounts on two sandboxes side by side.
import { describe, expect, it } from 'vitest'
import type { AccountList, ApiCallOutput } from '@contract/channels'
import type { AccessTokenState, ChallengeView, SignInOutcome } from '@contract/sessions'
import {
  CHALLENGE_OVER,
  WRONG_ACCESS_TOKEN,
  WRONG_CODE,
} from '../../electron/core/accounts/sign-in'
import { FIXTURES } from '../../sandbox/domains/identity/seed'
import { lastLogged, otpFor } from '../support/otp'
import { addAnalyst, analystAccount, signedIn, startTestCore } from './core-helpers'
import { useSandboxAndCore } from './fixture'
import { challengeOf, startRecordingProxy } from './sessions-helpers'

const s = useSandboxAndCore()

const ADMIN = 'admin@sandbox.test'
const SMS = 'sms@sandbox.test'
const list = () => s.t.ok<AccountList>('accounts.list')
const apiCall = (accountId: string, op = 'targets.list') =>
  s.t.call<ApiCallOutput>('api.call', { accountId, op })

async function startAdd(username: string, over = {}): Promise<ChallengeView> {
  return challengeOf(
    await s.t.ok<SignInOutcome>('accounts.add', analystAccount(s.sandbox, { username, ...over })),
  )
}

function finish(challenge: ChallengeView, method: string, code: string) {
  return s.t.call<SignInOutcome>('accounts.secondFactor', {
    challengeId: challenge.challengeId,
    method,
    code,
  })
}

describe('adding an account whose user has two-factor sign-in', () => {
  it('stores nothing until the app code is right, and refuses a wrong one first', async () => {
    const from = s.sandbox.lines.length
    const challenge = await startAdd(ADMIN)
    expect(challenge).toMatchObject({ accountId: null, username: ADMIN, defaultMethod: 'app' })
    expect(challenge.methods).toEqual(expect.arrayContaining(['app', 'recovery']))
    expect(s.t.vault?.size).toBe(0)
    expect((await list()).accounts).toEqual([])
    const code = otpFor(s.sandbox.logged, ADMIN, from)
    const wrong = await finish(challenge, 'app', code === '000000' ? '111111' : '000000')
    expect(wrong.ok ? null : wrong.error).toMatchObject({
      code: 'UNAUTHORIZED',
      message: WRONG_CODE,
    })
    expect(s.t.vault?.size).toBe(0)
    const done = await finish(challenge, 'app', code)
    const view = signedIn(done.ok ? done.data : ({} as SignInOutcome))
    expect(view).toMatchObject({ username: ADMIN, signedIn: true, awaitingReauth: false })
    expect(await s.t.vault!.get(view.id, 'api_key')).toBe(s.sandbox.apiKey)
    expect((await apiCall(view.id)).ok).toBe(true)
    // the challenge is used up, in ScanDesk as at the service
    const reused = await finish(challenge, 'app', code)
    expect(reused.ok ? null : reused.error.code).toBe('CHALLENGE_EXPIRED')
  })

  it('refuses a code of an earlier challenge', async () => {
    const view = signedIn(
      await (async () => {
        const from = s.sandbox.lines.length
        const c = await startAdd(ADMIN)
        return s.t.ok<SignInOutcome>('accounts.secondFactor', {
          challengeId: c.challengeId,
          method: 'app',
          code: otpFor(s.sandbox.logged, ADMIN, from),
        })
      })(),
    )
    const oldCode = otpFor(s.sandbox.logged, ADMIN)
    await s.t.ok('accounts.signOut', { accountId: view.id })
    const from = s.sandbox.lines.length
    const again = challengeOf(
      await s.t.ok<SignInOutcome>('accounts.signIn', {
        accountId: view.id,
        password: 'sandbox-password',
      }),
    )
    expect(again.accountId).toBe(view.id)
    const fresh = otpFor(s.sandbox.logged, ADMIN, from)
    if (fresh !== oldCode) {
      const stale = await finish(again, 'app', oldCode)
      expect(stale.ok ? null : stale.error.message).toBe(WRONG_CODE)
    }
    expect((await finish(again, 'app', fresh)).ok).toBe(true)
    expect((await list()).accounts[0].signedIn).toBe(true)
  })

  it('restarts cleanly after the challenge expired, with nothing stored', async () => {
    const from = s.sandbox.lines.length
    const challenge = await startAdd(ADMIN)
    s.sandbox.advanceClock(6 * 60_000)
    const late = await finish(challenge, 'app', otpFor(s.sandbox.logged, ADMIN, from))
    expect(late.ok ? null : late.error).toMatchObject({
      code: 'CHALLENGE_EXPIRED',
      message: CHALLENGE_OVER,
    })
    expect(s.t.vault?.size).toBe(0)
    expect((await list()).accounts).toEqual([])
    const again = await s.t.err('accounts.sendSms', { challengeId: challenge.challengeId })
    expect(again.code).toBe('CHALLENGE_EXPIRED')
  })

  it('sends an SMS code with a cooldown, masks the phone, and verifies the newest code', async () => {
    const from = s.sandbox.lines.length
    const challenge = await startAdd(SMS)
    expect(challenge).toMatchObject({ defaultMethod: 'sms', methods: ['sms'], phoneHint: null })
    // The service texted the first code with the challenge: resending waits out its cooldown.
    expect(Date.parse(challenge.smsResendAt ?? '')).toBeGreaterThan(Date.now())
    const first = otpFor(s.sandbox.logged, SMS, from)
    // the sign-in already sent one: resending at once is refused with the wait
    const early = await s.t.err('accounts.sendSms', { challengeId: challenge.challengeId })
    expect(early).toMatchObject({ code: 'RATE_LIMITED', status: 429 })
    expect(early.retryAfterMs).toBeGreaterThan(0)
    s.sandbox.advanceClock(31_000)
    const sent = await s.t.ok<ChallengeView>('accounts.sendSms', {
      challengeId: challenge.challengeId,
    })
    expect(sent.phoneHint).toBe('+44 •••• ••8750')
    expect(Date.parse(sent.smsResendAt ?? '')).toBeGreaterThan(Date.now() + 20_000)
    const second = otpFor(s.sandbox.logged, SMS)
    const limited = await s.t.err('accounts.sendSms', { challengeId: challenge.challengeId })
    expect(limited.code).toBe('RATE_LIMITED')
    if (second !== first) {
      const stale = await finish(challenge, 'sms', first)
      expect(stale.ok ? null : stale.error.message).toBe(WRONG_CODE)
    }
    const done = await finish(challenge, 'sms', second)
    expect(done.ok && done.data.status).toBe('signedIn')
    expect(JSON.stringify(s.t.results)).not.toContain('+442071838750')
  })

  it('accepts a recovery code once only', async () => {
    const codes = lastLogged(s.sandbox.logged, 'recovery-codes', ADMIN).split(' ')
    expect(codes[0]).toBe(FIXTURES.adminRecoveryCode)
    const challenge = await startAdd(ADMIN)
    const view = signedIn(
      await s.t.ok<SignInOutcome>('accounts.secondFactor', {
        challengeId: challenge.challengeId,
        method: 'recovery',
        code: codes[0],
      }),
    )
    await s.t.ok('accounts.signOut', { accountId: view.id })
    const again = challengeOf(
      await s.t.ok<SignInOutcome>('accounts.signIn', {
        accountId: view.id,
        password: 'sandbox-password',
      }),
    )
    const used = await finish(again, 'recovery', codes[0])
    expect(used.ok ? null : used.error).toMatchObject({ code: 'UNAUTHORIZED', message: WRONG_CODE })
    expect((await finish(again, 'recovery', codes[1])).ok).toBe(true)
  })

  it('forgets a cancelled challenge', async () => {
    const challenge = await startAdd(ADMIN)
    const id = { challengeId: challenge.challengeId }
    expect(await s.t.ok('accounts.cancelChallenge', id)).toEqual({ cancelled: true })
    expect(await s.t.ok('accounts.cancelChallenge', id)).toEqual({ cancelled: false })
    expect((await finish(challenge, 'app', '123456')).ok).toBe(false)
  })
})

describe('access tokens', () => {
  it('generates one, sends it as Basic, adds an account with it, and revokes it', async () => {
    const proxy = await startRecordingProxy(s.sandbox.baseUrl)
    const other = await startTestCore()
    try {
      const view = await addAnalyst(s.t, { baseUrl: proxy.baseUrl, apiKey: s.sandbox.apiKey })
      const generated = await s.t.ok<AccessTokenState>('accounts.accessToken', {
        accountId: view.id,
        action: 'generate',
      })
      expect(generated).toMatchObject({ accountId: view.id, inUse: true, valid: true })
      const token = await s.t.vault!.get(view.id, 'access_token')
      expect(token).toBeTruthy()
      expect(await s.t.vault!.get(view.id, 'session_token')).toBeNull()
      expect((await list()).accounts[0]).toMatchObject({
        authMethod: 'access_token',
        signedIn: true,
      })
      proxy.seen.length = 0
      expect((await apiCall(view.id)).ok).toBe(true)
      expect(proxy.seen.map((r) => r.authorization)).toEqual([`Basic ${token}`])

      // another ScanDesk adds an account with that token; the user name comes from the service
      const added = signedIn(
        await other.ok<SignInOutcome>('accounts.add', {
          ...analystAccount({ baseUrl: proxy.baseUrl, apiKey: s.sandbox.apiKey }),
          authMethod: 'access_token',
          username: '',
          password: undefined,
          accessToken: token,
        }),
      )
      expect(added).toMatchObject({ username: 'analyst@sandbox.test', authMethod: 'access_token' })
      const check = { accountId: added.id, action: 'check' }
      expect(await other.ok<AccessTokenState>('accounts.accessToken', check)).toMatchObject({
        inUse: true,
        valid: true,
      })

      // revoking switches the first account back to password sign-in, signed out
      const revoked = await s.t.ok<AccessTokenState>('accounts.accessToken', {
        accountId: view.id,
        action: 'revoke',
      })
      expect(revoked).toMatchObject({ inUse: false, valid: false })
      expect((await list()).accounts[0]).toMatchObject({ authMethod: 'password', signedIn: false })
      expect(await s.t.vault!.get(view.id, 'access_token')).toBeNull()
      expect(await other.ok<AccessTokenState>('accounts.accessToken', check)).toMatchObject({
        valid: false,
      })
      const refused = await other.err('api.call', { accountId: added.id, op: 'targets.list' })
      expect(refused.code).toBe('NOT_SIGNED_IN')
      expect(refused.message).toMatch(/access token of Sandbox analyst/)
      expect(other.events.some((e) => e.name === 'accounts.reauthRequired')).toBe(false)
    } finally {
      await other.close()
      await proxy.close()
    }
  })

  it('stores nothing when the access token is wrong', async () => {
    const error = await s.t.err('accounts.add', {
      ...analystAccount(s.sandbox),
      authMethod: 'access_token',
      password: undefined,
      accessToken: 'not-a-real-token',
    })
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', message: WRONG_ACCESS_TOKEN })
    expect(s.t.vault?.size).toBe(0)
  })
})
