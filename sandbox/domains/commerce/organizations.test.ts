import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../../server'
import { call, startCommerceSandbox } from './testing'

describe('organization administration over HTTP', () => {
  let sb: RunningSandbox
  let admin: string
  let manager: string
  beforeAll(async () => {
    sb = await startCommerceSandbox()
  })
  afterAll(() => sb.close())
  beforeEach(() => {
    sb.reset()
    admin = sb.sessionFor('admin@sandbox.test')
    manager = sb.sessionFor('manager@sandbox.test')
  })

  const active = async (org: string) =>
    (await call(sb, 'GET', `/v2/organizations/${org}/subscriptions/active`, { token: admin })).json
      .data as { id: string; attributes: Record<string, unknown> }[]

  it('is for administrators only, except retrieving one’s own organization', async () => {
    expect((await call(sb, 'GET', '/v2/organizations', { token: manager })).status).toBe(403)
    expect((await call(sb, 'GET', '/v2/organizations/org-002', { token: manager })).status).toBe(
      403,
    )
    const own = await call(sb, 'GET', '/v2/organizations/org-001', { token: manager })
    expect(own.status).toBe(200)
    expect(own.json.data.attributes).toMatchObject({ name: 'Acme Payments', users_count: 7 })
    const subs = await call(sb, 'GET', '/v2/organizations/org-001/subscriptions', {
      token: manager,
    })
    expect(subs.status).toBe(403)
  })

  describe('subscribing', () => {
    it('replaces the active plan of the same product and keeps the old one as history', async () => {
      expect((await active('org-002')).map((s) => s.attributes.plan_id)).toEqual(['pln-001'])
      const res = await call(sb, 'PUT', '/v2/organizations/org-002/subscribe', {
        token: admin,
        body: { plan_id: 'pln-002' },
      })
      expect(res.status).toBe(200)
      expect(res.json.data.attributes).toMatchObject({
        organization_id: 'org-002',
        plan_id: 'pln-002',
        product_code: 'pci_scan',
        status: 'active',
        ends_at: null,
      })
      expect((await active('org-002')).map((s) => s.attributes.plan_id)).toEqual(['pln-002'])
      const old = await call(sb, 'GET', '/v2/organizations/org-002/subscriptions/sub-005', {
        token: admin,
      })
      expect(old.json.data.attributes).toMatchObject({ status: 'replaced', auto_renew: false })
      expect(typeof old.json.data.attributes.ends_at).toBe('string')
    })

    it('refuses a plan already active, an unknown plan, and a partner plan for a non-partner', async () => {
      for (const [org, plan] of [
        ['org-002', 'pln-001'],
        ['org-002', 'pln-999'],
        ['org-002', 'pln-006'],
      ]) {
        const res = await call(sb, 'PUT', `/v2/organizations/${org}/subscribe`, {
          token: admin,
          body: { plan_id: plan },
        })
        expect(res.status, plan).toBe(422)
        expect(res.json.fields.plan_id).toBeDefined()
      }
      const partner = await call(sb, 'PUT', '/v2/organizations/org-001/subscribe', {
        token: admin,
        body: { plan_id: 'pln-006' },
      })
      expect(partner.status).toBe(200)
    })

    it('unsubscribes: the active subscription ends as cancelled', async () => {
      const res = await call(sb, 'PUT', '/v2/organizations/org-001/unsubscribe', {
        token: admin,
        body: { plan_id: 'pln-005' },
      })
      expect(res.json.data).toMatchObject({ id: 'sub-003', attributes: { status: 'cancelled' } })
      expect((await active('org-001')).map((s) => s.id)).toEqual(['sub-002'])
      const again = await call(sb, 'PUT', '/v2/organizations/org-001/unsubscribe', {
        token: admin,
        body: { plan_id: 'pln-005' },
      })
      expect(again.status).toBe(422)
    })

    it('lists the subscriptions of child organizations as dependent ones', async () => {
      const res = await call(sb, 'GET', '/v2/organizations/org-001/dependent_subscriptions', {
        token: admin,
      })
      const orgs = new Set(
        res.json.data.map(
          (s: { attributes: { organization_id: string } }) => s.attributes.organization_id,
        ),
      )
      expect([...orgs]).toEqual(['org-002'])
      expect(res.json.meta.pagination.total_count).toBe(3)
    })
  })

  it('assigns and revokes features of one subscription without touching its plan', async () => {
    const path = '/v2/organizations/org-001/subscriptions/sub-002'
    const assigned = await call(sb, 'PUT', `${path}/assign_features`, {
      token: admin,
      body: { features: { targets_limit: { limit: 500 } } },
    })
    expect(assigned.json.data.attributes.features.targets_limit).toEqual({
      limit: 500,
      active: true,
      unlimited: false,
    })
    const revoked = await call(sb, 'PUT', `${path}/revoke_features`, {
      token: admin,
      body: { feature_codes: ['webhooks'] },
    })
    expect(revoked.json.data.attributes.features.webhooks).toBeUndefined()
    const plan = await call(sb, 'GET', '/v2/billing/products/pci_scan/plans/pln-002', {
      token: admin,
    })
    expect(plan.json.data.attributes.features.targets_limit.limit).toBe(100)
    expect(plan.json.data.attributes.features.webhooks).toBeDefined()
    const elsewhere = await call(sb, 'GET', '/v2/organizations/org-002/subscriptions/sub-002', {
      token: admin,
    })
    expect(elsewhere.status).toBe(404)
  })

  it('moves a user to another organization, and the user then acts in it', async () => {
    const res = await call(sb, 'PUT', '/v2/organizations/org-002/change_user_organization', {
      token: admin,
      body: { user_id: 'usr-003' },
    })
    expect(res.json.data.attributes.organization_id).toBe('org-002')
    const moved = sb.sessionFor('manager@sandbox.test')
    const own = await call(sb, 'GET', '/v2/organizations/org-002', { token: moved })
    expect(own.status).toBe(200)
    // The demo user is org-001's other administrator: with it gone, usr-001 is the last one.
    expect((await call(sb, 'DELETE', '/v2/users/usr-009', { token: admin })).status).toBe(200)
    const lastAdmin = await call(sb, 'PUT', '/v2/organizations/org-002/change_user_organization', {
      token: admin,
      body: { user_id: 'usr-001' },
    })
    expect(lastAdmin.status).toBe(422)
  })

  it('deletes an organization with its users, but not one with child organizations', async () => {
    expect((await call(sb, 'DELETE', '/v2/organizations/org-001', { token: admin })).status).toBe(
      409,
    )
    const ok = await call(sb, 'DELETE', '/v2/organizations/org-003', { token: admin })
    expect(ok.json.data).toMatchObject({ id: 'org-003', deleted: true, users_deleted: 1 })
    expect((await call(sb, 'GET', '/v2/users/usr-008', { token: admin })).status).toBe(404)
    const child = await call(sb, 'POST', '/v2/organizations', {
      token: admin,
      body: { name: 'Globex East', parent_id: 'org-002' },
    })
    expect(child.status).toBe(201)
    expect((await call(sb, 'DELETE', '/v2/organizations/org-002', { token: admin })).status).toBe(
      409,
    )
  })

  it('refuses a parent that would make a cycle', async () => {
    const res = await call(sb, 'PUT', '/v2/organizations/org-001', {
      token: admin,
      body: { parent_id: 'org-002' },
    })
    expect(res.status).toBe(422)
    expect(res.json.fields.parent_id).toBeDefined()
  })

  it('exports CSV with RFC 4180 quoting and formula cells neutralised', async () => {
    const name = '=HYPERLINK("http://evil.test","click, here")'
    await call(sb, 'PUT', '/v2/organizations/org-002', {
      token: admin,
      body: { name, description: 'line one\nline two' },
    })
    const res = await call(sb, 'GET', '/v2/organizations/export?sort=name', { token: admin })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(res.text).toContain(
      `org-002,"'=HYPERLINK(""http://evil.test"",""click, here"")","line one\nline two",GB,false,org-001,UTC,1,PCI Basic,`,
    )
    const header = res.text.split('\r\n')[0]
    expect(header).toBe(
      'id,name,description,country,partner,parent_id,time_zone,users_count,active_plans,created_at',
    )
    expect(res.text).toContain(
      'org-001,Acme Payments,Payment processor,US,true,,UTC,7,PCI Professional; External Business,',
    )
  })
})
