import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type RunningSandbox } from '../server'
import { call } from './testing'

let sb: RunningSandbox
let admin: string
let customer: string
beforeAll(async () => {
  sb = await startSandbox({ port: 0, log: () => {} })
  admin = sb.sessionFor('demo@sandbox.test')
  customer = sb.sessionFor('customer@globex.test')
})
afterAll(() => sb?.close())

const ids = async (path: string, token = admin) => {
  const res = await call(sb, 'GET', path, { token })
  return {
    status: res.status,
    ids: ((res.json.data ?? []) as { id: string }[]).map((r) => r.id),
    total: res.json.meta?.pagination?.total_count as number | undefined,
  }
}

describe('the ids filter of lists', () => {
  it('keeps only the named rows of a generic list, whatever the page size', async () => {
    const shown = await ids('/v2/targets?ids=tgt-007,tgt-002,tgt-040')
    expect(shown.status).toBe(200)
    expect(shown.ids.sort()).toEqual(['tgt-002', 'tgt-007', 'tgt-040'])
    expect(shown.total).toBe(3)
  })

  it('applies to the hand-written lists too (organizations, users, notifications, reports)', async () => {
    expect((await ids('/v2/organizations?ids=org-002,org-003')).ids.sort()).toEqual([
      'org-002',
      'org-003',
    ])
    expect((await ids('/v2/users?ids=usr-002')).ids).toEqual(['usr-002'])
    // notifications are each user's own: ntf-001… are usr-001's
    const usr001 = sb.sessionFor('admin@sandbox.test')
    expect((await ids('/v2/notifications?ids=ntf-001,ntf-003', usr001)).ids.sort()).toEqual([
      'ntf-001',
      'ntf-003',
    ])
    expect((await ids('/v2/reports?ids=rpt-001')).ids).toEqual(['rpt-001'])
  })

  it('never widens what the caller may see: another organization’s ids are left out', async () => {
    const own = await ids('/v2/targets?per_page=500', customer)
    expect(own.ids).not.toContain('tgt-001')
    const asked = await ids(`/v2/targets?ids=tgt-001,${own.ids[0]}`, customer)
    expect(asked.ids).toEqual([own.ids[0]])
  })

  it('combines with the other filters and leaves unknown ids out', async () => {
    const running = await ids('/v2/scans?status=completed&per_page=500')
    const other = (await ids('/v2/scans?per_page=500')).ids.find((id) => !running.ids.includes(id))
    const shown = await ids(`/v2/scans?status=completed&ids=${running.ids[0]},${other},scn-999`)
    expect(shown.ids).toEqual([running.ids[0]])
  })

  it('refuses more than 100 ids and anything that is not an id with 422', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `tgt-${i + 1}`).join(',')
    expect((await ids(`/v2/targets?ids=${many}`)).status).toBe(422)
    const hundred = Array.from({ length: 100 }, (_, i) => `tgt-${i + 1}`).join(',')
    expect((await ids(`/v2/targets?ids=${hundred}`)).status).toBe(200)
    for (const bad of ['tgt-001,,tgt-002', 'tgt-001,', '..%2Fetc', 'tgt%20001'])
      expect((await ids(`/v2/targets?ids=${bad}`)).status, bad).toBe(422)
  })
})
