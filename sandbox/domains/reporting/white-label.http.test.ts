// White label settings over HTTP.
import { describe, expect, it } from 'vitest'
import { call, useReportingSandbox } from './test-harness'

describe('white label settings over HTTP', () => {
  const s = useReportingSandbox()

  it('updates white label settings with validation; customers may not', async () => {
    const show = await call(s.sb, 'GET', '/v2/white_label', { token: s.admin })
    expect(show.json.data.attributes.company_name).toBe('Acme Payments')
    const upd = await call(s.sb, 'PUT', '/v2/white_label', {
      token: s.admin,
      body: { primary_color: '#AABBCC', custom_domain: null },
    })
    expect(upd.json.data.attributes).toMatchObject({
      primary_color: '#aabbcc',
      custom_domain: null,
    })
    const big = `data:image/png;base64,${'A'.repeat(Math.ceil((256 * 1024 * 4) / 3) + 8)}`
    const tooBig = await call(s.sb, 'PUT', '/v2/white_label', {
      token: s.admin,
      body: { logo: big },
    })
    expect(tooBig.status).toBe(422)
    const svg = await call(s.sb, 'PUT', '/v2/white_label', {
      token: s.admin,
      body: { logo: 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=' },
    })
    expect(svg.status).toBe(422)
    const customer = s.sb.sessionFor('customer@globex.test')
    expect((await call(s.sb, 'GET', '/v2/white_label', { token: customer })).json.data.id).toBe(
      'default',
    )
    expect(
      (
        await call(s.sb, 'PUT', '/v2/white_label', {
          token: customer,
          body: { primary_color: '#000000' },
        })
      ).status,
    ).toBe(403)
  })
})
