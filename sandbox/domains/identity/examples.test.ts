import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { operationsOf, type OperationDef } from '@contract/catalog/index'
import { call, startLogged, type LoggedSandbox } from './testing'

function urlOf(op: OperationDef, extra: Record<string, string> = {}): string {
  const path = op.path.replace(/\{([a-z_]+)\}/g, (_, k: string) =>
    encodeURIComponent(String(op.example.path?.[k])),
  )
  const query = new URLSearchParams()
  for (const [k, v] of Object.entries({ ...op.example.query, ...extra })) query.set(k, String(v))
  const qs = query.toString()
  return qs ? `${path}?${qs}` : path
}

describe('the auth and user catalog examples against freshly seeded data', () => {
  let s: LoggedSandbox
  beforeAll(async () => {
    s = await startLogged()
  })
  afterAll(() => s.sb.close())

  const ops = [...operationsOf('auth'), ...operationsOf('user')]

  it('cover at least the named operations of both groups', () => {
    expect(operationsOf('auth').length).toBeGreaterThanOrEqual(13)
    expect(operationsOf('user').length).toBeGreaterThanOrEqual(25)
  })

  for (const op of ops) {
    it(`${op.id}: the example succeeds and an unknown query parameter is refused`, async () => {
      s.sb.reset()
      const token = op.auth === 'user' ? s.sb.sessionFor('admin@sandbox.test') : undefined
      const res = await call(s.sb, op.method, urlOf(op), { token, body: op.example.body })
      expect(res.status, `${op.id}: ${res.text}`).toBe(op.successStatus)
      const parsed = op.response.safeParse(res.json)
      expect(parsed.success, `${op.id}: ${res.text}`).toBe(true)

      s.sb.reset()
      const again = op.auth === 'user' ? s.sb.sessionFor('admin@sandbox.test') : undefined
      const bogus = await call(s.sb, op.method, urlOf(op, { bogus: '1' }), {
        token: again,
        body: op.example.body,
      })
      expect(bogus.status, op.id).toBe(422)
    })
  }
})
