import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { operations } from '@contract/catalog/index'
import type { OperationDef } from '@contract/catalog/types'
import type { RunningSandbox } from '../../server'
import { call, startScanningSandbox } from './test-harness'

const GROUPS = [
  'targets',
  'scans',
  'hosts',
  'vulnerabilities',
  'exceptions',
  'schedules',
  'scanners',
  'port_lists',
  'credentials',
]
const ours = operations.filter((op) => GROUPS.includes(op.group))

function urlOf(op: OperationDef, extraQuery: Record<string, string> = {}): string {
  const ex = op.example
  const path = op.path.replace(/\{([a-z_]+)\}/g, (_, k: string) => encodeURIComponent(ex.path![k]))
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries({ ...(ex.query ?? {}), ...extraQuery })) q.set(k, String(v))
  return q.size ? `${path}?${q}` : path
}

describe('the scanning catalog examples', () => {
  let sb: RunningSandbox
  beforeAll(async () => {
    sb = await startScanningSandbox()
  })
  afterAll(() => sb?.close())

  it('covers the 81 operations of the scanning groups', () => {
    expect(ours.length).toBe(7 + 18 + 3 + 7 + 10 + 8 + 11 + 12 + 5)
  })

  for (const op of ours) {
    it(`${op.id}: its example succeeds on fresh seed data and refuses an unknown query parameter`, async () => {
      sb.reset()
      const token = sb.sessionFor('admin@sandbox.test')
      const res = await call(sb, op.method, urlOf(op), { token, body: op.example.body })
      expect(res.status, `${op.id}: ${res.text}`).toBe(op.successStatus)
      const parsed = op.response.safeParse(res.json)
      expect(parsed.success, `${op.id}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true)

      sb.reset()
      const bogus = await call(sb, op.method, urlOf(op, { bogus: '1' }), {
        token: sb.sessionFor('admin@sandbox.test'),
        body: op.example.body,
      })
      expect(bogus.status, op.id).toBe(422)
    })
  }
})
