// White label settings over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../../server'
import { call, startReportingSandbox } from './test-harness'

describe('white label settings over HTTP', () => {
  let sb: RunningSandbox
  let admin: string

  beforeAll(async () => {
    sb = await startReportingSandbox()
    admin = sb.sessionFor('admin@sandbox.test')
  })
  afterAll(() => sb.close())

  it('updates white label settings with validation; customers may not', async () => {
    const show = await call(sb, 'GET', '/v2/white_label', { token: admin })
    expect(show.json.data.attributes.company_name).toBe('Acme Payments')
    const upd = await call(sb, 'PUT', '/v2/white_label', {
      token: admin,
      body: { primary_color: '#AABBCC', custom_domain: null },
    })
    expect(upd.json.data.attributes).toMatchObject({
      primary_color: '#aabbcc',
      custom_domain: null,
    })
    const big = `data:image/png;base64,${'A'.repeat(Math.ceil((256 * 1024 * 4) / 3) + 8)}`
    const tooBig = await call(sb, 'PUT', '/v2/white_label', { token: admin, body: { logo: big } })
    expect(tooBig.status).toBe(422)
    const svg = await call(sb, 'PUT', '/v2/white_label', {
      token: admin,
      body: { logo: 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=' },
    })
    expect(svg.status).toBe(422)
    const customer = sb.sessionFor('customer@globex.test')
    expect((await call(sb, 'GET', '/v2/white_label', { token: customer })).json.data.id).toBe(
      'default',
    )
    expect(
      (
        await call(sb, 'PUT', '/v2/white_label', {
          token: customer,
          body: { primary_color: '#000000' },
        })
      ).status,
    ).toBe(403)
  })
})
