import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { call } from '../../engine/testing'
import { startSandbox, type RunningSandbox } from '../../server'

type Event = { id: string; attributes: Record<string, unknown> }

describe('the audit log records every write, as the service would', () => {
  let sb: RunningSandbox
  let analyst: string
  let admin: string

  beforeAll(async () => {
    sb = await startSandbox({ port: 0, testMode: true, log: () => {} })
  })
  afterAll(() => sb.close())
  beforeEach(() => {
    sb.reset()
    analyst = sb.sessionFor('analyst@sandbox.test')
    admin = sb.sessionFor('demo@sandbox.test')
  })

  /** The events newer than the seeded history (aud-001…aud-220), in the order recorded. */
  async function recorded(query = ''): Promise<Event[]> {
    const answer = await call(sb, 'GET', `/v2/audit?per_page=500${query}`, { token: admin })
    expect(answer.status).toBe(200)
    const number = (e: Event) => Number(e.id.slice(4))
    return (answer.json.data as Event[])
      .filter((e) => number(e) > 220)
      .sort((a, b) => number(a) - number(b))
  }

  it('records what the analyst did: exceptions, a quick scan, a notification marked read', async () => {
    for (const vulnerability of ['vul-002', 'vul-007']) {
      const created = await call(sb, 'POST', '/v2/exceptions', {
        token: analyst,
        headers: { 'user-agent': 'ScanDesk/0.1 (test)' },
        body: {
          vulnerability_id: vulnerability,
          kind: 'accepted_risk',
          reason: 'Compensating control in place',
          expires_at: '2030-01-01T00:00:00Z',
        },
      })
      expect(created.status).toBe(201)
    }
    const scan = await call(sb, 'POST', '/v2/scans/wizard', {
      token: analyst,
      body: { name: 'Quick scan', scan_profile: 'full_and_fast', target_ids: ['tgt-001'] },
    })
    expect(scan.status).toBe(201)
    const scanId = scan.json.data.id as string
    expect((await call(sb, 'PUT', `/v2/scans/${scanId}/start`, { token: analyst })).status).toBe(
      200,
    )
    const notes = await call(sb, 'GET', '/v2/notifications?read=false&per_page=1', {
      token: analyst,
    })
    const note = notes.json.data[0].id as string
    expect(
      (await call(sb, 'PUT', `/v2/notifications/${note}/mark_read`, { token: analyst })).status,
    ).toBe(200)

    const events = await recorded()
    expect(events.map((e) => [e.attributes.action, e.attributes.resource_type])).toEqual([
      ['exception.create', 'exception'],
      ['exception.create', 'exception'],
      ['scan.create_from_wizard', 'scan'],
      ['scan.start', 'scan'],
      ['notification.mark_read', 'notification'],
    ])
    for (const e of events)
      expect(e.attributes).toMatchObject({
        actor_id: 'usr-002',
        actor_email: 'analyst@sandbox.test',
        ip_address: '127.0.0.1',
      })
    expect(events[0].attributes.user_agent).toBe('ScanDesk/0.1 (test)')
    expect(events[0].attributes.details).toEqual({
      fields: ['expires_at', 'kind', 'reason', 'vulnerability_id'],
    })
    expect(events.map((e) => e.attributes.resource_id).slice(2)).toEqual([scanId, scanId, note])
  })

  it('gives created records ids the seeded history never named', async () => {
    const seeded = await call(sb, 'GET', '/v2/audit?per_page=500', { token: admin })
    const named = new Set(
      (seeded.json.data as Event[]).map((e) => e.attributes.resource_id).filter(Boolean),
    )
    // the seeded history names exceptions and a webhook deleted since
    expect(named).toContain('exc-007')
    expect(named).toContain('whk-004')
    const exception = await call(sb, 'POST', '/v2/exceptions', {
      token: analyst,
      body: {
        vulnerability_id: 'vul-002',
        kind: 'false_positive',
        reason: 'Not reachable',
        expires_at: '2030-01-01T00:00:00Z',
      },
    })
    const webhook = await call(sb, 'POST', '/v2/webhooks', {
      token: admin,
      body: { name: 'New hook', url: 'https://hooks.example.com/new', events: ['scan.completed'] },
    })
    for (const created of [exception, webhook]) {
      expect(created.status).toBe(201)
      expect(named).not.toContain(created.json.data.id)
    }
    expect((await call(sb, 'GET', '/v2/exceptions/exc-007', { token: admin })).status).toBe(404)
  })

  it('records each record of a bulk delete, and a handler’s own event once', async () => {
    const bulk = await call(sb, 'POST', '/v2/targets/bulk_delete', {
      token: admin,
      body: { ids: ['tgt-040', 'tgt-041', 'tgt-999'] },
    })
    expect(bulk.json.data).toEqual({ deleted: ['tgt-040', 'tgt-041'], not_found: ['tgt-999'] })
    await call(sb, 'PUT', '/v2/webhooks/whk-002/activate', { token: admin })
    const events = await recorded()
    expect(events.map((e) => [e.attributes.action, e.attributes.resource_id])).toEqual([
      ['target.delete', 'tgt-040'],
      ['target.delete', 'tgt-041'],
      ['webhook.activate', 'whk-002'],
    ])
    expect(events[0].attributes.details).toEqual({ bulk: true })
  })

  it('records sign-ins and refused sign-ins under the user, and nothing for an unknown one', async () => {
    const sign = (username: string, password: string) =>
      call(sb, 'POST', '/auth/sign_in', { body: { username, password } })
    expect((await sign('analyst@sandbox.test', 'sandbox-password')).status).toBe(200)
    expect((await sign('analyst@sandbox.test', 'wrong')).status).toBe(401)
    expect((await sign('nobody@sandbox.test', 'wrong')).status).toBe(401)
    const events = await recorded()
    expect(events.map((e) => [e.attributes.action, e.attributes.actor_id])).toEqual([
      ['user.sign_in', 'usr-002'],
      ['user.sign_in_failed', 'usr-002'],
    ])
    expect(events[0].attributes.details).toEqual({ method: 'password' })
    expect(events[1].attributes.details).toMatchObject({ method: 'password' })
    expect(JSON.stringify(events)).not.toContain('wrong')
  })

  it('records nothing for reads, calculations and refused writes', async () => {
    await call(sb, 'GET', '/v2/targets', { token: admin })
    await call(sb, 'POST', '/v2/targets/calculate_hosts', {
      token: admin,
      body: { address: '192.0.2.0/28' },
    })
    const refused = await call(sb, 'POST', '/v2/exceptions', { token: analyst, body: {} })
    expect(refused.status).toBe(422)
    expect(await recorded()).toEqual([])
  })
})
