import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { answersFile } from '@contract/catalog/saq'
import type { RunningSandbox } from '../../server'
import { call, download, startReportingSandbox } from './test-harness'

describe('SAQs and white label settings over HTTP', () => {
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

  it('offers ten SAQ types whose templates have numbered, titled requirements', async () => {
    const types = await call(sb, 'GET', '/v2/saq/types', { token: admin })
    const codes = types.json.data.map((t: { attributes: { code: string } }) => t.attributes.code)
    expect(codes).toEqual([
      'A',
      'A-EP',
      'B',
      'B-IP',
      'C',
      'C-VT',
      'D-Merchant',
      'D-Service Provider',
      'P2PE',
      'SPoC',
    ])
    for (const t of types.json.data) {
      const tpl = await call(sb, 'GET', `/v2/saq/types/${t.id}/template`, { token: admin })
      const reqs = tpl.json.data.attributes.sections.flatMap(
        (s: { title: string; requirements: { number: string; title: string }[] }) => {
          expect(s.title.trim()).not.toBe('')
          return s.requirements
        },
      )
      expect(reqs.length).toBe(t.attributes.requirements_count)
      for (const r of reqs) {
        expect(r.title.trim(), r.number).not.toBe('')
        expect(r.number).toMatch(/^[A-Z]?\d{1,2}(\.\d{1,2}){1,3}$/)
      }
    }
    const byCode = await call(sb, 'GET', '/v2/saq/types/A-EP/template', { token: admin })
    expect(byCode.json.data.id).toBe('sqt-002')
  })

  it('refuses to approve an SAQ with missing answers and names the requirements', async () => {
    const draft = await call(sb, 'POST', '/v2/saq', {
      token: admin,
      body: { saq_type: 'A', name: 'Shop', answers: [{ requirement: '8.3.1', response: 'yes' }] },
    })
    expect(draft.status).toBe(201)
    const tpl = await call(sb, 'GET', '/v2/saq/types/A/template', { token: admin })
    const required = tpl.json.data.attributes.sections
      .flatMap((s: { requirements: { number: string; required: boolean }[] }) => s.requirements)
      .filter((r: { required: boolean }) => r.required)
      .map((r: { number: string }) => r.number)
    const refused = await call(sb, 'PUT', `/v2/saq/${draft.json.data.id}/approve`, {
      token: admin,
      body: {},
    })
    expect(refused.status).toBe(422)
    const missing = required.filter((n: string) => n !== '8.3.1')
    expect(refused.json.fields.answers).toEqual(missing.map((n: string) => `${n} is not answered`))
    const still = await call(sb, 'GET', `/v2/saq/${draft.json.data.id}`, { token: admin })
    expect(still.json.data.attributes.status).toBe('draft')
    const ok = await call(sb, 'PUT', `/v2/saq/${draft.json.data.id}/approve`, {
      token: admin,
      body: { answers: missing.map((n: string) => ({ requirement: n, response: 'yes' })) },
    })
    expect(ok.status).toBe(200)
    expect(ok.json.data.attributes).toMatchObject({
      status: 'approved',
      compliance: 'compliant',
      approved_by: 'usr-001',
    })
    expect(
      (await call(sb, 'PUT', `/v2/saq/${draft.json.data.id}/approve`, { token: admin, body: {} }))
        .status,
    ).toBe(409)
  })

  it('checks answers against the type and asks a note for N/A and compensating controls', async () => {
    const unknown = await call(sb, 'POST', '/v2/saq', {
      token: admin,
      body: { saq_type: 'A', name: 'x', answers: [{ requirement: '3.5.1', response: 'yes' }] },
    })
    expect(unknown.status).toBe(422)
    expect(unknown.json.fields.answers[0]).toContain('3.5.1')
    const noNote = await call(sb, 'POST', '/v2/saq', {
      token: admin,
      body: {
        saq_type: 'A',
        name: 'x',
        answers: [{ requirement: '8.3.1', response: 'not_applicable' }],
      },
    })
    expect(noNote.status).toBe(422)
  })

  it('clones with new answers, sets templates and starts new SAQs from them', async () => {
    const clone = await call(sb, 'PUT', '/v2/saq/saq-001/clone', {
      token: admin,
      body: { answers: [{ requirement: '8.3.1', response: 'no', note: 'MFA rollout pending' }] },
    })
    expect(clone.status).toBe(201)
    expect(clone.json.data.attributes).toMatchObject({ status: 'draft', cloned_from: 'saq-001' })
    const a = clone.json.data.attributes.answers.find(
      (x: { requirement: string }) => x.requirement === '8.3.1',
    )
    expect(a).toMatchObject({ response: 'no', note: 'MFA rollout pending' })
    await call(sb, 'PUT', '/v2/saq/saq-001/set_template', { token: admin })
    const fromTpl = await call(sb, 'POST', '/v2/saq', {
      token: admin,
      body: { saq_type: 'A', name: 'From template', template_id: 'saq-001' },
    })
    const source = await call(sb, 'GET', '/v2/saq/saq-001', { token: admin })
    expect(fromTpl.json.data.attributes.answers.length).toBe(
      source.json.data.attributes.answers.length,
    )
    const { answered, required } = fromTpl.json.data.attributes.progress
    expect(required).toBeGreaterThan(10)
    expect(answered).toBe(required)
    const wrongType = await call(sb, 'POST', '/v2/saq', {
      token: admin,
      body: { saq_type: 'B', name: 'x', template_id: 'saq-001' },
    })
    expect(wrongType.status).toBe(422)
  })

  it('downloads an SAQ as a PDF through the same get operation', async () => {
    const pdf = await download(sb, '/v2/saq/saq-002?format=pdf', admin)
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(pdf.bytes.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4')
    expect(pdf.bytes.toString('latin1')).toContain('(8.3.1) Tj')
    const json = await call(sb, 'GET', '/v2/saq/saq-002?format=json', { token: admin })
    expect(json.json.data.attributes.saq_type).toBe('A')
    expect(answersFile('saq.show', { format: 'pdf' })).toBe(true)
    expect(answersFile('saq.show', { format: 'json' })).toBe(false)
    expect(answersFile('saq.show', {})).toBe(false)
  })

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
