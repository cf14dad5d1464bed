import fs from 'node:fs'
import path from 'node:path'
import Papa from 'papaparse'
import type { Locator, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  type BrowserMode,
  openGroupList,
  searchBox,
  useDemoJourney,
  useTempFolder,
  waitForList,
} from './harness'

const WAIT = { timeout: 30_000 }
const REASON = 'Accepted in bulk: lab hosts behind the jump server'

/** The check box of the row with this id (the table's selection column). */
const boxOf = (list: Locator, id: string) =>
  list
    .locator('tbody tr', {
      has: list.page().locator(`[data-testid="resource-row"][data-id="${id}"]`),
    })
    .getByRole('checkbox')

/** The header's check box: every row on screen. */
const pageBox = (list: Locator) =>
  list.getByRole('checkbox', { name: 'Select every row on this page' })

/** A day `days` from today on this computer, as the date field takes it. */
function dayFromToday(days: number): string {
  const d = new Date()
  d.setDate(d.getDate() + days)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

describe('bulk decisions, on the demo service', () => {
  const folder = useTempFolder('scandesk-bulk-e2e-')
  const j = useDemoJourney()
  let app: BrowserMode
  let page: Page
  let problems: string[]
  beforeAll(() => void ({ app, page, problems } = j))

  it('accepts the risk of three findings: three exceptions with that reason', async () => {
    // Informational findings: the demo's own exceptions are on others, so none is skipped.
    await app.goto(page, 'vulnerabilities?severity=info')
    const list = await waitForList(page, 'vulnerabilities')
    const marks = list.getByTestId('resource-row')
    expect(await marks.count()).toBeGreaterThanOrEqual(3)
    const ids = await Promise.all([0, 1, 2].map((i) => marks.nth(i).getAttribute('data-id')))
    const titles: string[] = []
    for (const id of ids) {
      const row = list.locator('tbody tr', {
        has: page.locator(`[data-testid="resource-row"][data-id="${id}"]`),
      })
      titles.push(((await row.getByTestId('resource-open').textContent()) ?? '').trim())
      await boxOf(list, id!).click()
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
    // The writes on screen are read again once the run ends: the three rows say done after it.
    const done = page.locator('[data-testid="bulk-item"][data-state="done"]')
    await expect.poll(() => done.count(), WAIT).toBe(3)
    expect((await done.allTextContents()).map((t) => t.trim()).sort()).toEqual([...titles].sort())

    // The service has them: three exceptions with that reason, one per finding.
    const exceptions = await openGroupList(page, 'exceptions')
    await searchBox(page).fill(REASON)
    const rows = exceptions.locator('tbody tr')
    await expect.poll(() => rows.count(), WAIT).toBe(3)
    await waitForList(page, 'exceptions')
    const named = await exceptions.getByTestId('resource-open').allTextContents()
    expect(named.map((t) => t.trim()).sort()).toEqual([...titles].sort())
    expect(problems).toEqual([])
  })

  it('renews and then activates the three in bulk from the Exceptions list', async () => {
    // Still the list of the three with that reason (the search is kept by the list).
    const list = await waitForList(page, 'exceptions')
    const rows = list.locator('tbody tr')
    expect(await rows.count()).toBe(3)
    await pageBox(list).click()
    await expect.poll(() => page.getByTestId('bulk-chosen').textContent(), WAIT).toContain('3')

    await page.getByTestId('bulk-renew').click()
    const dialog = page.locator('[data-testid="bulk-renew-dialog"]').filter({ visible: true })
    await dialog.waitFor(WAIT)
    await dialog.locator('input[type="date"]').fill(dayFromToday(90))
    await page.getByTestId('bulk-renew-submit').click()
    await page.waitForURL(/#\/bulk\/[0-9a-f-]{36}$/, WAIT)
    await page.locator('section.bulk-run[data-state="finished"]').waitFor(WAIT)
    expect(await page.getByTestId('bulk-run-counts').textContent()).toMatch(/3 done, 0 skipped/)

    const again = await openGroupList(page, 'exceptions')
    await searchBox(page).fill(REASON)
    await expect.poll(() => again.locator('tbody tr').count(), WAIT).toBe(3)
    await waitForList(page, 'exceptions')
    await pageBox(again).click()
    await page.getByTestId('bulk-activate').click()
    await page.waitForURL(/#\/bulk\/[0-9a-f-]{36}$/, WAIT)
    await page.locator('section.bulk-run[data-state="finished"]').waitFor(WAIT)
    expect(await page.getByTestId('bulk-run-counts').textContent()).toMatch(/3 done, 0 skipped/)

    // Each is active now, until the new day.
    const active = await openGroupList(page, 'exceptions')
    await searchBox(page).fill(REASON)
    const activeRows = active.locator('tbody tr', {
      has: page.locator('.el-tag', { hasText: /^\s*active\s*$/ }),
    })
    await expect.poll(() => activeRows.count(), WAIT).toBe(3)
    expect(problems).toEqual([])
  })

  it('lists the runs made, newest first, each opening its result', async () => {
    await page.getByTestId('nav-bulk-runs').click()
    const runs = page.getByTestId('bulk-runs').locator('.el-table__body .el-table__row')
    await expect
      .poll(() => runs.allTextContents(), WAIT)
      .toEqual([
        expect.stringMatching(/Activate exceptions.*3 done, 0 skipped, 0 failed\s*of 3/s),
        expect.stringMatching(/Renew exceptions.*3 done, 0 skipped, 0 failed\s*of 3/s),
        expect.stringMatching(
          new RegExp(`Create exceptions.*${REASON}.*3 done, 0 skipped, 0 failed\\s*of 3`, 's'),
        ),
      ])
    await runs.nth(2).getByTestId('bulk-runs-open').click()
    await page.waitForURL(/#\/bulk\/[0-9a-f-]{36}$/, WAIT)
    await page.locator('section.bulk-run[data-state="finished"]').waitFor(WAIT)
    expect(await page.getByTestId('bulk-run-reason').textContent()).toContain(REASON)
    await expect
      .poll(() => page.locator('[data-testid="bulk-item"][data-state="done"]').count(), WAIT)
      .toBe(3)
    expect(problems).toEqual([])
  })

  it('exports a filtered vulnerabilities list as CSV: every finding of the filter', async () => {
    await app.goto(page, 'vulnerabilities?severity=high')
    const list = await waitForList(page, 'vulnerabilities')
    const total = Number(
      /(\d+)/.exec((await list.locator('.el-pagination__total').first().textContent()) ?? '')?.[1],
    )
    expect(total).toBeGreaterThan(0)
    const shown = (await list.getByTestId('resource-open').allTextContents()).map((t) => t.trim())

    await list.getByTestId('csv-export').click()
    const input = page.locator(
      'input[data-testid="csv-path-input"], [data-testid="csv-path-input"] input',
    )
    await input.waitFor(WAIT)
    expect(await input.inputValue()).toMatch(/Vulnerabilities - .+ - \d{4}-\d{2}-\d{2}\.csv$/)
    const target = path.join(folder.path, 'high.csv')
    await input.fill(target)
    await page.getByTestId('csv-path-save').click()
    await page.getByTestId('csv-saved').waitFor(WAIT)
    const rows = Papa.parse<Record<string, string>>(fs.readFileSync(target, 'utf8'), {
      header: true,
      skipEmptyLines: true,
    }).data
    expect(rows).toHaveLength(total)
    expect(new Set(rows.map((r) => r.severity))).toEqual(new Set(['high']))
    for (const title of shown) expect(rows.map((r) => r.title)).toContain(title)
    expect(problems).toEqual([])
  })
})
