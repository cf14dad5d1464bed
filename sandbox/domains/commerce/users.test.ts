import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../../server'
import { call, startCommerceSandbox } from './testing'

describe('user administration over HTTP', () => {
  const log: string[] = []
  let sb: RunningSandbox
  let admin: string
  let manager: string
  let analyst: string
  beforeAll(async () => {
    sb = await startCommerceSandbox(log)
  })
  afterAll(() => sb.close())
  beforeEach(() => {
    sb.reset()
    log.length = 0
    admin = sb.sessionFor('admin@sandbox.test')
    manager = sb.sessionFor('manager@sandbox.test')
    analyst = sb.sessionFor('analyst@sandbox.test')
  })

  describe('who may do what', () => {
    it('refuses user writes to analysts and customers with 403, and changes nothing', async () => {
      const customer = sb.sessionFor('customer@globex.test')
      const body = { email: 'x@sandbox.test', role: 'analyst' }
      for (const token of [analyst, customer]) {
        expect((await call(sb, 'POST', '/v2/users', { token, body })).status).toBe(403)
        expect((await call(sb, 'POST', '/v2/users/invite', { token, body })).status).toBe(403)
      }
      const list = await call(sb, 'GET', '/v2/users?search=x%40sandbox', { token: admin })
      expect(list.json.data).toEqual([])
    })

    it('lets a manager create analysts but not administrators', async () => {
      const ok = await call(sb, 'POST', '/v2/users', {
        token: manager,
        body: { email: 'new@sandbox.test', role: 'analyst' },
      })
      expect(ok.status).toBe(201)
      expect(ok.json.data.attributes).toMatchObject({
        organization_id: 'org-001',
        confirmed: false,
        status: 'unconfirmed',
      })
      const refused = await call(sb, 'POST', '/v2/users', {
        token: manager,
        body: { email: 'boss@sandbox.test', role: 'administrator' },
      })
      expect(refused.status).toBe(403)
    })

    it('shows a manager only the users of their organization and the ones below it', async () => {
      const mine = await call(sb, 'GET', '/v2/users?per_page=100', { token: manager })
      const orgs = new Set(
        mine.json.data.map(
          (u: { attributes: { organization_id: string } }) => u.attributes.organization_id,
        ),
      )
      expect([...orgs].sort()).toEqual(['org-001', 'org-002'])
      // usr-008 belongs to org-003, which the manager does not administer.
      expect((await call(sb, 'GET', '/v2/users/usr-008', { token: manager })).status).toBe(404)
      expect((await call(sb, 'GET', '/v2/users/usr-008', { token: admin })).status).toBe(200)
    })
  })

  it('invites a user: a pending user whose invitation token goes to the log', async () => {
    const res = await call(sb, 'POST', '/v2/users/invite', {
      token: admin,
      body: { email: 'Invitee@Example.test', role: 'manager', organization_id: 'org-002' },
    })
    expect(res.status).toBe(201)
    expect(res.json.data.attributes).toMatchObject({
      email: 'invitee@example.test',
      role: 'manager',
      status: 'invited',
      organization_id: 'org-002',
    })
    const line = log.find((l) => l.includes('invitee@example.test'))
    expect(line).toMatch(/^\[invitation\] invitee@example\.test: invitation-[0-9a-f]{40}$/)
    expect(res.text).not.toContain(line!.split(': ')[1])
    const again = await call(sb, 'POST', '/v2/users/invite', {
      token: admin,
      body: { email: 'invitee@example.test', role: 'analyst' },
    })
    expect(again.status).toBe(422)
    expect(again.json.fields.email).toEqual(['has already been taken'])
  })

  it('imports the good rows and reports each bad row with its field errors', async () => {
    const res = await call(sb, 'POST', '/v2/users/import', {
      token: manager,
      body: {
        users: [
          { email: 'one@sandbox.test', first_name: 'One', last_name: 'A', role: 'analyst' },
          { email: 'not-an-email', first_name: 'Two', last_name: 'B', role: 'analyst' },
          { email: 'analyst@sandbox.test', role: 'wizard' },
          { email: 'ONE@sandbox.test', role: 'customer' },
          { email: 'boss@sandbox.test', role: 'administrator' },
          { email: 'three@sandbox.test', role: 'customer' },
        ],
      },
    })
    expect(res.status).toBe(200)
    const d = res.json.data
    expect(d.created).toBe(2)
    expect(d.failed).toBe(4)
    expect(d.users.map((u: { email: string }) => u.email)).toEqual([
      'one@sandbox.test',
      'three@sandbox.test',
    ])
    expect(d.errors).toEqual([
      { row: 2, email: 'not-an-email', messages: { email: ['must be an e-mail address'] } },
      {
        row: 3,
        email: 'analyst@sandbox.test',
        messages: {
          email: ['has already been taken'],
          role: ['must be one of administrator, manager, analyst, customer'],
        },
      },
      {
        row: 4,
        email: 'ONE@sandbox.test',
        messages: { email: ['appears more than once in this import'] },
      },
      {
        row: 5,
        email: 'boss@sandbox.test',
        messages: { role: ['only administrators can grant the administrator role'] },
      },
    ])
    const shown = await call(sb, 'GET', `/v2/users/${d.users[0].id}`, { token: admin })
    expect(shown.json.data.attributes).toMatchObject({ first_name: 'One', status: 'unconfirmed' })
  })

  it('refuses an import of more than 500 rows as a whole', async () => {
    const users = Array.from({ length: 501 }, (_, i) => ({
      email: `u${i}@x.test`,
      role: 'analyst',
    }))
    const res = await call(sb, 'POST', '/v2/users/import', { token: admin, body: { users } })
    expect(res.status).toBe(422)
    expect(res.json.fields.users).toBeDefined()
  })

  describe('deleting', () => {
    it('explains why a user cannot be deleted and refuses with 409', async () => {
      // The demo user is org-001's other administrator: with it gone, usr-001 is the last one.
      expect((await call(sb, 'DELETE', '/v2/users/usr-009', { token: admin })).status).toBe(200)
      const self = await call(sb, 'GET', '/v2/users/usr-001/deletable', { token: admin })
      expect(self.json.data).toMatchObject({ deletable: false })
      expect(self.json.data.reasons).toContain('you cannot delete yourself')
      expect(self.json.data.reasons).toContain('is the last administrator of its organization')
      expect((await call(sb, 'DELETE', '/v2/users/usr-001', { token: admin })).status).toBe(409)
      const other = await call(sb, 'GET', '/v2/users/usr-002/deletable', { token: admin })
      expect(other.json.data).toEqual({
        id: 'usr-002',
        deletable: true,
        reasons: [],
        resources_count: 0,
      })
    })

    it('deletes a deletable user, and only administrators may', async () => {
      expect((await call(sb, 'DELETE', '/v2/users/usr-007', { token: manager })).status).toBe(403)
      const res = await call(sb, 'DELETE', '/v2/users/usr-007', { token: admin })
      expect(res.json).toEqual({ data: { id: 'usr-007', deleted: true } })
      expect((await call(sb, 'GET', '/v2/users/usr-007', { token: admin })).status).toBe(404)
    })
  })

  it('resends confirmation only to users who have not confirmed', async () => {
    const res = await call(sb, 'PUT', '/v2/users/usr-006/resend_confirmation', { token: admin })
    expect(res.status).toBe(200)
    expect(log.some((l) => /^\[confirmation\] unconfirmed@sandbox\.test: /.test(l))).toBe(true)
    const confirmed = await call(sb, 'PUT', '/v2/users/usr-002/resend_confirmation', {
      token: admin,
    })
    expect(confirmed.status).toBe(422)
  })

  it('creates a customer user in a new customer organization below the caller’s', async () => {
    const res = await call(sb, 'POST', '/v2/users/create_customer', {
      token: admin,
      body: { email: 'buyer@initech.test', organization_name: 'Initrode', country: 'US' },
    })
    expect(res.status).toBe(201)
    const orgId = res.json.data.attributes.organization_id
    expect(res.json.data.attributes).toMatchObject({ role: 'customer', status: 'invited' })
    const org = await call(sb, 'GET', `/v2/organizations/${orgId}`, { token: admin })
    expect(org.json.data.attributes).toMatchObject({ name: 'Initrode', parent_id: 'org-001' })
  })

  it('sets and unsets the partner mark', async () => {
    const set = await call(sb, 'PUT', '/v2/users/usr-002/set_partner', { token: manager })
    expect(set.json.data.attributes.partner).toBe(true)
    const unset = await call(sb, 'PUT', '/v2/users/usr-002/unset_partner', { token: manager })
    expect(unset.json.data.attributes.partner).toBe(false)
  })

  it('refuses to inherit from oneself or from a user of another organization', async () => {
    const self = await call(sb, 'PUT', '/v2/users/usr-002/inherit_resources', {
      token: admin,
      body: { from_user_id: 'usr-002' },
    })
    expect(self.status).toBe(422)
    const other = await call(sb, 'PUT', '/v2/users/usr-002/inherit_resources', {
      token: admin,
      body: { from_user_id: 'usr-008' },
    })
    expect(other.status).toBe(422)
    expect(other.json.fields.from_user_id).toEqual(['must belong to the same organization'])
  })

  it('exports the users the caller administers as CSV', async () => {
    const res = await call(sb, 'GET', '/v2/users/export?role=analyst&sort=email', {
      token: manager,
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    const lines = res.text.trimEnd().split('\r\n')
    expect(lines[0]).toBe(
      'id,email,first_name,last_name,role,organization_id,status,confirmed,two_factor_enabled,partner,created_at',
    )
    expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual([
      'analyst@sandbox.test',
      'invited@sandbox.test',
      'sms@sandbox.test',
      'unconfirmed@sandbox.test',
    ])
  })
})
