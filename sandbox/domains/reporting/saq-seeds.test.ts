import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  answerProblems,
  complianceOf,
  offeredResponses,
  saqAttestation,
  saqExecutiveSummary,
  SAQ_CCW_FIELDS,
} from '@contract/saq'
import type { RunningSandbox } from '../../server'
import { carryOver } from './handlers/saq'
import { type StoredAnswer } from './saq-answers'
import { requirementsFor, saqTemplate, SAQ_TYPES } from './saq-templates'
import { call, startReportingSandbox } from './test-harness'

interface SaqAttrs {
  name: string
  saq_type: string
  status: string
  is_template: boolean
  template_version: string
  organization_name: string | null
  compliance: string | null
  attestation: Record<string, string> | null
  executive_summary: unknown
  answers: StoredAnswer[]
  progress: { answered: number; required: number; incomplete: number }
}

describe('SAQ templates and seeds', () => {
  let sb: RunningSandbox
  let seeded: { id: string; attributes: SaqAttrs }[]

  beforeAll(async () => {
    sb = await startReportingSandbox()
    const admin = sb.sessionFor('admin@sandbox.test')
    seeded = (await call(sb, 'GET', '/v2/saq?per_page=100&sort=name', { token: admin })).json.data
  })
  afterAll(() => sb.close())

  it('generates the same templates every time, with unique numbers per type', () => {
    for (const t of SAQ_TYPES) {
      expect(saqTemplate(t.code)).toEqual(saqTemplate(t.code))
      const numbers = requirementsFor(t.code).map((r) => r.number)
      expect(new Set(numbers).size, t.code).toBe(numbers.length)
    }
    // The SAQ A revision of 4.0.1 dropped two requirements that 4.0 had.
    const old = requirementsFor('A', '4.0').map((r) => r.number)
    const now = requirementsFor('A').map((r) => r.number)
    expect(old.filter((n) => !now.includes(n))).toEqual(['6.4.3', '11.6.1'])
    expect(saqTemplate('A', '4.0').responses).not.toContain('in_place_remediation')
  })

  it('carries over only answers the current template has and offers', () => {
    const at = '2026-01-01T00:00:00.000Z'
    const a = (requirement: string, response: StoredAnswer['response']): StoredAnswer => ({
      requirement,
      response,
      explanation: null,
      ccw: null,
      action_plan: null,
      legal_exception: false,
      answered_at: at,
    })
    const p2pe = saqTemplate('P2PE')
    const first = p2pe.sections[0].requirements[0].number
    const kept = carryOver(p2pe, [
      a(first, 'in_place'),
      a('9.5.1', 'in_place_remediation'),
      a('3.5.1', 'in_place'),
    ])
    expect(kept.map((x) => x.requirement)).toEqual([first])
  })

  it('seeds the demo SAQs described in seed-saq.ts', () => {
    const byId = new Map(seeded.map((s) => [s.id, s.attributes]))
    expect([...byId.keys()].sort()).toEqual([
      'saq-001',
      'saq-002',
      'saq-003',
      'saq-004',
      'saq-005',
      'saq-006',
      'saq-007',
      'saq-008',
    ])
    expect(byId.get('saq-001')).toMatchObject({
      saq_type: 'A',
      status: 'approved',
      compliance: 'compliant',
      template_version: '4.0',
    })
    expect(byId.get('saq-002')).toMatchObject({ saq_type: 'A', status: 'draft' })
    const complete = byId.get('saq-002')!.progress
    expect(complete.answered).toBe(complete.required)
    expect(byId.get('saq-003')).toMatchObject({ saq_type: 'C-VT', status: 'draft' })
    expect(byId.get('saq-004')).toMatchObject({
      saq_type: 'B-IP',
      status: 'approved',
      compliance: 'compliant_legal_exception',
    })
    const d = byId.get('saq-005')!
    expect(d).toMatchObject({
      saq_type: 'D-Service Provider',
      status: 'approved',
      compliance: 'non_compliant',
    })
    const ccw = d.answers.find((x) => x.response === 'in_place_ccw')!
    for (const [key] of SAQ_CCW_FIELDS) expect(ccw.ccw?.[key]).toBeTruthy()
    expect(d.answers.some((x) => x.response === 'not_tested' && x.explanation)).toBe(true)
    expect(d.answers.some((x) => x.response === 'not_in_place' && x.action_plan?.action)).toBe(true)
    expect(byId.get('saq-006')).toMatchObject({ saq_type: 'P2PE', answers: [] })
    expect(byId.get('saq-007')).toMatchObject({ saq_type: 'A-EP', is_template: true })
    expect(byId.get('saq-008')).toMatchObject({
      saq_type: 'P2PE',
      organization_name: 'Globex Retail',
    })
  })

  it('seeds only answers that pass the shared rules', () => {
    for (const { id, attributes: s } of seeded) {
      const template = saqTemplate(s.saq_type, s.template_version)
      const numbers = new Set(template.sections.flatMap((x) => x.requirements.map((r) => r.number)))
      const offered = offeredResponses(template)
      for (const a of s.answers) {
        expect(numbers.has(a.requirement), `${id} ${a.requirement}`).toBe(true)
        const rule = {
          response: a.response,
          explanation: a.explanation ?? undefined,
          ccw: a.ccw ?? undefined,
          legal_exception: a.legal_exception,
        }
        expect(answerProblems(rule, offered), `${id} ${a.requirement}`).toEqual([])
      }
      expect(s.organization_name, id).toBeTruthy()
      if (s.executive_summary)
        expect(saqExecutiveSummary.safeParse(s.executive_summary).success, id).toBe(true)
      expect(s.answers.some((a) => a.response === 'not_applicable')).toBe(s.answers.length > 0)
      if (s.status === 'approved') {
        expect(saqAttestation.safeParse(s.attestation).success, id).toBe(true)
        expect(s.compliance, id).toBe(complianceOf(s.answers))
        expect(s.progress.answered, id).toBe(s.progress.required)
      } else expect(s.attestation, id).toBeNull()
    }
  })
})
