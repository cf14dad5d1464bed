import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../../server'
import { call, startReportingSandbox } from './test-harness'

describe('webhooks, notifications and the audit log over HTTP', () => {
  let sb: RunningSandbox
  let admin: string

  beforeAll(async () => {
    sb = await startReportingSandbox()
  })
  afterAll(() => sb.close())
  beforeEach(() => {
    sb.reset()
    admin = sb.sessionFor('admin@sandbox.test')
  })

  it('never sends a webhook secret back, only whether one is set', async () => {
    const secret = 'whsec-test-secret-1234567890'
    const created = await call(sb, 'POST', '/v2/webhooks', {
      token: admin,
      body: { name: 'Hook', url: 'https://hooks.example.com/x', events: ['report.ready'], secret },
    })
    expect(created.status).toBe(201)
    expect(created.json.data.attributes.has_secret).toBe(true)
    const id = created.json.data.id
    const answers = [
      created,
      await call(sb, 'GET', `/v2/webhooks/${id}`, { token: admin }),
      await call(sb, 'GET', '/v2/webhooks?per_page=100', { token: admin }),
      await call(sb, 'PUT', `/v2/webhooks/${id}`, { token: admin, body: { name: 'Renamed' } }),
      await call(sb, 'GET', '/v2/webhooks/whk-001/deliveries?per_page=100', { token: admin }),
    ]
    for (const a of answers) {
      expect(a.status).toBe(a === created ? 201 : 200)
      expect(a.text).not.toContain(secret)
      expect(a.text).not.toContain('whsec-sandbox')
      expect(a.text).not.toMatch(/"secret"/)
    }
    const removed = await call(sb, 'PUT', `/v2/webhooks/${id}`, {
      token: admin,
      body: { secret: null },
    })
    expect(removed.json.data.attributes.has_secret).toBe(false)
  })

  it('accepts https endpoints, and http only to the loopback interface', async () => {
    const make = (url: string) =>
      call(sb, 'POST', '/v2/webhooks', {
        token: admin,
        body: { name: 'h', url, events: ['scan.failed'] },
      })
    expect((await make('http://127.0.0.1:9000/hook')).status).toBe(201)
    expect((await make('http://localhost/hook')).status).toBe(201)
    for (const bad of [
      'http://hooks.example.com/x',
      'ftp://x.example/hook',
      'https://user:pw@x.example/',
      'not a url',
    ])
      expect((await make(bad)).status, bad).toBe(422)
  })

  it('lists deliveries of one webhook, filtered, and shows one with its request', async () => {
    const failed = await call(sb, 'GET', '/v2/webhooks/whk-001/deliveries?status=failed', {
      token: admin,
    })
    expect(failed.json.data.length).toBeGreaterThan(0)
    for (const d of failed.json.data)
      expect(d.attributes).toMatchObject({ webhook_id: 'whk-001', status: 'failed' })
    const one = await call(sb, 'GET', '/v2/webhooks/whk-001/deliveries/dlv-001', { token: admin })
    expect(JSON.parse(one.json.data.attributes.request_body).event).toBe(
      one.json.data.attributes.event,
    )
    expect(one.json.data.attributes.request_headers['x-scandesk-signature']).toMatch(
      /^sha256=[0-9a-f]{64}$/,
    )
    expect(
      (await call(sb, 'GET', '/v2/webhooks/whk-002/deliveries/dlv-001', { token: admin })).status,
    ).toBe(404)
    let total = 0
    for (const id of ['whk-001', 'whk-002', 'whk-003'])
      total += (await call(sb, 'GET', `/v2/webhooks/${id}/deliveries`, { token: admin })).json.meta
        .pagination.total_count
    expect(total).toBeGreaterThanOrEqual(20)
  })

  it('marks all notifications read for the caller only', async () => {
    const analyst = sb.sessionFor('analyst@sandbox.test')
    const before = await call(sb, 'GET', '/v2/notifications?read=false', { token: admin })
    expect(before.json.meta.unread_count).toBeGreaterThan(0)
    const analystBefore = (await call(sb, 'GET', '/v2/notifications', { token: analyst })).json.meta
      .unread_count
    const all = await call(sb, 'PUT', '/v2/notifications/mark_all_read', { token: admin })
    expect(all.json.data).toEqual({ success: true, updated: before.json.meta.unread_count })
    const after = await call(sb, 'GET', '/v2/notifications?read=false', { token: admin })
    expect(after.json.data).toEqual([])
    expect(after.json.meta).toMatchObject({ unread_count: 0, unseen_count: 0 })
    expect(
      (await call(sb, 'PUT', '/v2/notifications/mark_all_read', { token: admin })).json.data
        .updated,
    ).toBe(0)
    expect(
      (await call(sb, 'GET', '/v2/notifications', { token: analyst })).json.meta.unread_count,
    ).toBe(analystBefore)
    expect((await call(sb, 'GET', '/v2/notifications/ntf-021', { token: admin })).status).toBe(404)
  })

  it('marks one notification seen without reading it, and read implies seen', async () => {
    const seen = await call(sb, 'PUT', '/v2/notifications/ntf-001/mark_seen', { token: admin })
    expect(seen.json.data.attributes).toMatchObject({ seen: true, read: false })
    const read = await call(sb, 'PUT', '/v2/notifications/ntf-002/mark_read', { token: admin })
    expect(read.json.data.attributes).toMatchObject({ seen: true, read: true })
    const twice = await call(sb, 'PUT', '/v2/notifications/ntf-002/mark_read', { token: admin })
    expect(twice.json.data.attributes.read_at).toBe(read.json.data.attributes.read_at)
  })

  it('filters the audit log by date range, action and actor', async () => {
    const all = await call(sb, 'GET', '/v2/audit?per_page=500', { token: admin })
    const times: string[] = all.json.data.map(
      (e: { attributes: { occurred_at: string } }) => e.attributes.occurred_at,
    )
    expect(times.length).toBeGreaterThanOrEqual(200)
    expect([...times].sort().reverse()).toEqual(times)
    const from = times[times.length - 1].slice(0, 10)
    const mid = new Date(Date.parse(times[0]) - 10 * 86_400_000).toISOString().slice(0, 10)
    const ranged = await call(sb, 'GET', `/v2/audit?per_page=500&from=${from}&to=${mid}`, {
      token: admin,
    })
    const inRange = times.filter((t) => t.slice(0, 10) >= from && t.slice(0, 10) <= mid)
    expect(ranged.json.meta.pagination.total_count).toBe(inRange.length)
    expect(inRange.length).toBeGreaterThan(0)
    expect(inRange.length).toBeLessThan(times.length)
    const signIns = await call(
      sb,
      'GET',
      '/v2/audit?action=user.sign_in&actor=usr-002&per_page=500',
      { token: admin },
    )
    expect(signIns.json.data.length).toBeGreaterThan(0)
    for (const e of signIns.json.data)
      expect(e.attributes).toMatchObject({ action: 'user.sign_in', actor_id: 'usr-002' })
    expect(
      (await call(sb, 'GET', `/v2/audit?from=${mid}&to=${from}`, { token: admin })).status,
    ).toBe(from < mid ? 422 : 200)
    expect((await call(sb, 'GET', '/v2/audit?from=yesterday', { token: admin })).status).toBe(422)
  })

  it('records report downloads in the audit log', async () => {
    await fetch(`${sb.baseUrl}/v2/reports/rpt-001/download?format=csv`, {
      headers: { 'x-api-key': sb.apiKey, authorization: `Bearer ${admin}` },
    }).then((r) => r.arrayBuffer())
    const events = await call(sb, 'GET', '/v2/audit?action=report.download&per_page=1', {
      token: admin,
    })
    expect(events.json.data[0].attributes).toMatchObject({
      resource_id: 'rpt-001',
      actor_id: 'usr-001',
      details: { format: 'csv' },
    })
  })
})
