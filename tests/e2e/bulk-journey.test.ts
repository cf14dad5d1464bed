import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { type BrowserMode, openGroupList, useDemoJourney, waitForList } from './harness'

const WAIT = { timeout: 30_000 }
const REASON = 'Accepted in bulk: lab hosts behind the jump server'

/** The list's search box (the test id lands on Element Plus' inner input). */
const search = (page: Page) =>
  page.locator('input[data-testid="resource-search"], [data-testid="resource-search"] input')

/** A day `days` from today on this computer, as the date field takes it. */
function dayFromToday(days: number): string {
  const d = new Date()
  d.setDate(d.getDate() + days)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

describe('bulk decisions, on the demo service', () => {
  const j = useDemoJourney()
  let app: BrowserMode
  let page: Page
  let problems: string[]
  beforeAll(() => void ({ app, page, problems } = j))

  it('accepts the risk of three findings: three exceptions with that reason', async () => {
    // Informational findings: the demo's own exceptions are on others, so none is skipped.
    await app.goto(page, 'vulnerabilities?severity=info')
    const list = await waitForList(page, 'vulnerabilities')
    const boxes = list.getByTestId('row-select')
    expect(await boxes.count()).toBeGreaterThanOrEqual(3)
    const ids = await Promise.all([0, 1, 2].map((i) => boxes.nth(i).getAttribute('data-id')))
    const titles: string[] = []
    for (const id of ids) {
      const row = list.locator('.el-table__row', {
        has: page.locator(`[data-testid="row-select"][data-id="${id}"]`),
      })
      titles.push(((await row.getByTestId('resource-open').textContent()) ?? '').trim())
      await list.locator(`[data-testid="row-select"][data-id="${id}"]`).click()
    }
    await expect.poll(() => page.getByTestId('bulk-chosen').textContent(), WAIT).toContain('3')

    await page.getByTestId('bulk-accept').click()
    const dialog = page.locator('[data-testid="bulk-exception-dialog"]').filter({ visible: true })
    await dialog.waitFor(WAIT)
    await dialog.locator('textarea').fill(REASON)
    await dialog.locator('input[type="date"]').fill(dayFromToday(30))
    await page.getByTestId('bulk-exception-submit').click()

    await page.waitForURL(/#\/bulk\/[0-9a-f-]{36}$/, WAIT)
    const run = page.locator('section.bulk-run[data-state="finished"]')
    await run.waitFor(WAIT)
    expect(await page.getByTestId('bulk-run-counts').textContent()).toMatch(
      /3 done, 0 skipped, 0 failed\s*— of 3\./,
    )
    const done = page.locator('[data-testid="bulk-item"][data-state="done"]')
    expect((await done.allTextContents()).map((t) => t.trim()).sort()).toEqual([...titles].sort())

    // The service has them: three exceptions with that reason, one per finding.
    const exceptions = await openGroupList(page, 'exceptions')
    await search(page).fill(REASON)
    const rows = exceptions.locator('.el-table__body .el-table__row')
    await expect.poll(() => rows.count(), WAIT).toBe(3)
    await waitForList(page, 'exceptions')
    const named = await exceptions.getByTestId('resource-open').allTextContents()
    expect(named.map((t) => t.trim()).sort()).toEqual([...titles].sort())
    expect(problems).toEqual([])
  })
})
