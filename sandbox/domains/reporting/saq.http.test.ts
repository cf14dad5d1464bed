import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { SAQ_TESTING_METHODS, SAQ_TEXT_MAX } from '@contract/saq'
import type { RunningSandbox } from '../../server'
import { call, startReportingSandbox } from './test-harness'

interface Req {
  number: string
  title: string
  required: boolean
  testing_methods: string[]
  guidance: string | null
}
interface Section {
  number: string
  title: string
  requirements: Req[]
}

const SIZES: Record<string, [number, number]> = {
  A: [25, 35],
  'A-EP': [130, 150],
  B: [35, 45],
  'B-IP': [45, 55],
  C: [150, 170],
  'C-VT': [70, 90],
  'D-Merchant': [225, 255],
  'D-Service Provider': [250, 270],
  P2PE: [20, 30],
  SPoC: [30, 40],
}

const TYPE_IDS: Record<string, string> = { 'D-Service Provider': 'sqt-008' }
const BASE = ['in_place', 'in_place_ccw', 'not_applicable', 'not_in_place']
const ATTESTATION = { signer_name: 'Dana Reyes', signer_title: 'CISO', date: '2026-11-20' }

describe('SAQs over HTTP', () => {
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

  async function templateOf(code: string): Promise<{
    template_version: string
    responses: string[]
    eligibility: string[]
    sections: Section[]
  }> {
    // Codes with a space (D-Service Provider) are not valid path ids: use the type's id.
    const id = code.includes(' ') ? TYPE_IDS[code] : code
    const res = await call(sb, 'GET', `/v2/saq/types/${id}/template`, {
      token: admin,
    })
    expect(res.status).toBe(200)
    return res.json.data.attributes
  }

  async function requiredOf(code: string): Promise<string[]> {
    return (await templateOf(code)).sections
      .flatMap((s) => s.requirements)
      .filter((r) => r.required)
      .map((r) => r.number)
  }

  async function count(): Promise<number> {
    return (await call(sb, 'GET', '/v2/saq?per_page=100', { token: admin })).json.data.length
  }

  it('offers ten SAQ types sized like the real questionnaires, with eligibility lines', async () => {
    const types = await call(sb, 'GET', '/v2/saq/types', { token: admin })
    const codes = types.json.data.map((t: { attributes: { code: string } }) => t.attributes.code)
    expect(codes).toEqual(Object.keys(SIZES))
    for (const t of types.json.data) {
      const code: string = t.attributes.code
      const tpl = await call(sb, 'GET', `/v2/saq/types/${t.id}/template`, { token: admin })
      const attrs = tpl.json.data.attributes
      const reqs: Req[] = attrs.sections.flatMap((s: Section) => {
        expect(s.title.trim()).not.toBe('')
        return s.requirements
      })
      const [min, max] = SIZES[code]
      expect(reqs.length, code).toBeGreaterThanOrEqual(min)
      expect(reqs.length, code).toBeLessThanOrEqual(max)
      expect(reqs.length).toBe(t.attributes.requirements_count)
      expect(attrs.template_version).toBe(t.attributes.template_version)
      for (const lines of [t.attributes.eligibility, attrs.eligibility]) {
        expect(lines.length, code).toBeGreaterThanOrEqual(3)
        expect(lines.length, code).toBeLessThanOrEqual(5)
      }
      expect(new Set(reqs.map((r) => r.number)).size).toBe(reqs.length)
      for (const r of reqs) {
        expect(r.title.trim(), r.number).not.toBe('')
        expect(r.number).toMatch(/^[A-Z]?\d{1,2}(\.\d{1,2}){1,3}$/)
        expect(r.testing_methods.length, r.number).toBeGreaterThan(0)
        for (const m of r.testing_methods) expect(SAQ_TESTING_METHODS).toContain(m)
      }
      const hasA1 = reqs.some((r) => r.number.startsWith('A1.'))
      expect(hasA1, code).toBe(code === 'D-Service Provider')
    }
    const dsp = (await templateOf('D-Service Provider')).sections.flatMap((s) => s.requirements)
    expect(dsp.some((r) => !r.required)).toBe(true)
    expect(dsp.some((r) => r.guidance)).toBe(true)
    const byCode = await call(sb, 'GET', '/v2/saq/types/A-EP/template', { token: admin })
    expect(byCode.json.data.id).toBe('sqt-002')
  })

  it('offers answer choices by type and template version', async () => {
    const a = await templateOf('A')
    expect(a.template_version).toBe('4.0.1')
    expect(a.responses).toEqual([...BASE.slice(0, 2), 'in_place_remediation', ...BASE.slice(2)])
    for (const code of ['P2PE', 'SPoC']) {
      const t = await templateOf(code)
      expect(t.template_version).toBe('4.0')
      expect(t.responses).toEqual(BASE)
    }
    const dsp = await templateOf('D-Service Provider')
    expect(dsp.responses).toContain('not_tested')
    expect(dsp.responses).toContain('in_place_remediation')
    for (const code of ['A', 'C', 'D-Merchant', 'P2PE'])
      expect((await templateOf(code)).responses).not.toContain('not_tested')
  })

  it('refuses bad answers with keys answers.<requirement number>, saving nothing', async () => {
    const before = await count()
    const refused = await call(sb, 'POST', '/v2/saq', {
      token: admin,
      body: {
        saq_type: 'A',
        name: 'x',
        answers: [
          { requirement: '8.3.1', response: 'not_tested', explanation: 'not looked at' },
          { requirement: '3.5.1', response: 'in_place' },
          { requirement: '2.2.2', response: 'in_place' },
        ],
      },
    })
    expect(refused.status).toBe(422)
    expect(refused.json.fields).toEqual({
      'answers.8.3.1': ['Not Tested is not offered by this questionnaire'],
      'answers.3.5.1': ['is not a requirement of SAQ A (template 4.0.1)'],
    })
    const p2pe = await call(sb, 'POST', '/v2/saq', {
      token: admin,
      body: {
        saq_type: 'P2PE',
        name: 'x',
        answers: [{ requirement: '9.5.1', response: 'in_place_remediation' }],
      },
    })
    expect(p2pe.status).toBe(422)
    expect(p2pe.json.fields['answers.9.5.1']).toEqual([
      'In Place with Remediation is not offered by this questionnaire',
    ])
    expect(await count()).toBe(before)
  })

  it('refuses an over-long explanation and a missing explanation with clear messages', async () => {
    const huge = await call(sb, 'POST', '/v2/saq', {
      token: admin,
      body: {
        saq_type: 'A',
        name: 'x',
        answers: [
          { requirement: '8.3.1', response: 'not_applicable', explanation: 'x'.repeat(100_000) },
        ],
      },
    })
    expect(huge.status).toBe(422)
    // The catalog's body check answers before the service's own rules (keyed by list position).
    const [key, messages] = Object.entries(huge.json.fields as Record<string, string[]>)[0]
    expect(key).toMatch(/^answers\./)
    expect(messages).toContain(`must be at most ${SAQ_TEXT_MAX.toLocaleString('en-US')} characters`)
    const bare = await call(sb, 'POST', '/v2/saq', {
      token: admin,
      body: {
        saq_type: 'A',
        name: 'x',
        answers: [{ requirement: '8.3.1', response: 'not_applicable' }],
      },
    })
    expect(bare.status).toBe(422)
    expect(Object.values(bare.json.fields).flat()).toContain('Not Applicable needs an explanation')
  })

  it('refuses answers given against another template version, naming both versions', async () => {
    const old = await call(sb, 'POST', '/v2/saq', {
      token: admin,
      body: { saq_type: 'A', name: 'x', template_version: '4.0', answers: [] },
    })
    expect(old.status).toBe(422)
    expect(Object.keys(old.json.fields)).toEqual(['template_version'])
    expect(old.json.fields.template_version[0]).toMatch(
      /^answered against template 4\.0; SAQ A is now on 4\.0\.1/,
    )
    const ok = await call(sb, 'POST', '/v2/saq', {
      token: admin,
      body: {
        saq_type: 'A',
        name: 'Shop',
        template_version: '4.0.1',
        answers: [{ requirement: '8.3.1', response: 'in_place' }],
        executive_summary: { payment_channels: ['ecommerce'], environment: 'Hosted shop' },
      },
    })
    expect(ok.status).toBe(201)
    expect(ok.json.data.attributes).toMatchObject({
      template_version: '4.0.1',
      status: 'draft',
      attestation: null,
      executive_summary: { payment_channels: ['ecommerce'], environment: 'Hosted shop' },
      progress: { answered: 1, incomplete: 0 },
    })
    expect(ok.json.data.attributes.answers[0]).toMatchObject({
      requirement: '8.3.1',
      response: 'in_place',
      explanation: null,
      ccw: null,
      action_plan: null,
      legal_exception: false,
    })
    const seeded = await call(sb, 'GET', '/v2/saq/saq-002', { token: admin })
    expect(seeded.json.data.attributes.organization_name).toBe('Acme Payments')
  })

  it('clones onto the current template version, dropping answers it no longer has', async () => {
    const source = (await call(sb, 'GET', '/v2/saq/saq-001', { token: admin })).json.data.attributes
    expect(source.template_version).toBe('4.0')
    const numbers = source.answers.map((a: { requirement: string }) => a.requirement)
    expect(numbers).toEqual(expect.arrayContaining(['6.4.3', '11.6.1']))
    const clone = await call(sb, 'PUT', '/v2/saq/saq-001/clone', {
      token: admin,
      body: {
        answers: [
          {
            requirement: '8.3.1',
            response: 'not_in_place',
            action_plan: { action: 'MFA rollout', owner: 'IT', due_date: '2027-01-31' },
          },
        ],
      },
    })
    expect(clone.status).toBe(201)
    const c = clone.json.data.attributes
    expect(c).toMatchObject({
      name: 'Web shop SAQ A 2025 (copy)',
      status: 'draft',
      is_template: false,
      template_version: '4.0.1',
      cloned_from: 'saq-001',
      attestation: null,
      approved_at: null,
      approved_by: null,
      compliance: null,
      executive_summary: source.executive_summary,
    })
    const cloned = c.answers.map((a: { requirement: string }) => a.requirement)
    expect(cloned).toEqual(numbers.filter((n: string) => n !== '6.4.3' && n !== '11.6.1'))
    expect(c.answers.find((a: { requirement: string }) => a.requirement === '8.3.1')).toMatchObject(
      { response: 'not_in_place', action_plan: { owner: 'IT' } },
    )
    expect(c.progress.answered).toBe(c.progress.required)
    const bad = await call(sb, 'PUT', '/v2/saq/saq-001/clone', {
      token: admin,
      body: { answers: [{ requirement: '8.3.1', response: 'not_tested', explanation: 'x' }] },
    })
    expect(bad.status).toBe(422)
    expect(Object.keys(bad.json.fields)).toEqual(['answers.8.3.1'])
  })

  it('starts new SAQs from an SAQ set as a template', async () => {
    await call(sb, 'PUT', '/v2/saq/saq-003/set_template', { token: admin })
    const source = await call(sb, 'GET', '/v2/saq/saq-003', { token: admin })
    const fromTpl = await call(sb, 'POST', '/v2/saq', {
      token: admin,
      body: { saq_type: 'C-VT', name: 'From template', template_id: 'saq-003' },
    })
    expect(fromTpl.status).toBe(201)
    expect(fromTpl.json.data.attributes.answers.length).toBe(
      source.json.data.attributes.answers.length,
    )
    expect(fromTpl.json.data.attributes.executive_summary).toEqual(
      source.json.data.attributes.executive_summary,
    )
    const wrongType = await call(sb, 'POST', '/v2/saq', {
      token: admin,
      body: { saq_type: 'B', name: 'x', template_id: 'saq-003' },
    })
    expect(wrongType.status).toBe(422)
    expect(Object.keys(wrongType.json.fields)).toEqual(['template_id'])
  })

  it('refuses approval listing every gap, then approves with the attestation', async () => {
    const draft = await call(sb, 'POST', '/v2/saq', {
      token: admin,
      body: {
        saq_type: 'A',
        name: 'Shop',
        answers: [{ requirement: '8.3.1', response: 'in_place' }],
      },
    })
    const id = draft.json.data.id
    const required = await requiredOf('A')
    const noAttestation = await call(sb, 'PUT', `/v2/saq/${id}/approve`, { token: admin, body: {} })
    expect(noAttestation.status).toBe(422)
    expect(noAttestation.json.fields.attestation).toEqual(['is required'])

    const refused = await call(sb, 'PUT', `/v2/saq/${id}/approve`, {
      token: admin,
      body: {
        attestation: ATTESTATION,
        answers: [{ requirement: '2.2.2', response: 'not_tested', explanation: 'skipped' }],
      },
    })
    expect(refused.status).toBe(422)
    const expected: Record<string, string[]> = {}
    for (const n of required) if (n !== '8.3.1') expected[`answers.${n}`] = ['is not answered']
    expected['answers.2.2.2'] = ['Not Tested is not offered by this questionnaire']
    expect(refused.json.fields).toEqual(expected)
    const still = await call(sb, 'GET', `/v2/saq/${id}`, { token: admin })
    expect(still.json.data.attributes).toMatchObject({ status: 'draft', attestation: null })
    expect(still.json.data.attributes.answers).toHaveLength(1)

    const ok = await call(sb, 'PUT', `/v2/saq/${id}/approve`, {
      token: admin,
      body: {
        attestation: ATTESTATION,
        answers: required
          .filter((n) => n !== '8.3.1')
          .map((n) => ({ requirement: n, response: 'in_place' })),
      },
    })
    expect(ok.status).toBe(200)
    expect(ok.json.data.attributes).toMatchObject({
      status: 'approved',
      compliance: 'compliant',
      approved_by: 'usr-001',
      attestation: ATTESTATION,
    })
    expect(
      (
        await call(sb, 'PUT', `/v2/saq/${id}/approve`, {
          token: admin,
          body: { attestation: ATTESTATION },
        })
      ).status,
    ).toBe(409)
    const customer = sb.sessionFor('customer@globex.test')
    expect(
      (
        await call(sb, 'PUT', '/v2/saq/saq-008/approve', {
          token: customer,
          body: { attestation: ATTESTATION },
        })
      ).status,
    ).toBe(403)
  })

  it('derives compliance from Not in Place answers and legal exceptions', async () => {
    const required = await requiredOf('A')
    const approveWith = async (extra: Record<string, unknown>) => {
      const draft = await call(sb, 'POST', '/v2/saq', {
        token: admin,
        body: {
          saq_type: 'A',
          name: 'Shop',
          answers: required.map((n) =>
            n === '12.8.1'
              ? { requirement: n, ...extra }
              : { requirement: n, response: 'in_place' },
          ),
        },
      })
      if (draft.status !== 201) return draft
      return call(sb, 'PUT', `/v2/saq/${draft.json.data.id}/approve`, {
        token: admin,
        body: { attestation: ATTESTATION },
      })
    }
    expect(required).toContain('12.8.1')
    const plain = await approveWith({ response: 'in_place' })
    expect(plain.json.data.attributes.compliance).toBe('compliant')
    const nip = await approveWith({ response: 'not_in_place', action_plan: { action: 'Fix' } })
    expect(nip.json.data.attributes.compliance).toBe('non_compliant')
    const legal = await approveWith({
      response: 'not_in_place',
      legal_exception: true,
      explanation: 'A local law forbids it',
    })
    expect(legal.json.data.attributes.compliance).toBe('compliant_legal_exception')
    const legalBare = await approveWith({ response: 'not_in_place', legal_exception: true })
    expect(legalBare.status).toBe(422)
  })
})
