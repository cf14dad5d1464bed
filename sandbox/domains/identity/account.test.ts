import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { call, lastLogged, lastOtp, signIn, startLogged, type LoggedSandbox } from './testing'

/** One resource of a collection answer. */
interface Item {
  id: string
  attributes: Record<string, unknown>
}

describe('the current user and their credentials', () => {
  let s: LoggedSandbox
  let admin: string
  let analyst: string
  beforeAll(async () => {
    s = await startLogged({ fixedOtp: '909090' })
  })
  afterAll(() => s.sb.close())
  beforeEach(() => {
    s.sb.reset()
    admin = s.sb.sessionFor('admin@sandbox.test')
    analyst = s.sb.sessionFor('analyst@sandbox.test')
  })

  it('generates an access token that works as Basic until it is revoked', async () => {
    const gen = await call(s.sb, 'PUT', '/v2/user/generate_access_token', { token: analyst })
    expect(gen.status).toBe(200)
    const basic = gen.json.data.access_token as string
    const me = await call(s.sb, 'GET', '/v2/user', { basic })
    expect(me.json.data.id).toBe('usr-002')
    const validity = await call(s.sb, 'GET', '/v2/user/token_validity', { basic })
    expect(validity.json.data).toEqual({ valid: true, via: 'access_token', expires_at: null })
    const session = await call(s.sb, 'GET', '/v2/user/token_validity', { token: analyst })
    expect(session.json.data.via).toBe('session')
    const revoke = await call(s.sb, 'DELETE', '/v2/user/access_token', { token: analyst })
    expect(revoke.json.data).toEqual({ success: true, revoked: true })
    expect((await call(s.sb, 'GET', '/v2/user', { basic })).status).toBe(401)
    const none = await call(s.sb, 'DELETE', '/v2/user/access_token', { token: analyst })
    expect(none.json.data.revoked).toBe(false)
  })

  it('lets an administrator impersonate a user and stop again', async () => {
    const start = await call(s.sb, 'POST', '/v2/auth/impersonate', {
      token: admin,
      body: { user_id: 'usr-005' },
    })
    expect(start.status).toBe(200)
    expect(start.json.data).toMatchObject({ user_id: 'usr-005', impersonator_id: 'usr-001' })
    const as = start.json.token as string
    expect((await call(s.sb, 'GET', '/v2/user', { token: as })).json.data.id).toBe('usr-005')
    const nested = await call(s.sb, 'POST', '/v2/auth/impersonate', {
      token: as,
      body: { user_id: 'usr-002' },
    })
    expect(nested.status).toBe(403) // a customer is no administrator
    const sensitive = await call(s.sb, 'PUT', '/v2/user/change_password', {
      token: as,
      body: { current_password: 'sandbox-password', password: 'another-password-1' },
    })
    expect(sensitive.status).toBe(403)
    const stop = await call(s.sb, 'DELETE', '/v2/auth/impersonate', { token: as })
    expect(stop.json.data).toEqual({ stopped: true, user_id: 'usr-001' })
    expect((await call(s.sb, 'GET', '/v2/user', { token: as })).status).toBe(401)
    const back = await call(s.sb, 'GET', '/v2/user', { token: stop.json.token })
    expect(back.json.data.id).toBe('usr-001')
  })

  it('refuses impersonation by non-administrators and of oneself', async () => {
    const byAnalyst = await call(s.sb, 'POST', '/v2/auth/impersonate', {
      token: analyst,
      body: { user_id: 'usr-003' },
    })
    expect(byAnalyst.status).toBe(403)
    const self = await call(s.sb, 'POST', '/v2/auth/impersonate', {
      token: admin,
      body: { user_id: 'usr-001' },
    })
    expect(self.status).toBe(422)
    const missing = await call(s.sb, 'POST', '/v2/auth/impersonate', {
      token: admin,
      body: { user_id: 'usr-999' },
    })
    expect(missing.status).toBe(404)
  })

  it('resets a forgotten password with the e-mailed token, once', async () => {
    const lines = s.lines.length
    const ask = await call(s.sb, 'POST', '/v2/auth/password_reset', {
      body: { email: 'analyst@sandbox.test' },
    })
    const unknown = await call(s.sb, 'POST', '/v2/auth/password_reset', {
      body: { email: 'nobody@sandbox.test' },
    })
    expect(ask.status).toBe(200)
    expect(unknown.status).toBe(200)
    expect(unknown.json).toEqual(ask.json)
    expect(s.lines.slice(lines).filter((l) => l.includes('nobody@'))).toEqual([])
    const reset_token = lastLogged(s.lines, 'password-reset', 'analyst@sandbox.test')
    const body = { reset_token, password: 'brand-new-password' }
    expect((await call(s.sb, 'PUT', '/v2/auth/password_reset', { body })).status).toBe(200)
    expect((await call(s.sb, 'PUT', '/v2/auth/password_reset', { body })).status).toBe(401)
    expect((await signIn(s.sb, 'analyst@sandbox.test')).status).toBe(401)
    expect((await signIn(s.sb, 'analyst@sandbox.test', 'brand-new-password')).status).toBe(200)
  })

  it('accepts an invitation with a password and names, then signs in with them', async () => {
    const invitation_token = lastLogged(s.lines, 'invitation', 'invited@sandbox.test')
    expect((await signIn(s.sb, 'invited@sandbox.test')).status).toBe(401)
    const body = { invitation_token, password: 'my-own-password', first_name: 'I', last_name: 'V' }
    const res = await call(s.sb, 'POST', '/v2/auth/accept_invitation', { body })
    expect(res.status).toBe(200)
    const me = await call(s.sb, 'GET', '/v2/user', { token: res.json.token })
    expect(me.json.data.attributes).toMatchObject({ first_name: 'I', confirmed: true })
    expect((await call(s.sb, 'POST', '/v2/auth/accept_invitation', { body })).status).toBe(401)
    expect((await signIn(s.sb, 'invited@sandbox.test', 'my-own-password')).status).toBe(200)
  })

  it('changes the password only with the right current one', async () => {
    const wrong = await call(s.sb, 'PUT', '/v2/user/change_password', {
      token: analyst,
      body: { current_password: 'not-it', password: 'a-new-password' },
    })
    expect(wrong.status).toBe(422)
    expect(wrong.json.fields).toHaveProperty('current_password')
    const ok = await call(s.sb, 'PUT', '/v2/user/change_password', {
      token: analyst,
      body: { current_password: 'sandbox-password', password: 'a-new-password' },
    })
    expect(ok.status).toBe(200)
    expect((await signIn(s.sb, 'analyst@sandbox.test', 'a-new-password')).status).toBe(200)
  })

  it('enables and disables two-factor sign-in', async () => {
    const start = await call(s.sb, 'POST', '/v2/user/two_factor/enable', {
      token: analyst,
      body: { method: 'app' },
    })
    const { secret, otpauth_uri } = start.json.data
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(otpauth_uri).toContain(`secret=${secret}`)
    const bad = await call(s.sb, 'POST', '/v2/user/two_factor/verify', {
      token: analyst,
      body: { code: '123123' },
    })
    expect(bad.status).toBe(422)
    const code = lastOtp(s.lines, 'analyst@sandbox.test')
    const done = await call(s.sb, 'POST', '/v2/user/two_factor/verify', {
      token: analyst,
      body: { code },
    })
    expect(done.json.data.recovery_codes).toHaveLength(10)
    expect((await signIn(s.sb, 'analyst@sandbox.test')).json.two_factor_required).toBe(true)
    const masked = await call(s.sb, 'GET', '/v2/user/recovery_codes', { token: analyst })
    expect(masked.json.data.remaining).toBe(10)
    expect(JSON.stringify(masked.json)).not.toContain(done.json.data.recovery_codes[0])
    const off = await call(s.sb, 'PUT', '/v2/user/two_factor/disable', {
      token: analyst,
      body: { password: 'sandbox-password' },
    })
    expect(off.json.data.attributes.two_factor_enabled).toBe(false)
    expect((await signIn(s.sb, 'analyst@sandbox.test')).json.token).toEqual(expect.any(String))
  })

  it('makes SMS the default method only for a user with a phone', async () => {
    const sms = await call(s.sb, 'PUT', '/v2/user/two_factor/default_method', {
      token: admin,
      body: { method: 'sms' },
    })
    expect(sms.json.data.attributes.two_factor_method).toBe('sms')
    expect((await signIn(s.sb, 'admin@sandbox.test')).json.methods[0]).toBe('sms')
    const smsUser = s.sb.sessionFor('sms@sandbox.test')
    const app = await call(s.sb, 'PUT', '/v2/user/two_factor/default_method', {
      token: smsUser,
      body: { method: 'app' },
    })
    expect(app.status).toBe(422)
  })

  it('deletes the own account with the password, ending its sessions', async () => {
    const wrong = await call(s.sb, 'DELETE', '/v2/user', {
      token: analyst,
      body: { password: 'nope' },
    })
    expect(wrong.status).toBe(422)
    const ok = await call(s.sb, 'DELETE', '/v2/user', {
      token: analyst,
      body: { password: 'sandbox-password' },
    })
    expect(ok.json.data).toEqual({ id: 'usr-002', deleted: true })
    expect((await call(s.sb, 'GET', '/v2/user', { token: analyst })).status).toBe(401)
    expect((await signIn(s.sb, 'analyst@sandbox.test')).status).toBe(401)
  })

  it('warns the last administrator but lets them delete the account', async () => {
    const before = await call(s.sb, 'GET', '/v2/user/deletability', { token: admin })
    expect(before.json.data.warnings.join(' ')).not.toContain('last administrator')
    // The demo user is org-001's other administrator: with it gone, the admin is the last one.
    expect((await call(s.sb, 'DELETE', '/v2/users/usr-009', { token: admin })).status).toBe(200)
    const check = await call(s.sb, 'GET', '/v2/user/deletability', { token: admin })
    expect(check.json.data.deletable).toBe(true)
    expect(check.json.data.warnings.join(' ')).toContain('last administrator')
    const other = await call(s.sb, 'GET', '/v2/user/deletability', { token: analyst })
    expect(other.json.data.warnings.join(' ')).not.toContain('last administrator')
  })

  it('lists permissions by role and members of the own organization only', async () => {
    const a = (await call(s.sb, 'GET', '/v2/user/permissions', { token: admin })).json.data
    const b = (await call(s.sb, 'GET', '/v2/user/permissions', { token: analyst })).json.data
    expect(a.role).toBe('administrator')
    expect(a.permissions).toContain('impersonate')
    expect(b.permissions).not.toContain('impersonate')
    expect(b.permissions).toContain('scans.run')
    const members = await call(s.sb, 'GET', '/v2/user/organization_members?per_page=50', {
      token: analyst,
    })
    const orgs = new Set(members.json.data.map((u: Item) => u.attributes.organization_id))
    expect([...orgs]).toEqual(['org-001'])
    expect(members.json.meta.pagination.total_count).toBe(members.json.data.length)
    const found = await call(s.sb, 'GET', '/v2/user/organization_members?search=manager', {
      token: analyst,
    })
    expect(found.json.data.map((u: Item) => u.id)).toEqual(['usr-003'])
  })

  it('marks products subscribed exactly when the organization has an active subscription', async () => {
    const products = (await call(s.sb, 'GET', '/v2/user/products', { token: admin })).json.data
    const history = (
      await call(s.sb, 'GET', '/v2/user/subscriptions_history?per_page=100', { token: admin })
    ).json.data
    const active = new Set(
      history
        .filter((h: Item) => h.attributes.status === 'active')
        .map((h: Item) => h.attributes.product_code),
    )
    for (const p of products)
      expect(p.attributes.subscribed).toBe(active.has(p.attributes.product_code))
    const change = await call(s.sb, 'PUT', '/v2/user/change_product', {
      token: admin,
      body: { product_code: 'no_such_product' },
    })
    expect(change.status).toBe(404)
  })

  it('only changes the organization as an administrator', async () => {
    const body = { name: 'Acme Payments GmbH' }
    const denied = await call(s.sb, 'PUT', '/v2/user/organization', { token: analyst, body })
    expect(denied.status).toBe(403)
    const ok = await call(s.sb, 'PUT', '/v2/user/organization', { token: admin, body })
    expect(ok.json.data).toMatchObject({ id: 'org-001', attributes: body })
    const seen = await call(s.sb, 'GET', '/v2/user/organization', { token: analyst })
    expect(seen.json.data.attributes.name).toBe('Acme Payments GmbH')
  })

  it('transfers resources only to an active user of the same organization', async () => {
    const other = await call(s.sb, 'PUT', '/v2/user/transfer_resources', {
      token: analyst,
      body: { user_id: 'usr-005' },
    })
    expect(other.status).toBe(404)
    const self = await call(s.sb, 'PUT', '/v2/user/transfer_resources', {
      token: analyst,
      body: { user_id: 'usr-002' },
    })
    expect(self.status).toBe(422)
    const ok = await call(s.sb, 'PUT', '/v2/user/transfer_resources', {
      token: analyst,
      body: { user_id: 'usr-003' },
    })
    expect(ok.json.data).toMatchObject({ to_user_id: 'usr-003' })
    const again = await call(s.sb, 'PUT', '/v2/user/transfer_resources', {
      token: analyst,
      body: { user_id: 'usr-003' },
    })
    expect(again.json.data.transferred).toBe(0)
  })
})
