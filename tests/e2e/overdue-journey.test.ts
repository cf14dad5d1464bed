// Due dates and overdue queues on the demo service (issue 20): set a remediation policy in the
// account's settings, see the dashboard's Overdue panel count per severity under it, click through
// to the filtered list (its total is the panel's count, each row says by how much it is overdue);
// a finding an exception paused is in neither (issue 36 §7).
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  accountAction,
  accountIdByLabel,
  closeSwitcher,
  useDemoJourney,
  waitForList,
  type BrowserMode,
} from './harness'

const WAIT = { timeout: 30_000 }

/** The Overdue panel's count of a severity (its link's text: "12 overdue"). */
async function overdueCount(page: Page, severity: string): Promise<number> {
  const link = page.getByTestId(`overdue-link-${severity}`)
  await link.waitFor(WAIT)
  return Number(/(\d+) overdue/.exec((await link.textContent()) ?? '')?.[1])
}

/** Types a number of days into the policy's field of a severity (saved as it changes). */
async function setDays(page: Page, severity: string, days: number): Promise<void> {
  const input = page.locator(`[data-testid="policy-days-${severity}"] input`)
  await input.fill(String(days))
  await input.press('Tab')
}

describe('due dates and overdue queues, on the demo service', () => {
  const j = useDemoJourney()
  let app: BrowserMode
  let page: Page
  let problems: string[]
  beforeAll(() => void ({ app, page, problems } = j))

  it('sets a policy, counts the overdue findings per severity, and opens them', async () => {
    // Under the default policy the demo has overdue high findings (30 days).
    const panel = page.getByTestId('overdue-panel')
    await panel.waitFor(WAIT)
    await expect
      .poll(() => panel.getByTestId('overdue-row-high').textContent(), WAIT)
      .toContain('30 days')
    const highAt30 = await overdueCount(page, 'high')
    expect(highAt30).toBeGreaterThan(0)

    // An exception in force pauses a finding's clock (the demo's vul-003, critical, first seen
    // months ago): the Overdue list leaves it out, as its Due column would say "Paused", and the
    // panel's count is the list's total (issue 36 §7).
    const critical = await overdueCount(page, 'critical')
    await app.goto(page, 'vulnerabilities?severity=critical&overdue=true&per_page=100')
    const paused = await waitForList(page, 'vulnerabilities')
    await expect
      .poll(() => paused.getByTestId('due-paused-out').textContent(), WAIT)
      .toContain('1 finding of the service')
    await expect
      .poll(() => paused.locator('.el-pagination__total').first().textContent(), WAIT)
      .toBe(`Total ${critical}`)
    expect(await paused.locator('[data-row-id="vul-003"]').count()).toBe(0)
    await expect
      .poll(() => paused.locator('[data-testid="row-overdue"]').count(), WAIT)
      .toBe(critical)
    expect(await paused.getByTestId('row-due').allTextContents()).not.toContain('Paused')

    // A stricter policy for high findings: 7 days.
    const demoId = await accountIdByLabel(page, 'Demo service')
    await accountAction(page, demoId, 'account-settings-open')
    const settings = page.getByTestId('account-settings-dialog')
    await settings.waitFor(WAIT)
    await settings.getByTestId('remediation-policy').waitFor(WAIT)
    await setDays(page, 'high', 7)
    await settings.getByText('Saved.').waitFor(WAIT)
    await page.keyboard.press('Escape')
    await settings.waitFor({ state: 'hidden', ...WAIT })
    await closeSwitcher(page)

    // The dashboard counts under the new policy: at least as many high findings are overdue.
    await app.goto(page, 'dashboard')
    await expect
      .poll(() => page.getByTestId('overdue-row-high').textContent(), WAIT)
      .toContain('7 days')
    const highAt7 = await overdueCount(page, 'high')
    expect(highAt7).toBeGreaterThanOrEqual(highAt30)

    // Its link opens the list of the overdue high findings: the service's total is the count.
    await page.getByTestId('overdue-link-high').click()
    await page.waitForURL(/#\/vulnerabilities\?/, WAIT)
    expect(new URL(page.url().replace('#/', '')).searchParams.get('overdue')).toBe('true')
    const list = await waitForList(page, 'vulnerabilities')
    await expect
      .poll(() => list.locator('.el-pagination__total').first().textContent(), WAIT)
      .toMatch(new RegExp(`\\b${highAt7}\\b`))
    // Every row is a high finding that ScanDesk says is overdue, with its due date.
    const rows = list.locator('tbody tr')
    const shown = await rows.count()
    expect(shown).toBe(Math.min(highAt7, 25))
    // The Overdue column fills once the account's exceptions are in: they are read after the
    // first rows are on screen (an exception may pause a finding's clock).
    await expect.poll(() => list.locator('[data-testid="row-overdue"]').count(), WAIT).toBe(shown)
    const first = await rows.first().innerText()
    expect(first).toMatch(/high/i)
    // The filter shows as chosen, and the column headers say the dates are ScanDesk's.
    await expect.poll(() => list.locator('.due-filter').textContent(), WAIT).toContain('Overdue')
    expect(await list.locator('thead').innerText()).toMatch(/Overdue\s*ScanDesk's/)
    expect(problems).toEqual([])
  })
})
