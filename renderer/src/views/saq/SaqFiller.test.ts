import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { apiCalls } from '@/test/composables'
import { byTestId, theTestId } from '@/test/dom'
import { Fail } from '@/test/fakeScandesk'
import {
  answer,
  choose,
  draft,
  fallback,
  mountDraft,
  row,
  s,
  savedDraft,
  text,
  typeIn,
  useSaqFillerTests,
} from './saqFillerTestKit'

useSaqFillerTests()

describe('filling an SAQ on this computer', () => {
  it('saves every answer at once and asks an explanation of Not Applicable', async () => {
    await mountDraft(draft())
    await choose('2.2.1', 'not_applicable')
    expect(savedDraft().answers['2.2.1']).toMatchObject({ response: 'not_applicable' })
    expect(text(row('2.2.1').querySelector('[data-testid="saq-problems"]'))).toContain(
      'Not Applicable needs an explanation',
    )
    await typeIn(row('2.2.1').querySelector('textarea')!, 'No such systems')
    expect(savedDraft().answers['2.2.1']?.explanation).toBe('No such systems')
    expect(row('2.2.1').querySelector('[data-testid="saq-problems"]')).toBeNull()
    expect(text(theTestId('saq-saved'))).toContain('Saved on this computer')
  })

  it('answers from the keyboard: a digit picks the choice, In Place moves on', async () => {
    await mountDraft(draft())
    const first = row('2.2.1')
    first.focus()
    first.dispatchEvent(new KeyboardEvent('keydown', { key: '1', bubbles: true }))
    await flushPromises()
    expect(savedDraft().answers['2.2.1']?.response).toBe('in_place')
    expect(document.activeElement).toBe(row('2.2.2'))
    row('2.2.2').dispatchEvent(new KeyboardEvent('keydown', { key: '5', bubbles: true }))
    await flushPromises()
    expect(savedDraft().answers['2.2.2']?.response).toBe('not_in_place')
    row('2.2.2').dispatchEvent(new KeyboardEvent('keydown', { key: 'Delete', bubbles: true }))
    await flushPromises()
    expect(savedDraft().answers['2.2.2']).toBeUndefined()
  })

  it('under "Unanswered", a row just answered stays (with its worksheet) until the filter changes', async () => {
    await mountDraft(draft())
    theTestId('saq-filter-unanswered').querySelector('input')!.click()
    await flushPromises()
    expect(byTestId('saq-requirement').map((el) => el.dataset.number)).toEqual([
      '2.2.1',
      '2.2.2',
      '8.3.1',
    ])
    await choose('2.2.1', 'in_place_ccw')
    expect(row('2.2.1').querySelector('[data-testid="saq-ccw-constraints"]')).not.toBeNull()
    theTestId('saq-filter-needs-more').querySelector('input')!.click()
    await flushPromises()
    theTestId('saq-filter-unanswered').querySelector('input')!.click()
    await flushPromises()
    expect(byTestId('saq-requirement').map((el) => el.dataset.number)).toEqual(['2.2.2', '8.3.1'])
  })

  it('keeps a 100 KB explanation in the draft, says it is too long and sends nothing', async () => {
    const long = 'x'.repeat(100 * 1024)
    await mountDraft(
      draft({
        answers: {
          '2.2.1': { requirement: '2.2.1', response: 'not_applicable', explanation: long },
        },
      }),
    )
    expect(text(row('2.2.1').querySelector('[data-testid="saq-problems"]'))).toContain(
      'The explanation must be at most 4,000 characters',
    )
    theTestId('saq-submit').click()
    await flushPromises()
    expect(apiCalls(s.fake).some((c) => c.op === 'saq.create')).toBe(false)
    expect(text(theTestId('saq-error'))).toContain('not acceptable yet')
    expect(savedDraft().answers['2.2.1']?.explanation).toBe(long)
  })

  it('points the service refusal at the requirements and keeps the draft', async () => {
    s.fake.handle('api.call', (p: { op: string }) =>
      p.op === 'saq.create'
        ? new Fail({
            code: 'VALIDATION',
            message: 'The service refused some answers.',
            fieldErrors: { 'answers.8.3.1': ['is not a requirement of SAQ A'] },
          })
        : fallback(p.op),
    )
    await mountDraft(
      draft({ answers: { '8.3.1': { requirement: '8.3.1', response: 'in_place' } } }),
    )
    theTestId('saq-submit').click()
    await flushPromises()
    expect(text(theTestId('saq-error'))).toBe('The service refused some answers.')
    expect(byTestId('saq-requirement').map((el) => el.dataset.number)).toEqual(['8.3.1'])
    expect(text(row('8.3.1'))).toContain('is not a requirement of SAQ A')
    expect(savedDraft().answers['8.3.1']?.response).toBe('in_place')
  })

  it('maps a refusal by position in the sent list back to the requirement', async () => {
    s.fake.handle('api.call', (p: { op: string }) =>
      p.op === 'saq.create'
        ? new Fail({
            code: 'VALIDATION',
            message: 'The service refused the request.',
            fieldErrors: { 'answers.1.explanation': ['is not acceptable here'] },
          })
        : fallback(p.op),
    )
    await mountDraft(
      draft({
        answers: {
          '8.3.1': { requirement: '8.3.1', response: 'in_place' },
          '2.2.2': { requirement: '2.2.2', response: 'in_place' },
        },
      }),
    )
    theTestId('saq-submit').click()
    await flushPromises()
    // Sent in template order: 2.2.2 first, 8.3.1 second.
    expect(byTestId('saq-requirement').map((el) => el.dataset.number)).toEqual(['8.3.1'])
    expect(text(row('8.3.1'))).toContain('explanation: is not acceptable here')
  })

  it('does not offer to submit while “Work offline” is on', async () => {
    await mountDraft(draft())
    expect(theTestId<HTMLButtonElement>('saq-submit').disabled).toBe(false)
    s.fake.emit('connectivity.mode', { workOffline: true, network: true })
    await flushPromises()
    const submit = theTestId<HTMLButtonElement>('saq-submit')
    expect(submit.disabled).toBe(true)
    expect(submit.closest('[data-reason]')?.getAttribute('data-reason')).toContain(
      '“Work offline” is on',
    )
  })

  it('submits: the draft moves to the new id and its evidence follows', async () => {
    s.fake.handle('api.call', (p: { op: string }) =>
      p.op === 'saq.create'
        ? answer({
            data: { id: 'saq-900', type: 'saq', attributes: { name: 'x', status: 'draft' } },
          })
        : new Fail({ code: 'OFFLINE', message: 'offline' }),
    )
    await mountDraft(
      draft({
        answers: { '2.2.1': { requirement: '2.2.1', response: 'in_place', explanation: '  ' } },
        summary: { payment_channels: ['ecommerce'], environment: ' Hosted shop ' },
      }),
    )
    theTestId('saq-submit').click()
    await flushPromises()
    const create = apiCalls(s.fake).find((c) => c.op === 'saq.create')!
    expect(create.input).toEqual({
      body: {
        saq_type: 'A',
        name: 'Web shop SAQ A 2030',
        template_version: '4.0.1',
        answers: [{ requirement: '2.2.1', response: 'in_place' }],
        executive_summary: { payment_channels: ['ecommerce'], environment: 'Hosted shop' },
      },
    })
    const saves = s.fake.calls.filter((c) => c.channel === 'drafts.save')
    expect(saves.at(-1)?.payload).toMatchObject({ key: 'saq-900', data: { saqId: 'saq-900' } })
    expect(s.fake.calls.find((c) => c.channel === 'drafts.delete')?.payload).toMatchObject({
      key: 'local-abc',
    })
    expect(s.fake.calls.find((c) => c.channel === 'saq.evidence.link')?.payload).toMatchObject({
      draftKey: 'local-abc',
      saqId: 'saq-900',
    })
    expect(s.router.currentRoute.value.fullPath).toBe('/saq/saq-900')
  })
})

describe('templates and evidence', () => {
  it('answered against an older template: the answers move to the current one, losses named', async () => {
    s.fake.handle('api.call', (p: { op: string }) => {
      if (p.op === 'saq.create')
        return new Fail({
          code: 'VALIDATION',
          message: 'The service refused the request.',
          fieldErrors: {
            template_version: ['answered against template 4.0; SAQ A is now on 4.0.1'],
          },
        })
      if (p.op === 'saq.type_template')
        return answer({
          data: {
            id: 'sqt-001',
            type: 'saq_template',
            attributes: {
              code: 'A',
              name: 'SAQ A',
              requirements_count: 2,
              template_version: '4.0.2',
              responses: ['in_place', 'not_applicable', 'not_in_place'],
              sections: [
                {
                  number: '2',
                  title: 'Secure configuration',
                  requirements: [
                    { number: '2.2.1', title: 'Hardening standards', required: true },
                    { number: '2.2.9', title: 'A new one', required: true },
                  ],
                },
              ],
            },
          },
        })
      return fallback(p.op)
    })
    await mountDraft(
      draft({
        answers: {
          '2.2.1': { requirement: '2.2.1', response: 'in_place' },
          '2.2.2': { requirement: '2.2.2', response: 'in_place' },
          '8.3.1': { requirement: '8.3.1', response: 'in_place_remediation' },
        },
      }),
    )
    theTestId('saq-submit').click()
    await flushPromises()
    expect(text(theTestId('saq-other-errors'))).toContain(
      'template version: answered against template 4.0; SAQ A is now on 4.0.1',
    )
    theTestId('saq-retemplate').click()
    await flushPromises()
    expect(savedDraft().template.template_version).toBe('4.0.2')
    expect(Object.keys(savedDraft().answers)).toEqual(['2.2.1'])
    expect(document.body.textContent).toContain(
      'These answers no longer apply and were removed: 2.2.2, 8.3.1.',
    )
    expect(byTestId('saq-other-errors')).toHaveLength(0)
  })

  it('lists a requirement’s evidence and attaches a file through main (its dialog in Electron)', async () => {
    const entry = {
      id: '00000000-0000-4000-8000-000000000001',
      path: '/home/me/Reports/SAQ/Evidence/local-abc/2.2.1/hardening.png',
      sha256: 'b'.repeat(64),
      verdict: 'recorded',
      saq: { saqType: 'A', status: 'draft', requirement: '2.2.1' },
    }
    const attached: unknown[] = []
    s.fake.handle('saq.evidence.list', () => (attached.length ? [entry] : []))
    s.fake.handle('saq.evidence.attach', (p: unknown) => {
      attached.push(p)
      return entry
    })
    await mountDraft(draft())
    expect(row('2.2.1').querySelectorAll('[data-testid="saq-evidence-item"]')).toHaveLength(0)
    ;(row('2.2.1').querySelector('[data-testid="saq-evidence-attach"]') as HTMLElement).click()
    await flushPromises()
    expect(attached).toEqual([
      {
        accountId: 'acct-aaaa',
        saqKey: 'local-abc',
        saqName: 'Web shop SAQ A 2030',
        saqType: 'A',
        requirement: '2.2.1',
      },
    ])
    expect(text(row('2.2.1').querySelector('[data-testid="saq-evidence-item"]'))).toContain(
      'hardening.png',
    )
  })
})
