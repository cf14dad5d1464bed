import { describe, expect, it } from 'vitest'
import type { SaqAnswer, SaqTemplateLike } from '../saq'
import {
  APPROVAL_NOTE_MAX,
  approvalConcerns,
  approvalNote,
  type EvidenceFacts,
} from './approval-check'
import type { PciRun } from './quarters'

const template: SaqTemplateLike = {
  sections: [
    {
      number: '6',
      title: 'Software',
      requirements: [{ number: '6.3.3', title: 'Patches', required: true }],
    },
    {
      number: '11',
      title: 'Testing',
      requirements: [
        { number: '11.3.1', title: 'Internal scans', required: true },
        { number: '11.3.1.1', title: 'Rescans', required: false },
        { number: '11.3.2', title: 'External scans', required: true },
        { number: '11.4.1', title: 'Penetration tests', required: true },
      ],
    },
  ],
}
const failing = { critical: 0, high: 1, medium: 0, low: 0, info: 0 }
const clean = { critical: 0, high: 0, medium: 0, low: 3, info: 1 }
const run = (at: string, scope: PciRun['scope'], counts = failing, scanId = 'scn-1'): PciRun => ({
  scanId,
  scanName: scope === 'internal' ? 'Office' : 'Perimeter',
  scope,
  status: 'completed',
  startedAt: at,
  finishedAt: at,
  counts,
})
const NOW = new Date('2026-12-02T01:00:00Z')
const answers = (list: Pick<SaqAnswer, 'requirement' | 'response' | 'explanation'>[]) =>
  new Map(list.map((a) => [a.requirement, a]))
const facts = (over: Partial<EvidenceFacts> = {}): EvidenceFacts => ({
  now: NOW,
  agedFindings: { total: 30, before: '2026-11-02' },
  runs: [run('2026-11-10T00:00:00Z', 'internal'), run('2026-11-12T00:00:00Z', 'external')],
  ...over,
})

describe('concerns before approving (issue 36 §12)', () => {
  it('names each In Place answer the evidence contradicts and each empty remediation, in the template’s order', () => {
    const concerns = approvalConcerns(
      template,
      answers([
        { requirement: '11.3.1', response: 'in_place_remediation' },
        { requirement: '6.3.3', response: 'in_place' },
        { requirement: '11.3.2', response: 'not_in_place' },
        { requirement: '11.3.1.1', response: 'in_place' },
        { requirement: '11.4.1', response: 'in_place' },
      ]),
      facts(),
    )
    expect(concerns.map((c) => [c.requirement, c.kind])).toEqual([
      ['6.3.3', 'contradiction'],
      ['11.3.1', 'contradiction'],
      ['11.3.1', 'empty_explanation'],
      ['11.3.1.1', 'contradiction'],
    ])
    expect(concerns.map((c) => c.text)).toEqual([
      '6.3.3 In Place: the service lists 30 critical and high findings (CVSS 7.0 or more) first seen more than a month ago, before 2026-11-02.',
      '11.3.1 In Place with Remediation: no passing internal scan run in 2025 Q4, 2026 Q1, 2026 Q2, 2026 Q3; the one internal run of the last twelve months did not pass PCI.',
      '11.3.1 In Place with Remediation: what was remediated, and when, is left empty.',
      '11.3.1.1 In Place: 1 failing internal run was not rescanned.',
    ])
  })

  it('raises nothing where the evidence agrees', () => {
    const quarters = ['2025-11-01', '2026-02-01', '2026-05-01', '2026-08-01', '2026-11-01']
    const concerns = approvalConcerns(
      template,
      answers([
        { requirement: '6.3.3', response: 'in_place' },
        { requirement: '11.3.2', response: 'in_place' },
        {
          requirement: '11.3.1',
          response: 'in_place_remediation',
          explanation: 'Scanner fixed in May',
        },
      ]),
      facts({
        agedFindings: { total: 0, before: '2026-11-02' },
        runs: [
          ...quarters.map((d) => run(`${d}T00:00:00Z`, 'external', clean)),
          ...quarters.map((d) => run(`${d}T00:00:00Z`, 'internal', clean)),
        ],
      }),
    )
    expect(concerns).toEqual([])
  })

  it('says which answers could not be checked, and why', () => {
    const concerns = approvalConcerns(
      template,
      answers([{ requirement: '11.3.2', response: 'in_place' }]),
      facts({ runs: null, unread: { runs: 'the service cannot be reached' } }),
    )
    expect(concerns).toEqual([
      {
        requirement: '11.3.2',
        kind: 'unchecked',
        response: 'in_place',
        text: "11.3.2 In Place: not checked against the service's data (the service cannot be reached).",
      },
    ])
  })
})

describe('the approval note', () => {
  it('records what the approver confirmed, and fits the service’s limit', () => {
    const concerns = approvalConcerns(
      template,
      answers([
        { requirement: '6.3.3', response: 'in_place' },
        { requirement: '11.3.1', response: 'in_place_remediation' },
      ]),
      facts(),
    )
    expect(approvalNote(concerns, NOW)).toBe(
      `Approved with 2 answers that contradict the service's data ScanDesk showed, 1 empty explanation, confirmed by the approver in ScanDesk at 2026-12-02T01:00Z: ${concerns.map((c) => c.text).join(' ')}`,
    )
    expect(approvalNote([], NOW)).toBeNull()
    const many = Array.from({ length: 40 }, () => concerns[0])
    const note = approvalNote(many, NOW)!
    expect(note.length).toBeLessThanOrEqual(APPROVAL_NOTE_MAX)
    expect(note).toMatch(/ And \d+ more\.$/)
  })
})
