import { flushPromises } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import { useConfirmStore } from '@/stores/confirm'
import { apiCalls } from '@/test/composables'
import { theTestId } from '@/test/dom'
import {
  answer,
  choose,
  draft,
  fallback,
  mountDraft,
  s,
  savedDraft,
  text,
  useSaqFillerTests,
} from './saqFillerTestKit'

useSaqFillerTests()

describe('approving', () => {
  const complete = {
    '2.2.1': { requirement: '2.2.1', response: 'in_place' as const },
    '2.2.2': { requirement: '2.2.2', response: 'in_place' as const },
    '8.3.1': { requirement: '8.3.1', response: 'not_in_place' as const },
  }
  const FULL_SUMMARY = {
    payment_channels: ['ecommerce' as const],
    environment: 'A hosted payment page; no card data touches our servers.',
    service_providers: [{ name: 'PayCo', services: 'Hosted payment page' }],
  }
  const ATTESTED = { signer_name: 'Dana Reyes', signer_title: 'CISO', date: '2030-01-02' }
  const approving = () => apiCalls(s.fake).filter((c) => c.op === 'saq.approve')
  /** The draft of saq-5 at its page: every answer and the attestation given, unless `over` says. */
  const mountSaq5 = (over: Parameters<typeof draft>[0] = {}) =>
    mountDraft(
      draft({ saqId: 'saq-5', answers: complete, attestation: ATTESTED, ...over }),
      '/saq/draft/saq-5',
    )
  /** Submitted and complete but for parts of the executive summary; the approval asked. */
  async function askWithSummary(summary: Record<string, unknown>): Promise<void> {
    s.fake.handle('api.call', (p: { op: string }) =>
      p.op === 'saq.approve'
        ? answer({ data: { id: 'saq-5', type: 'saq', attributes: { status: 'approved' } } })
        : fallback(p.op),
    )
    await mountSaq5({ summary })
    expect(text(theTestId('saq-approve-reason'))).toBe('Ready to approve.')
    theTestId('saq-approve').click()
    await flushPromises()
  }

  it('names the empty parts of the executive summary; Go back puts the caret in the first', async () => {
    await askWithSummary({
      environment: 'Hosted checkout only.',
      service_providers: [{ name: ' ' }],
    })
    expect(text(theTestId('saq-approve-confirm-text'))).toBe(
      'The executive summary of “Web shop SAQ A 2030” (SAQ A) leaves these parts empty; the approved PDF will say “Not stated” or “None listed” there:',
    )
    expect(
      [...theTestId('saq-approve-confirm-items').querySelectorAll('li')].map((li) => text(li)),
    ).toEqual(['Payment channels in scope', 'Third-party service providers'])
    expect(text(theTestId('saq-approve-confirm'))).toBe('Approve anyway')
    theTestId('saq-approve-confirm-cancel').click()
    await flushPromises()
    expect(approving()).toEqual([])
    // The caret moves once the question has gone: the dialog hands the focus back as it closes.
    // jsdom runs no leave transition, so the host's report of it is made here.
    expect(document.activeElement?.closest('[data-testid="saq-channels"]')).toBeNull()
    useConfirmStore().closed()
    await vi.waitFor(() =>
      expect(document.activeElement?.closest('[data-testid="saq-channels"]')).not.toBeNull(),
    )
  })

  it('approves anyway when asked to, with the summary as it is', async () => {
    await askWithSummary({})
    expect(
      [...theTestId('saq-approve-confirm-items').querySelectorAll('li')].map((li) => text(li)),
    ).toEqual([
      'Payment channels in scope',
      'Cardholder data environment',
      'Third-party service providers',
    ])
    theTestId('saq-approve-confirm').click()
    await flushPromises()
    expect(approving()).toHaveLength(1)
    expect(approving()[0].input).toMatchObject({
      path: { id: 'saq-5' },
      body: { attestation: ATTESTED },
    })
  })

  it('the button says what is missing until answers and attestation are complete', async () => {
    await mountSaq5({ answers: { '2.2.1': complete['2.2.1'] }, attestation: draft().attestation })
    expect(text(theTestId('saq-approve-reason'))).toBe(
      "Cannot approve yet: 2 requirements unanswered; the attestation lacks the signer's name, signer's title, date. Go to 2.2.2",
    )
    expect(theTestId<HTMLButtonElement>('saq-approve').disabled).toBe(true)
  })

  it('a role without saq.approve is told so and cannot approve', async () => {
    s.fake.handle('api.call', (p: { op: string }) =>
      p.op === 'user.permissions'
        ? answer({ data: { permissions: ['saq.read', 'saq.write', 'targets.read'] } })
        : fallback(p.op),
    )
    await mountSaq5()
    expect(text(theTestId('saq-approve-reason'))).toContain(
      'Your role may not approve questionnaires (permission saq.approve)',
    )
    expect(theTestId<HTMLButtonElement>('saq-approve').disabled).toBe(true)
  })

  it('waits for the service while “Work offline” is on, saying so, and the draft still saves', async () => {
    await mountSaq5()
    expect(theTestId<HTMLButtonElement>('saq-approve').disabled).toBe(false)
    s.fake.emit('connectivity.mode', { workOffline: true, network: true })
    await flushPromises()
    expect(text(theTestId('saq-approve-reason'))).toBe(
      'This needs the service, and “Work offline” is on (top bar).',
    )
    expect(theTestId<HTMLButtonElement>('saq-approve').disabled).toBe(true)
    await choose('2.2.1', 'not_applicable')
    expect(savedDraft().answers['2.2.1']).toMatchObject({ response: 'not_applicable' })
  })

  it('asks for confirmation and sends the final answers with the attestation', async () => {
    s.fake.handle('api.call', (p: { op: string }) =>
      p.op === 'saq.approve'
        ? answer({ data: { id: 'saq-5', type: 'saq', attributes: { status: 'approved' } } })
        : fallback(p.op),
    )
    await mountSaq5({ summary: FULL_SUMMARY })
    expect(text(theTestId('saq-approve-reason'))).toBe('Ready to approve.')
    expect(text(theTestId('saq-compliance'))).toBe('Non-Compliant')
    theTestId('saq-approve').click()
    await flushPromises()
    expect(text(theTestId('saq-approve-confirm-text'))).toContain('Approve “Web shop SAQ A 2030”')
    expect(document.querySelector('[data-testid="saq-approve-confirm-items"]')).toBeNull()
    expect(text(theTestId('confirm-where'))).toBe('Account: Account acct-aaaa · Organization: Acme')
    theTestId('saq-approve-confirm').click()
    await flushPromises()
    const call = apiCalls(s.fake).find((c) => c.op === 'saq.approve')!
    expect(call.input).toMatchObject({
      path: { id: 'saq-5' },
      body: {
        attestation: { signer_name: 'Dana Reyes', signer_title: 'CISO', date: '2030-01-02' },
        answers: [
          { requirement: '2.2.1', response: 'in_place' },
          { requirement: '2.2.2', response: 'in_place' },
          { requirement: '8.3.1', response: 'not_in_place' },
        ],
      },
    })
    expect(s.fake.calls.some((c) => c.channel === 'drafts.delete')).toBe(true)
  })
})
