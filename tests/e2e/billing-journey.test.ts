import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { type BrowserMode, useDemoJourney } from './harness'

const WAIT = { timeout: 30_000 }

/** The operations the page asked the service for (browser mode's api.call bridge requests). */
function watchOperations(page: Page): string[] {
  const ops: string[] = []
  page.on('request', (req) => {
    if (!req.url().includes('/bridge/call/api.call')) return
    try {
      ops.push(String((JSON.parse(req.postData() ?? '{}') as { op?: string }).op))
    } catch {
      ops.push('?')
    }
  })
  return ops
}

/** The row of the features editor for one feature code. */
const featureRow = (page: Page, code: string) =>
  page.locator('tr', { has: page.locator(`[data-testid="feature-row"][data-code="${code}"]`) })
const limitBox = (page: Page, code: string) =>
  featureRow(page, code).locator(
    'input[data-testid="feature-limit"], [data-testid="feature-limit"] input',
  )
const planRow = (page: Page, id: string) =>
  page.locator('tr', { has: page.locator(`[data-testid="plan-row"][data-id="${id}"]`) })

/** The features the plan detail drawer lists: code → how it is granted. */
async function grantsInDetail(page: Page): Promise<Record<string, string>> {
  const drawer = page.getByTestId('plan-detail')
  await drawer.getByTestId('plan-feature-grant').first().waitFor(WAIT)
  const cells = drawer.getByTestId('plan-feature-grant')
  const out: Record<string, string> = {}
  for (let i = 0; i < (await cells.count()); i++) {
    const cell = cells.nth(i)
    out[(await cell.getAttribute('data-code')) ?? '?'] = (await cell.textContent())?.trim() ?? ''
  }
  return out
}

describe('billing on the demo service (administrator)', () => {
  let ops: string[] = []
  const j = useDemoJourney({ beforeOpen: (p) => void (ops = watchOperations(p)) })
  let app: BrowserMode
  let page: Page
  let problems: string[]
  beforeAll(() => void ({ app, page, problems } = j))

  it('edits a plan’s features, refusing a negative limit first, and the service keeps them', async () => {
    await page.locator('[data-testid="nav-group"][data-group="billing"]').click()
    // the first product's tab: PCI ASV Scanning, its plans in order, the default marked
    await planRow(page, 'pln-002').waitFor(WAIT)
    await expect
      .poll(() => page.getByTestId('product-default-plan').first().textContent(), WAIT)
      .toContain('PCI Basic')
    expect(await planRow(page, 'pln-002').getByTestId('plan-feature-count').textContent()).toBe('6')

    await planRow(page, 'pln-002').getByTestId('plan-features').click()
    const dialog = page.getByTestId('features-dialog')
    await featureRow(page, 'webhooks').waitFor(WAIT)
    await expect.poll(() => limitBox(page, 'scans_per_month').inputValue(), WAIT).toBe('200')

    // a negative limit is refused under its row, and nothing is sent
    await limitBox(page, 'scans_per_month').fill('-3')
    await expect
      .poll(() => featureRow(page, 'scans_per_month').getByTestId('feature-error').textContent())
      .toContain('whole number, 0 or more')
    await page.getByTestId('features-save').click()
    await expect
      .poll(() => dialog.getByTestId('form-error').textContent())
      .toContain('nothing was sent')
    expect(ops.filter((op) => op.endsWith('_features') && op !== 'billing.list_features')).toEqual(
      [],
    )

    // targets unlimited, scans per month 350, webhooks taken away
    await featureRow(page, 'targets_limit').getByTestId('feature-unlimited').click()
    await limitBox(page, 'scans_per_month').fill('350')
    await featureRow(page, 'webhooks').getByTestId('feature-granted').click()
    await expect
      .poll(() => page.getByTestId('features-save').textContent())
      .toContain('Save 3 changes')
    await page.getByTestId('features-save').click()
    await dialog.waitFor({ state: 'hidden', ...WAIT })
    expect(ops).toContain('billing.assign_features')
    expect(ops).toContain('billing.revoke_features')

    // a fresh page load reads the plan back from the service
    await app.goto(page, 'billing')
    await planRow(page, 'pln-002').waitFor(WAIT)
    await expect
      .poll(() => planRow(page, 'pln-002').getByTestId('plan-feature-count').textContent(), WAIT)
      .toBe('5')
    await planRow(page, 'pln-002').getByTestId('plan-open').click()
    expect(await grantsInDetail(page)).toEqual({
      targets_limit: 'Unlimited',
      scans_per_month: 'Up to 350',
      saq_access: 'On',
      api_access: 'On',
      advanced_reports: 'On',
    })
    await page.keyboard.press('Escape')
    await page.getByTestId('plan-detail').waitFor({ state: 'hidden', ...WAIT })

    // and the editor starts from the saved grants
    await planRow(page, 'pln-002').getByTestId('plan-features').click()
    await featureRow(page, 'webhooks').waitFor(WAIT)
    await expect.poll(() => limitBox(page, 'scans_per_month').inputValue(), WAIT).toBe('350')
    expect(
      await featureRow(page, 'targets_limit').locator('.el-switch.is-checked').count(),
    ).toBeGreaterThan(0)
    expect(await featureRow(page, 'webhooks').locator('.el-checkbox.is-checked').count()).toBe(0)
    expect(await page.getByTestId('feature-changed').count()).toBe(0)
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    expect(problems, problems.join('\n')).toEqual([])
  })

  it('edits the features of an organization’s subscription from its Subscriptions tab', async () => {
    await app.goto(page, 'organizations/org-001')
    await page.locator('.el-tabs__item', { hasText: /^Subscriptions$/ }).click()
    const table = page.locator('[data-resource="subscriptions"]:visible')
    const row = table.locator('[data-testid="resource-row"][data-id="sub-002"]')
    await row.waitFor(WAIT)
    await row.getByTestId('row-actions').click()
    await page.locator('[data-op="organizations.assign_subscription_features"]:visible').click()
    await featureRow(page, 'targets_limit').waitFor(WAIT)
    await expect.poll(() => limitBox(page, 'targets_limit').inputValue(), WAIT).toBe('100')
    await limitBox(page, 'targets_limit').fill('750')
    await page.getByTestId('features-save').click()
    await page.getByTestId('features-dialog').waitFor({ state: 'hidden', ...WAIT })

    // read back from the service after a fresh load
    await app.goto(page, 'organizations/org-001')
    await page.locator('.el-tabs__item', { hasText: /^Subscriptions$/ }).click()
    await row.waitFor(WAIT)
    await row.getByTestId('row-actions').click()
    await page.locator('[data-op="organizations.assign_subscription_features"]:visible').click()
    await featureRow(page, 'targets_limit').waitFor(WAIT)
    await expect.poll(() => limitBox(page, 'targets_limit').inputValue(), WAIT).toBe('750')
    expect(await page.getByTestId('feature-changed').count()).toBe(0)
    await page.getByTestId('features-dialog').getByRole('button', { name: 'Cancel' }).click()
    expect(problems, problems.join('\n')).toEqual([])
  })

  it('refuses to delete the default plan and says why', async () => {
    await app.goto(page, 'billing')
    await planRow(page, 'pln-001').getByTestId('plan-actions').click()
    await page.locator('[data-action="delete"]:visible').click()
    await expect
      .poll(() => page.getByTestId('delete-confirm-text').textContent(), WAIT)
      .toBe('Delete the plan “PCI Basic” of PCI ASV Scanning?')
    await page.getByTestId('delete-confirm').click()
    await expect
      .poll(() => page.getByTestId('plan-failure').textContent(), WAIT)
      .toContain('it is the default plan of this product')
    await planRow(page, 'pln-001').waitFor(WAIT)
  })

  it('creates a plan, edits it, makes it the default and back, and deletes it', async () => {
    const formInput = (name: string) =>
      page.locator(`[data-testid="operation-form"] [data-field="${name}"]`).locator('input')
    const byName = (name: string) =>
      page.locator('tr', { has: page.getByTestId('plan-open').filter({ hasText: name }) })
    const act = async (name: string, action: string) => {
      await byName(name).getByTestId('plan-actions').click()
      await page.locator(`[data-action="${action}"]:visible`).click()
    }

    await page.getByTestId('plan-create').click()
    await formInput('name').fill('E2E Gold')
    await formInput('code').fill('e2e_gold')
    await formInput('price').fill('1200')
    await formInput('price').blur()
    await page.getByTestId('operation-form-submit').click()
    await page.getByTestId('operation-form').waitFor({ state: 'hidden', ...WAIT })
    await byName('E2E Gold').waitFor(WAIT)
    expect(await byName('E2E Gold').locator('td').nth(2).textContent()).toContain('USD 1,200.00')

    await act('E2E Gold', 'edit')
    await expect.poll(() => formInput('name').inputValue(), WAIT).toBe('E2E Gold')
    await formInput('name').fill('E2E Platinum')
    await page.getByTestId('operation-form-submit').click()
    await byName('E2E Platinum').waitFor(WAIT)

    await act('E2E Platinum', 'default')
    await expect
      .poll(() => page.getByTestId('product-default-plan').first().textContent(), WAIT)
      .toContain('E2E Platinum')
    await act('E2E Platinum', 'undefault')
    await expect
      .poll(() => page.getByTestId('product-default-plan').first().textContent(), WAIT)
      .toContain('No default plan')
    // the overview of every product says the same
    await page.locator('.el-tabs__item', { hasText: 'Default plans' }).click()
    const pci = page.locator('tr', {
      has: page.locator('[data-testid="default-plan-row"][data-product="pci_scan"]'),
    })
    await expect
      .poll(() => pci.getByTestId('default-plan-name').textContent(), WAIT)
      .toContain('None')
    await page.locator('.el-tabs__item', { hasText: 'PCI ASV Scanning' }).click()

    await act('E2E Platinum', 'delete')
    await expect
      .poll(() => page.getByTestId('delete-confirm-text').textContent(), WAIT)
      .toBe('Delete the plan “E2E Platinum” of PCI ASV Scanning?')
    await page.getByTestId('delete-confirm').click()
    await expect.poll(() => byName('E2E Platinum').count(), WAIT).toBe(0)
    expect(problems, problems.join('\n')).toEqual([])
  })
})
