import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OperationDef } from '@contract/catalog/types'
import { operationsOf } from '@contract/catalog/index'
import type { RunningSandbox } from '../../server'
import { call, startCommerceSandbox } from './testing'

const ops: OperationDef[] = [
  ...operationsOf('users'),
  ...operationsOf('organizations'),
  ...operationsOf('billing'),
]

function url(op: OperationDef, extra: Record<string, string> = {}): string {
  const path = op.path.replace(/\{([a-z_]+)\}/g, (_, k: string) =>
    encodeURIComponent(op.example.path?.[k] ?? ''),
  )
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries({ ...op.example.query, ...extra })) q.set(k, String(v))
  const qs = q.toString()
  return qs ? `${path}?${qs}` : path
}

describe('the users, organizations and billing examples', () => {
  let sb: RunningSandbox
  beforeAll(async () => {
    sb = await startCommerceSandbox()
  })
  afterAll(() => sb.close())

  it('has all 42 operations', () => {
    expect(operationsOf('users')).toHaveLength(14)
    expect(operationsOf('organizations')).toHaveLength(16)
    expect(operationsOf('billing')).toHaveLength(12)
  })

  for (const op of ops) {
    it(`${op.id}: its example succeeds for the seeded administrator and refuses bogus=1`, async () => {
      sb.reset()
      const token = sb.sessionFor('admin@sandbox.test')
      const res = await call(sb, op.method, url(op), { token, body: op.example.body })
      expect(res.status, res.text).toBe(op.successStatus)
      if (op.responseKind === 'json') {
        const parsed = op.response.safeParse(res.json)
        expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true)
      } else {
        expect(res.headers.get('content-type')).toMatch(/^text\/csv/)
        expect(res.text.split('\r\n')[0]).toMatch(/^id,/)
      }
      sb.reset()
      const bogus = await call(sb, op.method, url(op, { bogus: '1' }), {
        token: sb.sessionFor('admin@sandbox.test'),
        body: op.example.body,
      })
      expect(bogus.status).toBe(422)
    })
  }
})
