import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { startSandbox } from '../../sandbox/server'
import {
  accountIdByLabel,
  addAccountThroughUi,
  closeSwitcher,
  openGroupList,
  openSwitcher,
  searchList,
  useDemoJourney,
  waitForFocus,
  waitForList,
} from './harness'

const WAIT = { timeout: 30_000 }

/** An input of the open operation form, by its field name. */
const formInput = (page: Page, name: string) =>
  page.locator(`[data-testid="operation-form"] [data-field="${name}"]`).locator('input, textarea')

describe('the generic resource screens, on the demo service', () => {
  const j = useDemoJourney()
  let page: Page
  let problems: string[]
  beforeAll(() => void ({ page, problems } = j))

  it('creates a target after refusing a bad address in place, then edits and deletes it', async () => {
    await openGroupList(page, 'targets')

    await page.getByTestId('resource-create').click()
    await formInput(page, 'name').fill('E2E gateway')
    await formInput(page, 'address').fill('not an address!')
    await page.getByTestId('operation-form-submit').click()
    const addressItem = page.locator('[data-testid="operation-form"] [data-field="address"]')
    await expect
      .poll(() => addressItem.textContent())
      .toContain('Give one address, range or host name per entry')
    // the caret went back to the field in error
    await waitForFocus(formInput(page, 'address'), 5_000)

    await formInput(page, 'address').fill('198.51.100.200')
    await formInput(page, 'description').fill('Created by the end-to-end journey')
    await page.getByTestId('operation-form-submit').click()
    await page.getByTestId('operation-form').waitFor({ state: 'hidden', ...WAIT })

    // the list was refreshed by the write: search finds the new target on the service
    const searched = await searchList(page, 'targets', 'E2E gateway')
    const link = searched.getByTestId('resource-open').filter({ hasText: 'E2E gateway' })
    await link.waitFor(WAIT)
    await link.click()
    await expect
      .poll(() => page.getByTestId('resource-title').textContent(), WAIT)
      .toBe('E2E gateway')
    await expect
      .poll(() => page.locator('[data-attr="address"]').textContent())
      .toBe('198.51.100.200')

    await page.getByTestId('resource-edit').click()
    await formInput(page, 'description').fill('Edited by the journey')
    await page.getByTestId('operation-form-submit').click()
    await expect
      .poll(() => page.locator('[data-attr="description"]').textContent(), WAIT)
      .toBe('Edited by the journey')

    await page.getByTestId('resource-delete').click()
    await expect
      .poll(() => page.getByTestId('delete-confirm-text').textContent())
      .toBe('Delete “E2E gateway”?')
    expect(await page.getByTestId('confirm-where').textContent()).toContain('Demo')
    await page.getByTestId('delete-confirm').click()
    await waitForList(page, 'targets')
    const targets = await searchList(page, 'targets', 'E2E gateway')
    await expect
      .poll(() => targets.locator('[data-testid="table-empty"]').textContent(), WAIT)
      .toContain('No targets')
  })

  it('follows a scan to its hosts and offers no writes where the user may only read', async () => {
    const scans = await openGroupList(page, 'scans')
    await scans.getByTestId('resource-open').first().click()
    await page.getByTestId('resource-detail').waitFor(WAIT)
    await page.locator('.el-tabs__item', { hasText: 'Hosts' }).click()
    await waitForList(page, 'hosts')

    // the demo administrator may change scanners
    const demoScanners = await openGroupList(page, 'scanners')
    expect(await demoScanners.getByTestId('resource-open').count()).toBeGreaterThan(0)
    expect(await demoScanners.getByTestId('resource-create').count()).toBe(1)

    // an analyst (an account of its own) reads scanners but may not change them
    const sandbox = await startSandbox({ port: 0, log: () => {} })
    try {
      await openSwitcher(page)
      await addAccountThroughUi(page, {
        baseUrl: sandbox.baseUrl,
        apiKey: sandbox.apiKey,
        username: 'analyst@sandbox.test',
        password: 'sandbox-password',
        label: 'Analyst',
      })
      const analyst = await accountIdByLabel(page, 'Analyst')
      await closeSwitcher(page)
      // the analyst's own list, final (rows in, permissions read): not the demo's still on screen
      const scanners = await openGroupList(page, 'scanners', { account: analyst })
      expect(await scanners.getByTestId('resource-open').count()).toBeGreaterThan(0)
      expect(await scanners.getByTestId('resource-create').count()).toBe(0)
      expect(await scanners.getByTestId('resource-delete').count()).toBe(0)
    } finally {
      await sandbox.close()
    }
    expect(problems, problems.join('\n')).toEqual([])
  })
})
