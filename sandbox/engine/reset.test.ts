import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type RunningSandbox } from '../server'
import { call } from './testing'

const DAY = 24 * 60 * 60 * 1000

describe('resetting the sandbox', () => {
  let sb: RunningSandbox

  beforeAll(async () => {
    sb = await startSandbox({ port: 0, testMode: true, log: () => undefined })
  })
  afterAll(() => sb.close())

  it('seeds with the clock as at start, not with a clock a test advanced before', async () => {
    sb.advanceClock(30 * DAY)
    const before = Date.now()
    sb.reset()
    const token = sb.sessionFor('analyst@sandbox.test')
    const me = await call(sb, 'GET', '/v2/user', { token })
    expect(me.status).toBe(200)
    const created = Date.parse(
      (me.json as { data: { attributes: { created_at: string } } }).data.attributes.created_at,
    )
    expect(created).toBeGreaterThanOrEqual(before - 1000)
    expect(created).toBeLessThanOrEqual(Date.now() + 1000)
  })
})
