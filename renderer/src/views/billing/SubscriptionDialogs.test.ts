import { flushPromises } from '@vue/test-utils'
import { describe, expect, it, vi } from 'vitest'
import ResourceTable from '@/components/kit/ResourceTable.vue'
import { resourceByKey } from '@/resources'
import { apiCalls, mountScreen, useTwoAccounts } from '@/test/composables'
import { byTestId, click, settle, submitWith } from '@/test/dom'
import { answer, serveAnalyst, type ApiAnswers, type ApiCall } from '@/test/fakeApi'
import { deferred } from '@/test/fakeScandesk'

const subscription = (id: string, status: string, over: Record<string, unknown> = {}) => ({
  id,
  type: 'subscription',
  attributes: {
    organization_id: 'org-7',
    plan_id: 'pln-2',
    plan_name: 'PCI Professional',
    product_name: 'PCI ASV Scanning',
    status,
    price: 899,
    currency: 'USD',
    auto_renew: true,
    features: { targets_limit: { limit: 100, active: true, unlimited: false } },
    starts_at: '2030-01-01T00:00:00.000Z',
    ends_at: '2031-01-01T00:00:00.000Z',
    ...over,
  },
})
const list = (rows: unknown[]) => ({
  data: { data: rows, meta: { pagination: { total_count: rows.length } } },
  fetchedAt: '',
  fromCache: false,
})

function serve(over: ApiAnswers = {}, permissions = ['organizations.write', 'billing.read']): void {
  serveAnalyst(
    fake,
    {
      'organizations.list_subscriptions': () =>
        list([subscription('sub-1', 'active'), subscription('sub-0', 'replaced')]),
      'billing.list_features': () =>
        list(
          [
            ['targets_limit', 'Targets', 'limit'],
            ['webhooks', 'Webhooks', 'toggle'],
          ].map(([code, name, kind]) => ({
            id: code,
            type: 'feature',
            attributes: { code, name, kind },
          })),
        ),
      'organizations.assign_subscription_features': () => answer(subscription('sub-1', 'active')),
      'organizations.update_subscription': () => answer(subscription('sub-1', 'active')),
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

/** The Subscriptions tab of organization org-7, as its detail page shows it. */
async function mountTab(): Promise<void> {
  mountScreen(ResourceTable, {
    props: {
      resource: resourceByKey('subscriptions')!,
      op: 'organizations.list_subscriptions',
      path: { id: 'org-7' },
      compact: true,
    },
  })
  await flushPromises()
  await vi.waitFor(() => expect(byTestId('resource-row')).toHaveLength(2))
}
/** The row actions offered on a subscription's row. */
const actionsOf = (id: string) =>
  byTestId('resource-row')
    .find((r) => r.dataset.id === id)!
    .querySelector<HTMLElement>('[data-testid="row-actions"]')
async function choose(id: string, op: string): Promise<void> {
  actionsOf(id)!.click()
  await flushPromises()
  document.querySelector<HTMLElement>(`[data-op="${op}"]`)!.click()
  await flushPromises()
}

describe('an organization’s subscriptions', () => {
  it('offers editing and features on active subscriptions only', async () => {
    await mountTab()
    actionsOf('sub-1')!.click()
    await flushPromises()
    expect(
      [...document.querySelectorAll<HTMLElement>('[data-op]')].map((i) => i.dataset.op),
    ).toEqual(['organizations.update_subscription', 'organizations.assign_subscription_features'])
    // a replaced subscription is history: nothing to act on
    expect(actionsOf('sub-0')).toBeNull()
  })

  it('edits a subscription under its organization’s path', async () => {
    await mountTab()
    await choose('sub-1', 'organizations.update_subscription')
    await vi.waitFor(() => expect(byTestId('operation-form')).toHaveLength(1))
    const renew = document.querySelector<HTMLElement>(
      '[data-testid="operation-form"] [data-field="auto_renew"] .el-switch, [data-testid="operation-form"] [data-field="auto_renew"] .el-checkbox',
    )!
    renew.click()
    await flushPromises()
    await submitWith('operation-form-submit')
    expect(sent('organizations.update_subscription').map((c) => c.input)).toEqual([
      {
        path: { id: 'org-7', subscription_id: 'sub-1' },
        body: { auto_renew: false, price: 899, ends_at: '2031-01-01T00:00:00.000Z' },
      },
    ])
  })

  it('edits its features with the plans’ editor, under its organization’s path', async () => {
    await mountTab()
    await choose('sub-1', 'organizations.assign_subscription_features')
    await vi.waitFor(() => expect(byTestId('feature-row')).toHaveLength(2))
    const row = byTestId('feature-row')
      .find((r) => r.dataset.code === 'targets_limit')!
      .closest('tr')!
    const input = row.querySelector<HTMLInputElement>(
      'input[data-testid="feature-limit"], [data-testid="feature-limit"] input',
    )!
    input.value = '500'
    input.dispatchEvent(new Event('input'))
    await flushPromises()
    await click('features-save')
    await settle()
    expect(sent('organizations.assign_subscription_features').map((c) => c.input)).toEqual([
      {
        path: { id: 'org-7', subscription_id: 'sub-1' },
        body: { features: { targets_limit: { limit: 500, active: true, unlimited: false } } },
      },
    ])
    expect(sent('organizations.revoke_subscription_features')).toHaveLength(0)
    // the write refreshed the organization's subscriptions
    expect(sent('organizations.list_subscriptions')).toHaveLength(2)
  })

  it('reopens its features from what was saved while the list is still on its way back', async () => {
    let calls = 0
    const later = deferred<unknown>()
    serve({
      'organizations.list_subscriptions': () =>
        ++calls === 1
          ? list([subscription('sub-1', 'active'), subscription('sub-0', 'replaced')])
          : later.promise,
    })
    await mountTab()
    await choose('sub-1', 'organizations.assign_subscription_features')
    await vi.waitFor(() => expect(byTestId('feature-row')).toHaveLength(2))
    const webhooks = () =>
      byTestId('feature-row')
        .find((r) => r.dataset.code === 'webhooks')!
        .closest('tr')!
        .querySelector<HTMLElement>('[data-testid="feature-granted"]')!
    webhooks().querySelector('input')!.click()
    await flushPromises()
    await click('features-save')
    await settle()
    expect(calls).toBe(2)
    await choose('sub-1', 'organizations.assign_subscription_features')
    await vi.waitFor(() => expect(byTestId('feature-row')).toHaveLength(2))
    expect(webhooks().classList.contains('is-checked')).toBe(true)
    expect(byTestId('feature-changed')).toHaveLength(0)
    later.resolve(list([subscription('sub-1', 'active')]))
  })

  it('shows no subscription writes to an account without organizations.write', async () => {
    serve({}, ['organizations.read', 'billing.write'])
    await mountTab()
    expect(byTestId('row-actions')).toHaveLength(0)
  })
})
