import { describe, expect, it } from 'vitest'
import {
  answerProblems,
  approvalBlockers,
  canApprove,
  complianceOf,
  describeBlockers,
  emptySummaryFields,
  offeredResponses,
  saqAnswer,
  saqAnswers,
  SAQ_TEXT_MAX,
  type SaqAnswer,
  type SaqTemplateLike,
} from './saq'
import { describeSize, optionalRequirements, progressOf, summaryTable } from './saq-progress'

const template: SaqTemplateLike = {
  responses: ['in_place', 'in_place_ccw', 'not_applicable', 'not_in_place'],
  sections: [
    {
      number: '2',
      title: 'Configuration',
      requirements: [
        { number: '2.2.1', title: 'Hardening', required: true },
        { number: '2.2.2', title: 'Defaults', required: true },
      ],
    },
    {
      number: '8',
      title: 'Authentication',
      requirements: [
        { number: '8.3.1', title: 'Strong authentication', required: true },
        { number: '8.5.1', title: 'Future practice', required: false },
      ],
    },
  ],
}

const ccw = {
  constraints: 'Legacy terminal',
  objective: 'Unique ids',
  identified_risk: 'Shared login',
  definition: 'Jump host with named accounts',
  validation: 'Reviewed logs',
  maintenance: 'Quarterly review',
}

const byNumber = (list: SaqAnswer[]) => new Map(list.map((a) => [a.requirement, a]))
const signed = { signer_name: 'Dana Reyes', signer_title: 'CISO', date: '2026-11-20' }

describe('answer rules', () => {
  it('asks an explanation of Not Applicable and Not Tested, and of a legal exception', () => {
    expect(answerProblems({ response: 'not_applicable' })).toEqual([
      { field: 'explanation', message: 'Not Applicable needs an explanation' },
    ])
    expect(answerProblems({ response: 'not_tested', explanation: '   ' })[0]?.field).toBe(
      'explanation',
    )
    expect(answerProblems({ response: 'not_in_place' })).toEqual([])
    expect(answerProblems({ response: 'not_in_place', legal_exception: true })[0]?.message).toBe(
      'A legal exception needs an explanation',
    )
    expect(answerProblems({ response: 'not_applicable', explanation: 'No wireless' })).toEqual([])
  })

  it('asks every worksheet field of a CCW answer', () => {
    const partial = answerProblems({ response: 'in_place_ccw', ccw: { constraints: 'x' } })
    expect(partial.map((p) => p.field)).toEqual([
      'ccw.objective',
      'ccw.identified_risk',
      'ccw.definition',
      'ccw.validation',
      'ccw.maintenance',
    ])
    expect(answerProblems({ response: 'in_place_ccw', ccw })).toEqual([])
  })

  it('refuses a choice the template does not offer', () => {
    const offered = offeredResponses(template)
    expect(offered).not.toContain('not_tested')
    expect(
      answerProblems({ response: 'not_tested', explanation: 'Out of scope' }, offered)[0],
    ).toEqual({ field: 'response', message: 'Not Tested is not offered by this questionnaire' })
    expect(offeredResponses({})).toEqual([
      'in_place',
      'in_place_ccw',
      'not_applicable',
      'not_in_place',
    ])
  })

  it('the schema refuses what the rules refuse, under the field at fault', () => {
    const result = saqAnswer.safeParse({ requirement: '2.2.1', response: 'not_applicable' })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.path).toEqual(['explanation'])
    const ccwResult = saqAnswer.safeParse({ requirement: '2.2.1', response: 'in_place_ccw' })
    expect(ccwResult.error?.issues.map((i) => i.path.join('.'))).toContain('ccw.maintenance')
  })

  it('refuses an explanation over the limit with the limit in the message', () => {
    const result = saqAnswer.safeParse({
      requirement: '2.2.1',
      response: 'not_applicable',
      explanation: 'x'.repeat(100 * 1024),
    })
    expect(result.error?.issues[0]?.message).toBe(
      `must be at most ${SAQ_TEXT_MAX.toLocaleString('en-US')} characters`,
    )
  })

  it('refuses a requirement answered twice and a malformed number', () => {
    expect(
      saqAnswers.safeParse([
        { requirement: '2.2.1', response: 'in_place' },
        { requirement: '2.2.1', response: 'not_in_place' },
      ]).success,
    ).toBe(false)
    expect(saqAnswer.safeParse({ requirement: '2.2', response: 'in_place' }).success).toBe(true)
    expect(saqAnswer.safeParse({ requirement: '../1', response: 'in_place' }).success).toBe(false)
  })
})

describe('derived facts', () => {
  it('any Not in Place without a legal exception makes the SAQ non-compliant', () => {
    expect(complianceOf([{ response: 'in_place' }, { response: 'not_applicable' }])).toBe(
      'compliant',
    )
    expect(
      complianceOf([{ response: 'not_in_place', legal_exception: true }, { response: 'in_place' }]),
    ).toBe('compliant_legal_exception')
    expect(
      complianceOf([
        { response: 'not_in_place', legal_exception: true },
        { response: 'not_in_place' },
      ]),
    ).toBe('non_compliant')
  })

  it('counts required requirements, and optional ones apart, answered or not', () => {
    const answers = byNumber([
      { requirement: '2.2.1', response: 'in_place' },
      { requirement: '2.2.2', response: 'not_applicable' },
      { requirement: '8.5.1', response: 'in_place' },
    ])
    const { sections, overall } = progressOf(template, answers)
    const none = { optional: 0, optionalAnswered: 0 }
    expect(sections.get('2')).toEqual({ total: 2, answered: 2, incomplete: 1, ...none })
    // the optional 8.5.1 answered moves no required count (issue 36)
    expect(sections.get('8')).toEqual({
      total: 1,
      answered: 0,
      optional: 1,
      optionalAnswered: 1,
      incomplete: 0,
    })
    expect(overall).toEqual({
      total: 3,
      answered: 2,
      optional: 1,
      optionalAnswered: 1,
      incomplete: 1,
    })
    expect(progressOf(template, byNumber([])).overall).toMatchObject({ total: 3, optional: 1 })
    expect(optionalRequirements(template)).toEqual(['8.5.1'])
    expect(describeSize(3, 1)).toBe('3 required requirements and 1 optional')
    expect(describeSize(30, 0)).toBe('30 requirements')
  })

  it('summarises answers per section', () => {
    const rows = summaryTable(
      template,
      byNumber([
        { requirement: '2.2.1', response: 'in_place' },
        { requirement: '2.2.2', response: 'in_place' },
        { requirement: '8.5.1', response: 'not_in_place' },
      ]),
    )
    expect(rows[0]).toMatchObject({ section: '2', unanswered: 0 })
    expect(rows[0]?.counts.in_place).toBe(2)
    expect(rows[1]).toMatchObject({ section: '8', unanswered: 1 })
    expect(rows[1]?.counts.not_in_place).toBe(1)
  })

  it('lists everything that blocks approval, and nothing once complete', () => {
    const partial = approvalBlockers(
      template,
      byNumber([
        { requirement: '2.2.1', response: 'not_applicable' },
        { requirement: '2.2.2', response: 'in_place' },
      ]),
      { signer_name: 'Dana', date: '2026-02-30' },
    )
    expect(partial.unanswered).toEqual(['8.3.1'])
    expect(partial.incomplete.map((i) => i.requirement)).toEqual(['2.2.1'])
    expect(partial.attestation).toEqual(["signer's title", 'date'])
    expect(canApprove(partial)).toBe(false)
    expect(describeBlockers(partial)).toBe(
      "Cannot approve yet: 1 requirement unanswered; 1 answer needs more (explanation or worksheet); the attestation lacks the signer's title, date.",
    )
    const done = approvalBlockers(
      template,
      byNumber([
        { requirement: '2.2.1', response: 'in_place_ccw', ccw },
        { requirement: '2.2.2', response: 'in_place' },
        { requirement: '8.3.1', response: 'not_in_place' },
      ]),
      signed,
    )
    expect(canApprove(done)).toBe(true)
    expect(describeBlockers(done)).toBe('Ready to approve.')
  })
})

describe('answers kept whole in drafts', () => {
  it('names an over-long explanation as a problem of the answer (the draft keeps the text)', () => {
    const problems = answerProblems({
      response: 'not_applicable',
      explanation: 'x'.repeat(100 * 1024),
    })
    expect(problems).toEqual([
      { field: 'explanation', message: 'The explanation must be at most 4,000 characters' },
    ])
  })
})

describe('an executive summary’s empty parts', () => {
  it('names each part the PDF would print as not stated or none listed', () => {
    expect(emptySummaryFields({})).toEqual(['payment_channels', 'environment', 'service_providers'])
    expect(emptySummaryFields(null)).toEqual([
      'payment_channels',
      'environment',
      'service_providers',
    ])
    expect(
      emptySummaryFields({
        payment_channels: ['moto'],
        environment: '  \n ',
        service_providers: [{ name: '  ' }],
      }),
    ).toEqual(['environment', 'service_providers'])
    expect(
      emptySummaryFields({
        payment_channels: ['ecommerce'],
        environment: 'Hosted payment page only.',
        service_providers: [{ name: 'PayCo' }],
      }),
    ).toEqual([])
  })
})
