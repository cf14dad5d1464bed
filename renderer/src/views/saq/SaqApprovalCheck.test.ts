// Issue 36 §12 and §13: before approving, every answer ScanDesk's evidence contradicts and every
// empty remediation is named and asked about; approving anyway records them in the approval's
// note, and the approval lists the evidence files (name, SHA-256, origin) for the PDF.
import { flushPromises } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { LedgerEntry } from '@contract/files'
import { useConfirmStore } from '@/stores/confirm'
import { apiCalls } from '@/test/composables'
import { theTestId } from '@/test/dom'
import { pciAnswer, pciWorld } from './pciWorld'
import {
  answer,
  draft,
  fallback,
  mountDraft,
  row,
  s,
  text,
  useSaqFillerTests,
} from './saqFillerTestKit'

useSaqFillerTests()
const world = pciWorld()
beforeEach(() => vi.useFakeTimers({ now: world.now, toFake: ['Date'] }))
afterEach(() => vi.useRealTimers())

const ATTESTED = { signer_name: 'Dana Reyes', signer_title: 'CISO', date: '2030-11-20' }
const SUMMARY = {
  payment_channels: ['ecommerce' as const],
  environment: 'Hosted payment page.',
  service_providers: [{ name: 'PayCo' }],
}
const REPORT: LedgerEntry = {
  id: 'led-1',
  accountId: 'acct-aaaa',
  accountLabel: 'Acme',
  kind: 'saq_evidence',
  resourceId: 'saq-5',
  resourceName: 'Web shop SAQ A 2030',
  format: 'file',
  saq: { saqType: 'A', status: 'draft', requirement: '11.3.2' },
  path: '/home/dana/ScanDesk/Acme/SAQ/Evidence/saq-5/11.3.2/Perimeter PCI report.pdf',
  size: 4821,
  sha256: 'ab'.repeat(32),
  verdict: 'verified',
  detail: null,
  downloadedAt: '2030-11-19T10:00:00.000Z',
  verifiedAt: '2030-11-19T10:00:00.000Z',
  origin: {
    operation: 'reports.download',
    resourceId: 'r-ext',
    query: { format: 'pdf' },
    accountId: 'acct-aaaa',
    account: 'Acme',
    at: '2030-11-19T10:00:00.000Z',
  },
}

/** A submitted SAQ answering 6.3.3 and 11.3.1 In Place against the world's evidence. */
async function askToApprove(): Promise<void> {
  s.fake.handle('api.call', (p: Parameters<typeof pciAnswer>[1]) => {
    if (p.op === 'saq.approve')
      return answer({ data: { id: 'saq-5', type: 'saq', attributes: { status: 'approved' } } })
    return pciAnswer(world, p) ?? fallback(p.op)
  })
  s.fake.handle('saq.evidence.list', () => [REPORT])
  const d = draft({ saqId: 'saq-5', summary: SUMMARY, attestation: ATTESTED })
  d.template.sections.push(
    {
      number: '6',
      title: 'Secure software',
      requirements: [{ number: '6.3.3', title: 'Patches within a month', required: true }],
    },
    {
      number: '11',
      title: 'Regular testing',
      requirements: [
        { number: '11.3.1', title: 'Internal scans', required: true },
        { number: '11.3.2', title: 'External scans', required: true },
      ],
    },
  )
  for (const n of ['2.2.1', '2.2.2', '8.3.1', '6.3.3', '11.3.2'])
    d.answers[n] = { requirement: n, response: n === '11.3.2' ? 'not_in_place' : 'in_place' }
  d.answers['11.3.1'] = { requirement: '11.3.1', response: 'in_place_remediation' }
  await mountDraft(d, '/saq/draft/saq-5')
  expect(text(theTestId('saq-approve-reason'))).toBe('Ready to approve.')
  theTestId('saq-approve').click()
  for (let i = 0; i < 8; i++) await flushPromises()
}
const items = () =>
  [...theTestId('saq-approve-confirm-items').querySelectorAll('li')].map((li) => text(li))
const approving = () => apiCalls(s.fake).filter((c) => c.op === 'saq.approve')

describe('approving against the evidence', () => {
  it('names each contradiction and each empty remediation, and Go back goes to the first', async () => {
    await askToApprove()
    expect(text(theTestId('saq-approve-confirm-text'))).toBe(
      "Before approving “Web shop SAQ A 2030” (SAQ A): 2 answers contradict the service's data ScanDesk shows beside them; 1 explanation the answer calls for is empty.",
    )
    expect(items()).toEqual([
      '6.3.3 In Place: the service lists 30 critical and high findings (CVSS 7.0 or more) first seen more than a month ago, before 2030-10-20.',
      '11.3.1 In Place with Remediation: no passing internal scan run in 2029 Q4, 2030 Q1, 2030 Q2, 2030 Q3; the one internal run of the last twelve months did not pass PCI.',
      '11.3.1 In Place with Remediation: what was remediated, and when, is left empty.',
    ])
    expect(text(theTestId('saq-approve-confirm'))).toBe('Approve anyway')
    theTestId('saq-approve-confirm-cancel').click()
    await flushPromises()
    useConfirmStore().closed()
    await vi.waitFor(() => expect(document.activeElement).toBe(row('6.3.3')))
    expect(approving()).toEqual([])
  })

  it('approves anyway when confirmed: the note records them, the evidence files are listed', async () => {
    await askToApprove()
    expect(text(theTestId('saq-approve-confirm-text')).length).toBeGreaterThan(0)
    expect(document.body.textContent).toContain(
      'The approved PDF lists its 1 evidence file (name, SHA-256, origin).',
    )
    theTestId('saq-approve-confirm').click()
    for (let i = 0; i < 4; i++) await flushPromises()
    expect(approving()).toHaveLength(1)
    const body = (approving()[0].input as { body: Record<string, unknown> }).body
    expect(body.note).toBe(
      "Approved with 2 answers that contradict the service's data ScanDesk showed, 1 empty explanation, confirmed by the approver in ScanDesk at 2030-11-20T12:00Z: " +
        [
          '6.3.3 In Place: the service lists 30 critical and high findings (CVSS 7.0 or more) first seen more than a month ago, before 2030-10-20.',
          '11.3.1 In Place with Remediation: no passing internal scan run in 2029 Q4, 2030 Q1, 2030 Q2, 2030 Q3; the one internal run of the last twelve months did not pass PCI.',
          '11.3.1 In Place with Remediation: what was remediated, and when, is left empty.',
        ].join(' '),
    )
    expect(body.evidence).toEqual([
      {
        requirement: '11.3.2',
        name: 'Perimeter PCI report.pdf',
        sha256: 'ab'.repeat(32),
        size: 4821,
        origin: { operation: 'reports.download', resource_id: 'r-ext', query: { format: 'pdf' } },
        attached_at: '2030-11-19T10:00:00.000Z',
      },
    ])
  })
})
