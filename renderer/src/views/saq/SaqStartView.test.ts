import { flushPromises } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import { byTestId, click, inputOf, theTestId, typeInto } from '@/test/dom'
import { useFakeApp } from '@/test/fakeApp'
import { Fail } from '@/test/fakeScandesk'
import { useRoutedScreen } from '@/test/routed'
import { saqDraft, type SaqDraft } from '@/composables/saqDraft'
import { SAQ_A_SECTIONS } from './saqFixtures'
import SaqStartView from './SaqStartView.vue'

interface Call {
  op: string
  input: { query?: Record<string, unknown>; path?: { id: string }; body?: Record<string, unknown> }
}

const answer = (data: unknown) => ({
  data,
  fetchedAt: '2030-01-03T00:00:00Z',
  fromCache: false,
})
const list = (rows: unknown[]) =>
  answer({ data: rows, meta: { pagination: { total_count: rows.length } } })

const TYPES = [
  {
    id: 'sqt-001',
    type: 'saq_type',
    attributes: {
      code: 'A',
      name: 'Card-not-present, fully outsourced',
      description: 'E-commerce or mail/telephone orders with everything outsourced.',
      applies_to: 'Merchants',
      requirements_count: 31,
      template_version: '4.0.1',
      eligibility: ['Card-not-present only', 'All processing outsourced'],
    },
  },
  {
    id: 'sqt-002',
    type: 'saq_type',
    attributes: {
      code: 'A-EP',
      name: 'Partly outsourced e-commerce',
      applies_to: 'E-commerce merchants',
      requirements_count: 140,
      optional_requirements_count: 2,
      template_version: '4.0.1',
      eligibility: ['E-commerce only', 'Your site controls the redirect', 'No card data stored'],
    },
  },
]
const TEMPLATE = {
  id: 'sqt-001',
  type: 'saq_template',
  attributes: {
    code: 'A',
    name: 'Card-not-present, fully outsourced',
    requirements_count: 3,
    template_version: '4.0.1',
    responses: ['in_place', 'in_place_ccw', 'not_applicable', 'not_in_place'],
    sections: SAQ_A_SECTIONS,
  },
}
const saq = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'saq',
  attributes: {
    name,
    saq_type: 'A',
    status: 'draft',
    is_template: false,
    updated_at: '2030-01-02T10:00:00Z',
    created_at: '2029-01-02T10:00:00Z',
    ...extra,
  },
})

let templates: unknown[] = []
let earlier: unknown[] = []
let failTemplate: Fail | null = null
const saved: Record<string, unknown> = {}

const fake = useFakeApp({
  setup: (fake) => {
    templates = []
    earlier = []
    failTemplate = null
    for (const k of Object.keys(saved)) delete saved[k]
    fake.handle('api.cancel', () => ({ cancelled: true }))
    fake.handle('drafts.save', (p: { key: string; data: unknown }) => {
      saved[p.key] = p.data
      return { savedAt: '2030-01-03T10:00:00Z' }
    })
    fake.handle('api.call', (p: Call) => {
      if (p.op === 'saq.types') return list(TYPES)
      if (p.op === 'saq.list' && p.input.query?.is_template === 'true') return list(templates)
      if (p.op === 'saq.list') return list(earlier)
      if (p.op === 'saq.type_template') return failTemplate ?? answer({ data: TEMPLATE })
      if (p.op === 'saq.show')
        return answer({
          data: saq(p.input.path!.id, 'Shop template', {
            is_template: true,
            answers: [
              { requirement: '2.2.1', response: 'in_place' },
              { requirement: '8.3.1', response: 'not_applicable', explanation: 'No staff logins' },
              { requirement: '9.9.9', response: 'maybe' },
            ],
            executive_summary: { payment_channels: ['ecommerce'], environment: 'Hosted shop' },
          }),
        })
      if (p.op === 'saq.clone') return answer({ data: saq('saq-077', String(p.input.body?.name)) })
      return new Fail({ code: 'NOT_FOUND', message: `no ${p.op} here` })
    })
  },
})

const screen = useRoutedScreen(SaqStartView, {
  path: '/saq/new',
  routes: [{ path: '/saq/new', component: SaqStartView }],
})
const mountView = () => screen.mount()
const text = (el: Element) => el.textContent?.replace(/\s+/g, ' ').trim() ?? ''
const calls = (op: string) =>
  fake.calls
    .filter((c) => c.channel === 'api.call')
    .map((c) => c.payload as Call)
    .filter((c) => c.op === op)
const card = (code: string) => byTestId('saq-type-card').find((c) => c.dataset.code === code)!
const radio = (code: string) =>
  card(code).querySelector<HTMLElement>('[data-testid="saq-type-radio"]')!
async function chooseType(code: string) {
  radio(code).click()
  await flushPromises()
}
async function chooseMethod(id: string) {
  theTestId(id).querySelector('input')!.click()
  await flushPromises()
}
const onlySaved = () => {
  const keys = Object.keys(saved)
  expect(keys).toHaveLength(1)
  return { key: keys[0], draft: saqDraft.parse(saved[keys[0]]) as SaqDraft }
}

describe('the type picker', () => {
  it('shows one radio card per type, keyboard reachable, with one tab stop', async () => {
    await mountView()
    expect(theTestId('saq-types').getAttribute('role')).toBe('radiogroup')
    const radios = byTestId('saq-type-radio')
    expect(radios.map((r) => r.getAttribute('role'))).toEqual(['radio', 'radio'])
    expect(radios.map((r) => r.tabIndex)).toEqual([0, -1])
    expect(text(card('A'))).toContain('31 requirements')
    // the one count said everywhere: required ones, the optional ones named apart (issue 36)
    expect(text(card('A-EP'))).toContain('138 required requirements and 2 optional')
    expect(text(card('A'))).toContain('template version 4.0.1')
    expect(text(card('A'))).toContain('Merchants')

    radios[0].dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }))
    await flushPromises()
    expect(radio('A-EP').getAttribute('aria-checked')).toBe('true')
    expect(radio('A').getAttribute('aria-checked')).toBe('false')
    expect(byTestId('saq-type-radio').map((r) => r.tabIndex)).toEqual([-1, 0])
    expect(document.activeElement).toBe(radio('A-EP'))
  })

  it('says "You fit" once every eligibility line is ticked, and never blocks', async () => {
    await mountView()
    const lines = () =>
      card('A-EP').querySelectorAll<HTMLInputElement>('[data-testid="saq-eligibility-line"] input')
    const verdict = () =>
      text(card('A-EP').querySelector('[data-testid="saq-eligibility-verdict"]')!)
    expect(lines()).toHaveLength(3)
    expect(verdict()).toContain('0 of 3 ticked')
    lines()[0].click()
    await flushPromises()
    // Ticking a line of a card chooses that type.
    expect(radio('A-EP').getAttribute('aria-checked')).toBe('true')
    expect(verdict()).toContain('1 of 3 ticked')
    expect(theTestId<HTMLButtonElement>('saq-start').disabled).toBe(false)
    lines()[1].click()
    lines()[2].click()
    await flushPromises()
    expect(verdict()).toBe('You fit SAQ A-EP.')
    lines()[1].click()
    await flushPromises()
    expect(verdict()).toContain('2 of 3 ticked')
  })
})

describe('starting a questionnaire', () => {
  it('builds a draft from the type template, named after the type and year', async () => {
    await mountView()
    await chooseType('A')
    const year = new Date().getFullYear()
    expect(inputOf('saq-start-name').value).toBe(`SAQ A ${year}`)
    expect(text(theTestId('saq-method-blank'))).toContain('SAQ A template (version 4.0.1)')
    expect(theTestId('saq-method-template').querySelector('input')!.disabled).toBe(true)
    expect(text(theTestId('saq-templates-none'))).toContain('None yet')
    await click('saq-start')
    expect(calls('saq.type_template')[0].input.path).toEqual({ id: 'sqt-001' })
    const { key, draft } = onlySaved()
    expect(key).toMatch(/^local-/)
    expect(draft.name).toBe(`SAQ A ${year}`)
    expect(draft.saqId).toBeNull()
    expect(draft.template.code).toBe('A')
    expect(draft.template.typeId).toBe('sqt-001')
    expect(draft.template.sections.flatMap((s) => s.requirements.map((r) => r.number))).toEqual([
      '2.2.1',
      '2.2.2',
      '8.3.1',
    ])
    expect(draft.answers).toEqual({})
    expect(screen.router.currentRoute.value.fullPath).toBe(`/saq/draft/${key}`)
  })

  it('starts from a saved template with its answers and summary carried', async () => {
    templates = [saq('saq-010', 'Shop template', { is_template: true })]
    await mountView()
    await chooseType('A')
    const query = calls('saq.list').find((c) => c.input.query?.is_template)?.input.query
    expect(query).toMatchObject({ is_template: 'true', saq_type: 'A' })
    await chooseMethod('saq-method-template')
    expect(byTestId('saq-template-pick').map((p) => p.dataset.id)).toEqual(['saq-010'])
    await typeInto('saq-start-name', 'Shop 2031')
    const notes = document.querySelector<HTMLTextAreaElement>(
      '[data-testid="saq-start-description"] textarea, textarea[data-testid="saq-start-description"]',
    )!
    notes.value = 'Next year'
    notes.dispatchEvent(new Event('input'))
    await flushPromises()
    await click('saq-start')
    expect(calls('saq.show')[0].input.path).toEqual({ id: 'saq-010' })
    const { draft } = onlySaved()
    expect(draft.name).toBe('Shop 2031')
    expect(draft.description).toBe('Next year')
    expect(draft.templateId).toBe('saq-010')
    expect(draft.template.code).toBe('A')
    expect(Object.keys(draft.answers)).toEqual(['2.2.1', '8.3.1'])
    expect(draft.answers['8.3.1'].explanation).toBe('No staff logins')
    expect(draft.summary).toEqual({ payment_channels: ['ecommerce'], environment: 'Hosted shop' })
  })

  it('clones an earlier SAQ on the service and opens the new one', async () => {
    earlier = [
      saq('saq-005', 'Web shop 2030', { status: 'approved', approved_at: '2030-01-01T00:00:00Z' }),
      saq('saq-004', 'Web shop 2029'),
    ]
    await mountView()
    await chooseType('A')
    expect(calls('saq.list').find((c) => !c.input.query?.is_template)?.input.query).toMatchObject({
      saq_type: 'A',
      sort: '-created_at',
    })
    await chooseMethod('saq-method-clone')
    const picks = byTestId('saq-clone-pick')
    expect(picks.map((p) => p.dataset.id)).toEqual(['saq-005', 'saq-004'])
    expect(text(picks[0])).toContain('Approved')
    expect(text(picks[1])).not.toContain('Approved')
    expect(theTestId<HTMLButtonElement>('saq-start').disabled).toBe(true)
    picks[0].querySelector('input')!.click()
    await flushPromises()
    await typeInto('saq-start-name', 'Web shop 2031')
    await click('saq-start')
    expect(calls('saq.clone')[0].input).toEqual({
      path: { id: 'saq-005' },
      body: { name: 'Web shop 2031' },
    })
    expect(Object.keys(saved)).toHaveLength(0)
    expect(screen.router.currentRoute.value.fullPath).toBe('/saq/saq-077')
  })

  it('keeps what was typed when the template cannot be fetched offline, and retries', async () => {
    failTemplate = new Fail({ code: 'OFFLINE', message: 'The service cannot be reached.' })
    await mountView()
    await chooseType('A-EP')
    await typeInto('saq-start-name', 'Shop EP')
    await click('saq-start')
    expect(text(theTestId('saq-start-error'))).toContain('needs the service once')
    expect(Object.keys(saved)).toHaveLength(0)
    expect(inputOf('saq-start-name').value).toBe('Shop EP')
    expect(screen.router.currentRoute.value.fullPath).toBe('/saq/new')

    failTemplate = null
    await click('saq-start-retry')
    expect(onlySaved().draft.name).toBe('Shop EP')
  })

  it('refuses an empty name under the field', async () => {
    await mountView()
    await chooseType('A')
    await typeInto('saq-start-name', '   ')
    await click('saq-start')
    await new Promise((r) => setTimeout(r, 130))
    await flushPromises()
    expect(text(document.querySelector('[data-field="name"] .el-form-item__error')!)).toContain(
      'name',
    )
    expect(calls('saq.type_template')).toHaveLength(0)
  })
})
