import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { call } from '../../engine/testing'
import { startSandbox, type RunningSandbox } from '../../server'

let sb: RunningSandbox
beforeAll(async () => {
  sb = await startSandbox({ port: 0, testMode: true, scanDurationMs: 60_000, log: () => {} })
})
afterAll(() => sb?.close())
beforeEach(() => sb.reset())

type Item = { id: string; attributes: Record<string, unknown> }
const get = async (path: string, token: string) =>
  (await call(sb, 'GET', path, { token })).json.data as Item[]

describe('a live scan run that ends', () => {
  it('notifies the user who started it and delivers scan.completed to the subscribed webhooks', async () => {
    const analyst = sb.sessionFor('analyst@sandbox.test')
    const manager = sb.sessionFor('manager@sandbox.test')
    const admin = sb.sessionFor('admin@sandbox.test')
    const unread = (token: string) =>
      get('/v2/notifications?kind=scan_completed&per_page=100', token).then((d) => d.length)
    const before = { analyst: await unread(analyst) }
    const hooks = (await get('/v2/webhooks?per_page=100', admin)).filter(
      (w) =>
        w.attributes.active === true &&
        (w.attributes.events as string[]).includes('scan.completed'),
    )
    expect(hooks.length).toBeGreaterThan(0)
    const deliveries = (id: string) => get(`/v2/webhooks/${id}/deliveries?per_page=100`, admin)
    const aboutScn001 = (list: Item[]) =>
      list.filter(
        (d) =>
          d.attributes.event === 'scan.completed' &&
          String(d.attributes.request_body).includes('"scan_id":"scn-001"'),
      )
    const seeded = new Map<string, number>()
    for (const hook of hooks) seeded.set(hook.id, aboutScn001(await deliveries(hook.id)).length)

    const started = await call(sb, 'PUT', '/v2/scans/scn-001/start', { token: analyst })
    expect(started.status).toBe(200)
    sb.advanceClock(2 * 60_000)
    const scan = await call(sb, 'GET', '/v2/scans/scn-001', { token: analyst })
    expect(scan.json.data.attributes.status).toBe('completed')

    const mine = await get('/v2/notifications?kind=scan_completed&per_page=100', analyst)
    expect(mine.length).toBe(before.analyst + 1)
    const told = mine.find((n) => n.attributes.resource_id === 'scn-001')
    expect(told?.attributes).toMatchObject({ read: false, seen: false, resource_type: 'scan' })
    expect(String(told?.attributes.title)).toContain('Scan completed')
    // Only the one who started it hears of it (scheduled runs meanwhile may tell the manager).
    const managers = await get('/v2/notifications?kind=scan_completed&per_page=100', manager)
    expect(managers.some((n) => n.attributes.resource_id === 'scn-001')).toBe(false)

    for (const hook of hooks)
      expect(aboutScn001(await deliveries(hook.id)).length).toBe(seeded.get(hook.id)! + 1)
  })

  it('tells nobody whose preference for that kind is off', async () => {
    const analyst = sb.sessionFor('analyst@sandbox.test')
    const off = await call(sb, 'PUT', '/v2/user/notification_preferences', {
      token: analyst,
      body: { scan_completed: false },
    })
    expect(off.status).toBe(200)
    const count = () =>
      get('/v2/notifications?kind=scan_completed&per_page=100', analyst).then((d) => d.length)
    const before = await count()
    await call(sb, 'PUT', '/v2/scans/scn-001/start', { token: analyst })
    sb.advanceClock(2 * 60_000)
    await call(sb, 'GET', '/v2/scans/scn-001', { token: analyst })
    expect(await count()).toBe(before)
  })
})
