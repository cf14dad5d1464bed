import { flushPromises } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import { apiCalls, mountScreen, useTwoAccounts } from '@/test/composables'
import { byTestId, click, errorOfField, settle, submitWith, theTestId } from '@/test/dom'
import { answer, serveAnalyst, type ApiAnswers, type ApiCall } from '@/test/fakeApi'
import { deferred, Fail, invalid } from '@/test/fakeScandesk'
import BillingView from './BillingView.vue'

const grant = (limit: number, unlimited = false) => ({ limit, active: true, unlimited })
const plan = (id: string, over: Record<string, unknown>) => ({
  id,
  type: 'plan',
  attributes: {
    product_code: 'pci_scan',
    currency: 'USD',
    partner: false,
    default: false,
    features: {},
    ...over,
  },
})
const PLANS = [
  plan('pln-2', {
    name: 'PCI Professional',
    code: 'professional',
    price: 899,
    plan_order: 2,
    features: {
      targets_limit: grant(100),
      scans_per_month: grant(200),
      saq_access: grant(0),
    },
  }),
  plan('pln-1', {
    name: 'PCI Basic',
    code: 'basic',
    price: 299,
    plan_order: 1,
    default: true,
    features: { targets_limit: grant(10) },
  }),
]
const list = (rows: unknown[]) => ({
  data: { data: rows, meta: { pagination: { total_count: rows.length } } },
  fetchedAt: '',
  fromCache: false,
})
const FEATURES = [
  ['targets_limit', 'Targets', 'limit'],
  ['scans_per_month', 'Scans per month', 'limit'],
  ['saq_access', 'Self-assessment questionnaires', 'toggle'],
  ['webhooks', 'Webhooks', 'toggle'],
].map(([code, name, kind], i) => ({
  id: `fea-${i}`,
  type: 'feature',
  attributes: { code, name, kind },
}))

function serve(over: ApiAnswers = {}, permissions = ['billing.read', 'billing.write']): void {
  serveAnalyst(
    fake,
    {
      'user.products': () =>
        answer([
          {
            id: 'prd-1',
            type: 'product',
            attributes: { name: 'PCI ASV Scanning', product_code: 'pci_scan', subscribed: true },
          },
          {
            id: 'prd-2',
            type: 'product',
            attributes: { name: 'External scanning', code: 'external_scan', subscribed: false },
          },
        ]),
      'billing.list_plans': () => list(PLANS),
      'billing.default_plan': () => answer(PLANS[1]),
      'billing.list_features': () => list(FEATURES),
      'billing.default_plans': () =>
        list([plan('pln-1', { name: 'PCI Basic', code: 'basic', price: 299, default: true })]),
      'billing.assign_features': (p) =>
        answer(
          plan('pln-2', {
            name: 'PCI Professional',
            ...(p.input?.body as Record<string, unknown>),
          }),
        ),
      'billing.revoke_features': () => answer(plan('pln-2', { name: 'PCI Professional' })),
    },
    {
      'user.permissions': () => answer({ role: 'administrator', permissions }),
      ...over,
    },
  )
}

const fake = useTwoAccounts(() => {
  serve()
})

const sent = (op: string) => apiCalls(fake).filter((c) => c.op === op) as ApiCall[]
const text = (el: Element | null | undefined) => el?.textContent?.replace(/\s+/g, ' ').trim() ?? ''
const featureRow = (code: string) =>
  document
    .querySelector(`[data-testid="feature-row"][data-code="${code}"]`)!
    .closest('tr') as HTMLElement
const inRow = (code: string, id: string) =>
  featureRow(code).querySelector<HTMLElement>(`[data-testid="${id}"]`)!
async function typeLimit(code: string, value: string): Promise<void> {
  const input = featureRow(code).querySelector<HTMLInputElement>(
    '[data-testid="feature-limit"] input, input[data-testid="feature-limit"]',
  )!
  input.value = value
  input.dispatchEvent(new Event('input'))
  await flushPromises()
}
async function openFeatures(planName: string): Promise<void> {
  const row = [...byTestId('plan-row')].find((r) => text(r.closest('tr')).includes(planName))!
  row.querySelector<HTMLElement>('[data-testid="plan-features"]')!.click()
  await flushPromises()
  await vi.waitFor(() => expect(byTestId('feature-row')).toHaveLength(4))
}
async function mount(): Promise<void> {
  mountScreen(BillingView)
  await flushPromises()
  await vi.waitFor(() => expect(byTestId('plan-row')).toHaveLength(2))
}

describe('the plans of a product', () => {
  it('lists them in plan order with price, default badge and number of features', async () => {
    await mount()
    const tabs = [...document.querySelectorAll('.el-tabs__item')].map((t) => text(t))
    expect(tabs).toEqual(['PCI ASV Scanning', 'External scanning', 'Default plans', 'Features'])
    const rows = byTestId('plan-row').map((r) =>
      [...r.closest('tr')!.querySelectorAll('td')].slice(0, 6).map((td) => text(td)),
    )
    expect(rows).toEqual([
      ['PCI Basic Default', 'basic', 'USD 299.00', '1', 'No', '1'],
      ['PCI Professional', 'professional', 'USD 899.00', '2', 'No', '3'],
    ])
    expect(text(theTestId('product-default-plan'))).toBe('Default plan: PCI Basic')
    expect(sent('billing.list_plans')[0].input).toEqual({
      path: { product_code: 'pci_scan' },
      query: { per_page: 100, sort: 'plan_order' },
    })
  })

  it('says when a product has no default plan', async () => {
    serve({
      'billing.default_plan': () =>
        new Fail({ code: 'NOT_FOUND', message: 'The service could not find that record.' }),
    })
    await mount()
    expect(text(theTestId('product-default-plan'))).toBe(
      'No default plan: new organizations get no plan.',
    )
    expect(byTestId('resource-error').map((e) => text(e))).toEqual([])
  })

  it('shows the default plan of every product, and names products without one', async () => {
    await mount()
    ;[...document.querySelectorAll<HTMLElement>('.el-tabs__item')]
      .find((t) => text(t) === 'Default plans')!
      .click()
    await flushPromises()
    await vi.waitFor(() => expect(byTestId('default-plan-row')).toHaveLength(2))
    const rows = byTestId('default-plan-row').map((r) =>
      [...r.closest('tr')!.querySelectorAll('td')].map((td) => text(td)),
    )
    expect(rows).toEqual([
      ['PCI ASV Scanning', 'PCI Basic', 'basic', 'USD 299.00'],
      ['External scanning', 'None', '', ''],
    ])
  })

  it('says plainly why the service refused to delete the default plan', async () => {
    serve({
      'billing.delete_plan': () =>
        new Fail({
          code: 'CONFLICT',
          status: 409,
          message:
            'The service refused the change because of the current state. The default plan of a product cannot be deleted; unset it first',
        }),
    })
    await mount()
    const row = byTestId('plan-row').find((r) => r.dataset.id === 'pln-1')!
    row.querySelector<HTMLElement>('[data-testid="plan-actions"]')!.click()
    await flushPromises()
    document.querySelector<HTMLElement>('[data-action="delete"]')!.click()
    await flushPromises()
    expect(text(theTestId('delete-confirm-text'))).toBe(
      'Delete the plan “PCI Basic” of PCI ASV Scanning?',
    )
    await click('delete-confirm')
    expect(sent('billing.delete_plan').map((c) => c.input)).toEqual([
      { path: { product_code: 'pci_scan', id: 'pln-1' } },
    ])
    expect(text(theTestId('plan-failure'))).toContain(
      '“PCI Basic” was not deleted: it is the default plan of this product.',
    )
  })

  it('offers no writes, and says why, to an account without billing.write', async () => {
    serve({}, ['billing.read', 'targets.write'])
    await mount()
    expect(theTestId<HTMLButtonElement>('plan-create').disabled).toBe(true)
    expect(theTestId('plan-create').getAttribute('aria-description')).toContain('billing.write')
    const items = [...document.querySelectorAll<HTMLElement>('[data-action]')]
    expect(items.length).toBeGreaterThan(0)
    expect(items.every((i) => i.getAttribute('aria-disabled') === 'true')).toBe(true)
    await openFeatures('PCI Professional')
    expect(byTestId('features-read-only')).toHaveLength(1)
    expect(theTestId<HTMLButtonElement>('features-save').disabled).toBe(true)
  })
})

describe('writing plans', () => {
  const formInput = (name: string) =>
    document.querySelector<HTMLInputElement>(
      `[data-testid="operation-form"] [data-field="${name}"] input`,
    )!

  it('creates a plan of the product, refusing an empty name before sending', async () => {
    serve({
      'billing.create_plan': (p) => answer(plan('pln-9', p.input?.body as Record<string, unknown>)),
    })
    await mount()
    await click('plan-create')
    await vi.waitFor(() => expect(byTestId('operation-form')).toHaveLength(1))
    await submitWith('operation-form-submit')
    expect(await errorOfField('name')).toBe('Name is required')
    expect(sent('billing.create_plan')).toHaveLength(0)
    formInput('name').value = 'PCI Gold'
    formInput('name').dispatchEvent(new Event('input'))
    await flushPromises()
    await submitWith('operation-form-submit')
    expect(sent('billing.create_plan').map((c) => c.input)).toEqual([
      { path: { product_code: 'pci_scan' }, body: { name: 'PCI Gold' } },
    ])
  })

  it('edits a plan without touching its features', async () => {
    serve({
      'billing.update_plan': (p) => answer(plan('pln-2', p.input?.body as Record<string, unknown>)),
    })
    await mount()
    const row = byTestId('plan-row').find((r) => r.dataset.id === 'pln-2')!
    row.querySelector<HTMLElement>('[data-testid="plan-actions"]')!.click()
    await flushPromises()
    document
      .querySelectorAll<HTMLElement>('[data-action="edit"]')
      [byTestId('plan-row').indexOf(row)].click()
    await flushPromises()
    await vi.waitFor(() => expect(formInput('name').value).toBe('PCI Professional'))
    formInput('price').value = '949.5'
    formInput('price').dispatchEvent(new Event('input'))
    formInput('price').dispatchEvent(new Event('change'))
    await flushPromises()
    await submitWith('operation-form-submit')
    expect(sent('billing.update_plan').map((c) => c.input)).toEqual([
      {
        path: { product_code: 'pci_scan', id: 'pln-2' },
        body: {
          name: 'PCI Professional',
          code: 'professional',
          price: 949.5,
          plan_order: 2,
          partner: false,
        },
      },
    ])
  })

  it('makes another plan the default, and unsets the default', async () => {
    let hasDefault = true
    serve({
      'billing.set_default_plan': () => answer(PLANS[0]),
      'billing.unset_default_plan': () => {
        hasDefault = false
        return answer(PLANS[1])
      },
      'billing.default_plan': () =>
        hasDefault
          ? answer(PLANS[1])
          : new Fail({ code: 'NOT_FOUND', message: 'The service could not find that record.' }),
    })
    await mount()
    const actions = (id: string) => byTestId('plan-row').find((r) => r.dataset.id === id)!
    const items = (kind: string) =>
      document.querySelectorAll<HTMLElement>(`[data-action="${kind}"]`)
    // one Set as default (the other plan) and one Unset default (the default plan)
    expect(items('default')).toHaveLength(1)
    expect(items('undefault')).toHaveLength(1)
    actions('pln-2').querySelector<HTMLElement>('[data-testid="plan-actions"]')!.click()
    await flushPromises()
    items('default')[0].click()
    await flushPromises()
    actions('pln-1').querySelector<HTMLElement>('[data-testid="plan-actions"]')!.click()
    await flushPromises()
    items('undefault')[0].click()
    await flushPromises()
    expect(sent('billing.set_default_plan').map((c) => c.input)).toEqual([
      { path: { product_code: 'pci_scan', id: 'pln-2' } },
    ])
    expect(sent('billing.unset_default_plan').map((c) => c.input)).toEqual([
      { path: { product_code: 'pci_scan', id: 'pln-1' } },
    ])
    // the writes refreshed the default plan: the 404 wins over the answer before it
    expect(sent('billing.default_plan').length).toBeGreaterThan(1)
    await vi.waitFor(() =>
      expect(text(theTestId('product-default-plan'))).toBe(
        'No default plan: new organizations get no plan.',
      ),
    )
  })
})

describe('editing a plan’s features', () => {
  it('refuses a negative limit under its row and sends nothing', async () => {
    await mount()
    await openFeatures('PCI Professional')
    await typeLimit('targets_limit', '-5')
    expect(text(inRow('targets_limit', 'feature-error'))).toBe(
      'The limit must be a whole number, 0 or more.',
    )
    await click('features-save')
    expect(text(theTestId('form-error'))).toBe('Fix the limit marked below; nothing was sent.')
    expect(sent('billing.assign_features')).toHaveLength(0)
    expect(sent('billing.revoke_features')).toHaveLength(0)
  })

  it('grants changes with assign and takes away unticked features with revoke', async () => {
    await mount()
    await openFeatures('PCI Professional')
    inRow('targets_limit', 'feature-unlimited').click()
    await typeLimit('scans_per_month', '500')
    inRow('saq_access', 'feature-granted').querySelector('input')!.click()
    await flushPromises()
    expect(byTestId('feature-changed').map((t) => text(t))).toEqual([
      'Changed',
      'Changed',
      'To remove',
    ])
    expect(text(theTestId('features-save'))).toBe('Save 3 changes')
    await click('features-save')
    await settle()
    expect(sent('billing.assign_features').map((c) => c.input)).toEqual([
      {
        path: { product_code: 'pci_scan', id: 'pln-2' },
        body: {
          features: {
            targets_limit: { limit: 100, active: true, unlimited: true },
            scans_per_month: { limit: 500, active: true, unlimited: false },
          },
        },
      },
    ])
    expect(sent('billing.revoke_features').map((c) => c.input)).toEqual([
      { path: { product_code: 'pci_scan', id: 'pln-2' }, body: { feature_codes: ['saq_access'] } },
    ])
    // the write refreshed the product's plans
    expect(sent('billing.list_plans').length).toBeGreaterThan(1)
  })

  it('reopens from what was saved while the list is still on its way back', async () => {
    let calls = 0
    const later = deferred<unknown>()
    serve({ 'billing.list_plans': () => (++calls === 1 ? list(PLANS) : later.promise) })
    await mount()
    await openFeatures('PCI Professional')
    inRow('targets_limit', 'feature-unlimited').click()
    await flushPromises()
    await click('features-save')
    await settle()
    expect(sent('billing.assign_features')).toHaveLength(1)
    expect(calls).toBeGreaterThan(1)
    await openFeatures('PCI Professional')
    expect(inRow('targets_limit', 'feature-unlimited').classList.contains('is-checked')).toBe(true)
    expect(byTestId('feature-changed')).toHaveLength(0)
    later.resolve(list(PLANS))
  })

  it('keeps the dialog open with the service’s words when a call is refused', async () => {
    serve({
      'billing.revoke_features': () =>
        invalid(
          { 'feature_codes.0': ['is not a known feature'] },
          'The service did not accept some of the values.',
        ),
    })
    await mount()
    await openFeatures('PCI Professional')
    inRow('saq_access', 'feature-granted').querySelector('input')!.click()
    await flushPromises()
    await click('features-save')
    expect(text(theTestId('form-error'))).toBe(
      'The service did not accept some of the values. feature_codes.0: is not a known feature',
    )
    expect(byTestId('features-dialog')[0].closest('.el-overlay')).not.toBeNull()
  })
})
