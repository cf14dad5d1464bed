import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { planAttributes } from '@contract/catalog/billing'
import { single } from '@contract/schemas/common'
import type { RunningSandbox } from '../../server'
import { call, startCommerceSandbox } from './testing'

const PLAN = '/v2/billing/products/pci_scan/plans'

describe('billing plans over HTTP', () => {
  let sb: RunningSandbox
  let admin: string
  let analyst: string
  beforeAll(async () => {
    sb = await startCommerceSandbox()
  })
  afterAll(() => sb.close())
  beforeEach(() => {
    sb.reset()
    admin = sb.sessionFor('admin@sandbox.test')
    analyst = sb.sessionFor('analyst@sandbox.test')
  })

  describe('updating a plan by the interface path', () => {
    it('answers 200 with the updated plan and keeps fields the body leaves out', async () => {
      const res = await call(sb, 'PUT', `${PLAN}/pln-002`, {
        token: admin,
        body: { name: 'PCI Pro', price: 949.5, partner: true },
      })
      expect(res.status).toBe(200)
      const plan = single(planAttributes).parse(res.json).data
      expect(plan).toMatchObject({ id: 'pln-002', type: 'plan' })
      expect(plan.attributes).toMatchObject({
        name: 'PCI Pro',
        price: 949.5,
        partner: true,
        code: 'professional',
        product_code: 'pci_scan',
      })
      const shown = await call(sb, 'GET', `${PLAN}/pln-002`, { token: admin })
      expect(shown.json.data.attributes.name).toBe('PCI Pro')
    })

    it('replaces the feature map when features are given', async () => {
      const res = await call(sb, 'PUT', `${PLAN}/pln-002`, {
        token: admin,
        body: { name: 'PCI Professional', features: { targets_limit: { limit: 7 } } },
      })
      expect(res.json.data.attributes.features).toEqual({
        targets_limit: { limit: 7, active: true, unlimited: false },
      })
    })

    it('answers 404 for an unknown plan, an unknown product, and a plan of another product', async () => {
      const body = { name: 'x' }
      for (const path of [
        `${PLAN}/pln-999`,
        '/v2/billing/products/no_such_product/plans/pln-002',
        '/v2/billing/products/external_scan/plans/pln-002',
      ]) {
        const res = await call(sb, 'PUT', path, { token: admin, body })
        expect(res.status, path).toBe(404)
        expect(res.json.error).toBe('Record Not Found')
      }
    })

    it('answers 422 naming the field when name is missing, or a feature is unknown', async () => {
      const noName = await call(sb, 'PUT', `${PLAN}/pln-002`, { token: admin, body: { price: 1 } })
      expect(noName.status).toBe(422)
      expect(noName.json.fields.name).toBeDefined()
      const badFeature = await call(sb, 'PUT', `${PLAN}/pln-002`, {
        token: admin,
        body: { name: 'x', features: { teleportation: { active: true } } },
      })
      expect(badFeature.status).toBe(422)
      expect(Object.keys(badFeature.json.fields)).toEqual(['features.teleportation'])
      const unchanged = await call(sb, 'GET', `${PLAN}/pln-002`, { token: admin })
      expect(unchanged.json.data.attributes.name).toBe('PCI Professional')
    })

    it('answers 422 when the code is taken by another plan of the same product', async () => {
      const res = await call(sb, 'PUT', `${PLAN}/pln-002`, {
        token: admin,
        body: { name: 'x', code: 'basic' },
      })
      expect(res.status).toBe(422)
      expect(res.json.fields.code).toBeDefined()
    })

    it('answers 401 without a token and 403 for an analyst', async () => {
      expect((await call(sb, 'PUT', `${PLAN}/pln-002`, { body: { name: 'x' } })).status).toBe(401)
      const res = await call(sb, 'PUT', `${PLAN}/pln-002`, { token: analyst, body: { name: 'x' } })
      expect(res.status).toBe(403)
    })
  })

  describe('default plans', () => {
    it('moves the default of a product to another plan and leaves other products alone', async () => {
      const before = await call(sb, 'GET', `${PLAN}/default`, { token: admin })
      expect(before.json.data.id).toBe('pln-001')
      const set = await call(sb, 'PUT', `${PLAN}/pln-002/set_default`, { token: admin })
      expect(set.status).toBe(200)
      expect(set.json.data.attributes.default).toBe(true)
      expect((await call(sb, 'GET', `${PLAN}/default`, { token: admin })).json.data.id).toBe(
        'pln-002',
      )
      const old = await call(sb, 'GET', `${PLAN}/pln-001`, { token: admin })
      expect(old.json.data.attributes.default).toBe(false)
      const all = await call(sb, 'GET', '/v2/billing/default_plans', { token: admin })
      expect(all.json.data.map((p: { id: string }) => p.id)).toEqual([
        'pln-002',
        'pln-004',
        'pln-007',
      ])
    })

    it('leaves a product without a default after unset (then 404), and unset is repeatable', async () => {
      for (let i = 0; i < 2; i++) {
        const res = await call(sb, 'PUT', `${PLAN}/pln-001/unset_default`, { token: admin })
        expect(res.status).toBe(200)
        expect(res.json.data.attributes.default).toBe(false)
      }
      expect((await call(sb, 'GET', `${PLAN}/default`, { token: admin })).status).toBe(404)
      const all = await call(sb, 'GET', '/v2/billing/default_plans', { token: admin })
      expect(all.json.data.map((p: { id: string }) => p.id)).toEqual(['pln-004', 'pln-007'])
    })

    it('refuses to delete the default plan or a plan with active subscriptions (409)', async () => {
      expect((await call(sb, 'DELETE', `${PLAN}/pln-001`, { token: admin })).status).toBe(409)
      expect((await call(sb, 'DELETE', `${PLAN}/pln-002`, { token: admin })).status).toBe(409)
      expect((await call(sb, 'DELETE', `${PLAN}/pln-003`, { token: admin })).status).toBe(200)
      expect((await call(sb, 'GET', `${PLAN}/pln-003`, { token: admin })).status).toBe(404)
    })
  })

  describe('plan features', () => {
    it('assigns new features and changes only the given fields of existing ones', async () => {
      const res = await call(sb, 'PUT', `${PLAN}/pln-001/assign_features`, {
        token: admin,
        body: {
          features: { api_access: { active: true }, targets_limit: { unlimited: true } },
        },
      })
      expect(res.status).toBe(200)
      const f = res.json.data.attributes.features
      expect(f.api_access).toEqual({ limit: 0, active: true, unlimited: false })
      expect(f.targets_limit).toEqual({ limit: 10, active: true, unlimited: true })
      expect(f.saq_access).toEqual({ limit: 0, active: true, unlimited: false })
    })

    it('revokes features, ignores ones the plan lacks, and refuses unknown codes', async () => {
      const res = await call(sb, 'PUT', `${PLAN}/pln-002/revoke_features`, {
        token: admin,
        body: { feature_codes: ['webhooks', 'internal_scanners'] },
      })
      expect(res.status).toBe(200)
      expect(Object.keys(res.json.data.attributes.features).sort()).toEqual([
        'advanced_reports',
        'api_access',
        'saq_access',
        'scans_per_month',
        'targets_limit',
      ])
      const bad = await call(sb, 'PUT', `${PLAN}/pln-002/revoke_features`, {
        token: admin,
        body: { feature_codes: ['webhooks', 'warp_drive'] },
      })
      expect(bad.status).toBe(422)
      expect(bad.json.fields).toEqual({ 'feature_codes.1': ['is not a known feature'] })
    })
  })

  it('creates a plan with a code derived from its name, unique within the product', async () => {
    const res = await call(sb, 'POST', PLAN, { token: admin, body: { name: 'PCI Gold 2025' } })
    expect(res.status).toBe(201)
    expect(res.json.data.attributes).toMatchObject({ code: 'pci_gold_2025', default: false })
    const again = await call(sb, 'POST', PLAN, { token: admin, body: { name: 'PCI Gold 2025' } })
    expect(again.status).toBe(422)
    const list = await call(sb, 'GET', PLAN, { token: admin })
    expect(list.json.meta.pagination.total_count).toBe(4)
  })
})
