import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { call, lastLogged, lastOtp, signIn, startLogged, type LoggedSandbox } from './testing'

const ADMIN = 'admin@sandbox.test'
const detail = (json: { errors?: { detail?: string }[] } | undefined): string =>
  json?.errors?.[0]?.detail ?? ''

describe('signing in', () => {
  let s: LoggedSandbox
  beforeAll(async () => {
    s = await startLogged({ fixedOtp: '424242' })
  })
  afterAll(() => s.sb.close())
  beforeEach(() => s.sb.reset())

  it('gives a user without 2FA a token that authenticates as that user', async () => {
    const res = await signIn(s.sb, 'Analyst@Sandbox.test')
    expect(res.status).toBe(200)
    expect(Object.keys(res.json)).toEqual(['token'])
    const me = await call(s.sb, 'GET', '/v2/user', { token: res.json.token })
    expect(me.json.data).toMatchObject({
      id: 'usr-002',
      attributes: { email: 'analyst@sandbox.test' },
    })
    expect(JSON.stringify(me.json)).not.toContain('password')
  })

  it('refuses a wrong password and an unknown user alike', async () => {
    const wrong = await signIn(s.sb, 'analyst@sandbox.test', 'nope')
    const unknown = await signIn(s.sb, 'nobody@sandbox.test')
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(detail(wrong.json)).toBe(detail(unknown.json))
  })

  it('refuses an unconfirmed user until the confirmation token is used', async () => {
    const before = await signIn(s.sb, 'unconfirmed@sandbox.test')
    expect(before.status).toBe(401)
    expect(detail(before.json)).toContain('not confirmed')
    const token = lastLogged(s.lines, 'confirmation', 'unconfirmed@sandbox.test')
    const body = { confirmation_token: token }
    expect((await call(s.sb, 'POST', '/v2/auth/confirm_user', { body })).status).toBe(200)
    expect((await call(s.sb, 'POST', '/v2/auth/confirm_user', { body })).status).toBe(401)
    expect((await signIn(s.sb, 'unconfirmed@sandbox.test')).json.token).toEqual(expect.any(String))
  })

  it('answers a 2FA user with a challenge, then a token for the issued app code', async () => {
    const res = await signIn(s.sb, ADMIN)
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      two_factor_required: true,
      methods: ['app', 'sms', 'recovery'],
      default_method: 'app',
    })
    expect(res.json.token).toBeUndefined()
    expect(lastOtp(s.lines, ADMIN)).toBe('424242')
    const otp_token = res.json.otp_token
    const wrong = await call(s.sb, 'POST', '/v2/auth/two_factor_check', {
      body: { otp_token, code: '000000' },
    })
    expect(wrong.status).toBe(401)
    expect(detail(wrong.json)).toBe('invalid or already used code')
    const right = await call(s.sb, 'POST', '/v2/auth/two_factor_check', {
      body: { otp_token, code: '424242' },
    })
    expect(right.status).toBe(200)
    const me = await call(s.sb, 'GET', '/v2/user', { token: right.json.token })
    expect(me.json.data.id).toBe('usr-001')
    const reused = await call(s.sb, 'POST', '/v2/auth/two_factor_check', {
      body: { otp_token, code: '424242' },
    })
    expect(reused.status).toBe(401)
    expect(detail(reused.json)).toBe('invalid or already used code')
  })

  it('closes a challenge after five wrong codes', async () => {
    const { otp_token } = (await signIn(s.sb, ADMIN)).json
    const body = { otp_token, code: '111111' }
    for (let i = 0; i < 5; i++) {
      expect((await call(s.sb, 'POST', '/v2/auth/two_factor_check', { body })).status).toBe(401)
    }
    const right = await call(s.sb, 'POST', '/v2/auth/two_factor_check', {
      body: { otp_token, code: '424242' },
    })
    expect(right.status).toBe(401)
  })

  it('refuses a challenge older than five minutes', async () => {
    const { otp_token } = (await signIn(s.sb, ADMIN)).json
    s.sb.advanceClock(5 * 60_000 + 1_000)
    const res = await call(s.sb, 'POST', '/v2/auth/two_factor_check', {
      body: { otp_token, code: '424242' },
    })
    expect(res.status).toBe(401)
    expect(detail(res.json)).toContain('challenge expired')
  })

  it('accepts each recovery code once', async () => {
    const codes = lastLogged(s.lines, 'recovery-codes', ADMIN).split(' ')
    expect(codes).toHaveLength(10)
    const first = (await signIn(s.sb, ADMIN)).json.otp_token
    const ok = await call(s.sb, 'POST', '/v2/auth/sign_in_recovery_code', {
      body: { otp_token: first, recovery_code: codes[3].toUpperCase() },
    })
    expect(ok.status).toBe(200)
    const left = await call(s.sb, 'GET', '/v2/user/recovery_codes', { token: ok.json.token })
    expect(left.json.data.remaining).toBe(9)
    const second = (await signIn(s.sb, ADMIN)).json.otp_token
    const again = await call(s.sb, 'POST', '/v2/auth/sign_in_recovery_code', {
      body: { otp_token: second, recovery_code: codes[3] },
    })
    expect(again.status).toBe(401)
    expect(detail(again.json)).toBe('invalid or already used code')
  })

  it('lets an SSO link token sign in once, and not after it expired', async () => {
    const sso_token = lastLogged(s.lines, 'sso', 'analyst@sandbox.test')
    const body = { sso_token }
    const first = await call(s.sb, 'POST', '/v2/auth/sso_login', { body })
    expect(first.status).toBe(200)
    expect((await call(s.sb, 'GET', '/v2/user', { token: first.json.token })).json.data.id).toBe(
      'usr-002',
    )
    expect((await call(s.sb, 'POST', '/v2/auth/sso_login', { body })).status).toBe(401)
    s.sb.reset()
    s.sb.advanceClock(61 * 60_000)
    const late = await call(s.sb, 'POST', '/v2/auth/sso_login', { body })
    expect(late.status).toBe(401)
    expect(detail(late.json)).toContain('expired')
  })

  it('ends the session on sign-out', async () => {
    const { token } = (await signIn(s.sb, 'analyst@sandbox.test')).json
    expect((await call(s.sb, 'GET', '/v2/user', { token })).status).toBe(200)
    expect((await call(s.sb, 'DELETE', '/v2/auth/sign_out', { token })).status).toBe(200)
    expect((await call(s.sb, 'GET', '/v2/user', { token })).status).toBe(401)
  })
})

describe('SMS one-time codes', () => {
  let s: LoggedSandbox
  beforeAll(async () => {
    s = await startLogged()
  })
  afterAll(() => s.sb.close())
  beforeEach(() => s.sb.reset())

  it('sends a code at sign-in, refuses a resend within 30 s, then sends a new one', async () => {
    const res = await signIn(s.sb, 'sms@sandbox.test')
    expect(res.json).toMatchObject({ two_factor_required: true, methods: ['sms'] })
    const firstCode = lastOtp(s.lines, 'sms@sandbox.test')
    expect(firstCode).toMatch(/^\d{6}$/)
    const body = { otp_token: res.json.otp_token }
    const early = await call(s.sb, 'POST', '/v2/auth/sms_otp/send', { body })
    expect(early.status).toBe(429)
    const retry = Number(early.headers.get('retry-after'))
    expect(retry).toBeGreaterThan(0)
    expect(retry).toBeLessThanOrEqual(30)
    s.sb.advanceClock(retry * 1000)
    const sent = await call(s.sb, 'POST', '/v2/auth/sms_otp/send', { body })
    expect(sent.status).toBe(200)
    expect(sent.json.data).toMatchObject({ sent: true, resend_after_seconds: 30 })
    expect(sent.json.data.phone_number).not.toContain('2071838750')
    const secondCode = lastOtp(s.lines, 'sms@sandbox.test')
    expect(secondCode).not.toBe(firstCode)
    const stale = await call(s.sb, 'POST', '/v2/auth/sms_otp/verify', {
      body: { ...body, code: firstCode },
    })
    expect(stale.status).toBe(401)
    const ok = await call(s.sb, 'POST', '/v2/auth/sms_otp/verify', {
      body: { ...body, code: secondCode },
    })
    expect(ok.status).toBe(200)
    expect((await call(s.sb, 'GET', '/v2/user', { token: ok.json.token })).json.data.id).toBe(
      'usr-004',
    )
  })

  it('keeps the cooldown it was started with, and says it in resend_after_seconds', async () => {
    const slow = await startLogged({ smsCooldownMs: 90_000 })
    try {
      const res = await signIn(slow.sb, 'sms@sandbox.test')
      const body = { otp_token: res.json.otp_token }
      slow.sb.advanceClock(31_000)
      const early = await call(slow.sb, 'POST', '/v2/auth/sms_otp/send', { body })
      expect(early.status).toBe(429)
      const retry = Number(early.headers.get('retry-after'))
      expect(retry).toBeGreaterThan(55) // 90 s from the sign-in's code, 31 s gone
      expect(retry).toBeLessThanOrEqual(59)
      slow.sb.advanceClock(retry * 1000)
      const sent = await call(slow.sb, 'POST', '/v2/auth/sms_otp/send', { body })
      expect(sent.status).toBe(200)
      expect(sent.json.data).toMatchObject({ sent: true, resend_after_seconds: 90 })
    } finally {
      await slow.sb.close()
    }
  })

  it('sends SMS codes to an app user who has a phone, on request only', async () => {
    const res = await signIn(s.sb, ADMIN)
    const appCode = lastOtp(s.lines, ADMIN)
    const body = { otp_token: res.json.otp_token }
    expect((await call(s.sb, 'POST', '/v2/auth/sms_otp/send', { body })).status).toBe(200)
    const smsCode = lastOtp(s.lines, ADMIN)
    const viaApp = await call(s.sb, 'POST', '/v2/auth/sms_otp/verify', {
      body: { ...body, code: appCode },
    })
    expect(smsCode).not.toBe(appCode)
    expect(viaApp.status).toBe(401)
    const viaSms = await call(s.sb, 'POST', '/v2/auth/sms_otp/verify', {
      body: { ...body, code: smsCode },
    })
    expect(viaSms.status).toBe(200)
  })

  it('refuses SMS for a user whose second factor is an app and who has no phone', async () => {
    const token = s.sb.sessionFor('analyst@sandbox.test')
    await call(s.sb, 'POST', '/v2/user/two_factor/enable', { token, body: { method: 'app' } })
    const code = lastOtp(s.lines, 'analyst@sandbox.test')
    const verified = await call(s.sb, 'POST', '/v2/user/two_factor/verify', {
      token,
      body: { code },
    })
    expect(verified.status).toBe(200)
    const res = await signIn(s.sb, 'analyst@sandbox.test')
    expect(res.json.methods).toEqual(['app', 'recovery'])
    const sms = await call(s.sb, 'POST', '/v2/auth/sms_otp/send', {
      body: { otp_token: res.json.otp_token },
    })
    expect(sms.status).toBe(422)
    expect(sms.json.fields.otp_token[0]).toContain('no phone number')
  })
})
