import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { type BrowserMode, openGroupList, searchList, useDemoJourney, waitForList } from './harness'

const WAIT = { timeout: 30_000 }

/** A number of a chart's table (hidden from sight, read by screen readers). */
async function chartNumber(page: Page, chart: string, key: string): Promise<number> {
  const cell = page.locator(`[data-testid="${chart}-table"] tr[data-key="${key}"] td`)
  await cell.waitFor({ state: 'attached', ...WAIT })
  return Number(await cell.textContent())
}

/** The caption's "(N in all)" of a chart. */
async function chartTotal(page: Page, chart: string): Promise<number> {
  const text = await page.locator(`[data-testid="${chart}"] figcaption`).textContent()
  return Number(/\((\d+) in all\)/.exec(text ?? '')?.[1])
}

/** A day `days` from today on this computer, as the date field takes it. */
function dayFromToday(days: number): string {
  const d = new Date()
  d.setDate(d.getDate() + days)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

describe('excepting a vulnerability, on the demo service', () => {
  const j = useDemoJourney()
  let app: BrowserMode
  let page: Page
  let problems: string[]
  beforeAll(() => void ({ app, page, problems } = j))

  it('drills down from the dashboard chart to the vulnerabilities of one severity', async () => {
    const count = await chartNumber(page, 'vulnerability-total-panel-chart', 'medium')
    expect(count).toBeGreaterThan(0)
    // the table's link is how a keyboard reaches a bar; it shows itself while focused
    const link = page.locator(
      '[data-testid="vulnerability-total-panel-chart-table"] tr[data-key="medium"] a',
    )
    await link.focus()
    await page.keyboard.press('Enter')
    // the link carries the count's own query: its "until" moment and the number counted
    // (issue 36 §2), so the list it opens holds that count or says it has moved since
    await page.waitForURL(
      /#\/vulnerabilities\?severity=medium&first_seen_before=[^&]+&counted=\d+/,
      WAIT,
    )
    const query = new URL(page.url().replace('#/', '')).searchParams
    expect(query.get('counted')).toBe(String(count))
    const list = await waitForList(page, 'vulnerabilities')
    await expect
      .poll(() => list.locator('.el-pagination__total').first().textContent(), WAIT)
      .toBe(`Total ${count}`)
    expect(await list.getByTestId('counted-moved').count()).toBe(0)
    // every row on the page is of that severity
    const rows = list.locator('tbody tr')
    const medium = list.locator('tbody tr', {
      has: page.locator('.el-tag', { hasText: /^\s*medium\s*$/ }),
    })
    expect(await rows.count()).toBeGreaterThan(0)
    expect(await medium.count()).toBe(await rows.count())
    expect(
      await page.locator('[data-testid="resource-filters"] [data-filter="severity"]').textContent(),
    ).toContain('medium')
  })

  it('lists the vulnerabilities of one CVE from the address, the filter shown and set', async () => {
    await app.goto(page, 'vulnerabilities?cve_id=CVE-1999-0497')
    const list = await waitForList(page, 'vulnerabilities')
    const titles = await list.getByTestId('resource-open').allTextContents()
    expect(titles.length).toBeGreaterThan(0)
    expect(new Set(titles.map((t) => t.trim()))).toEqual(new Set(['Anonymous FTP login allowed']))
    expect(
      await page
        .locator('input[data-filter="cve_id"], [data-filter="cve_id"] input')
        .first()
        .inputValue(),
    ).toBe('CVE-1999-0497')
  })

  it('creates an exception with an expiry from a vulnerability, and the statistics count it', async () => {
    await page.locator('[data-testid="nav-group"][data-group="exceptions"]').click()
    await page.getByTestId('exception-statistics').waitFor(WAIT)
    const pendingBefore = await chartNumber(page, 'exception-state-chart', 'pending')
    const totalBefore = await chartTotal(page, 'exception-state-chart')
    // the seeded exception expiring in 10 days is labelled, not only coloured
    await expect
      .poll(() => page.getByTestId('exception-expiring').first().textContent(), WAIT)
      .toMatch(/Expires in \d+ days/)

    await openGroupList(page, 'vulnerabilities')
    const found = await searchList(page, 'vulnerabilities', 'Anonymous FTP')
    const row = found.locator('tbody tr', {
      has: page.locator('[data-testid="resource-row"][data-id="vul-001"]'),
    })
    await row.waitFor(WAIT)
    await row.getByTestId('resource-open').click()
    await expect
      .poll(() => page.getByTestId('resource-title').textContent(), WAIT)
      .toBe('Anonymous FTP login allowed')
    expect(await page.getByTestId('vulnerability-solution').textContent()).toContain(
      'Disable anonymous FTP',
    )
    const reference = page.getByTestId('vulnerability-reference-link').first()
    expect(await reference.getAttribute('href')).toBe(
      'https://nvd.nist.gov/vuln/detail/CVE-1999-0497',
    )
    expect(await reference.getAttribute('target')).toBe('_blank')

    // the release (latest) has the prompt: ask, and see the answer beside the earlier questions
    await page.locator('.el-tabs__item', { hasText: 'Ask' }).click()
    await page.getByTestId('chat-message').first().waitFor(WAIT)
    await page.locator('textarea[data-testid="vulnerability-question"]').fill('How do I fix this?')
    await page.getByTestId('vulnerability-ask-submit').click()
    await expect
      .poll(() => page.getByTestId('vulnerability-answer').textContent(), WAIT)
      .toContain('Recommended fix: Disable anonymous FTP')

    await page.getByTestId('vulnerability-create-exception').click()
    const dialog = page.getByTestId('operation-form')
    await dialog.waitFor(WAIT)
    expect(await page.getByTestId('exception-subject').textContent()).toContain(
      'Anonymous FTP login allowed on 192.0.2.11',
    )
    // a day that is not after today is refused in place, before anything is sent
    await dialog.locator('[data-field="reason"] textarea').fill('Read-only mirror, no data')
    await page.getByTestId('exception-expiry').fill(dayFromToday(0))
    await page.getByTestId('operation-form-submit').click()
    await expect
      .poll(() => dialog.locator('[data-field="expires_at"]').textContent(), WAIT)
      .toContain('Pick a day after today.')

    await page.getByTestId('exception-expiry').fill(dayFromToday(20))
    await page.getByTestId('operation-form-submit').click()
    await dialog.waitFor({ state: 'hidden', ...WAIT })

    await page.locator('[data-testid="nav-group"][data-group="exceptions"]').click()
    await page.getByTestId('exception-statistics').waitFor(WAIT)
    await expect
      .poll(() => chartNumber(page, 'exception-state-chart', 'pending'), WAIT)
      .toBe(pendingBefore + 1)
    expect(await chartTotal(page, 'exception-state-chart')).toBe(totalBefore + 1)
    const created = page.locator('tbody tr', { hasText: 'Anonymous FTP login allowed' })
    await created.first().waitFor(WAIT)
    expect(await created.first().textContent()).toMatch(/pending/i)
    expect(await created.first().getByTestId('exception-expiring').textContent()).toMatch(
      /Expires in 20 days/,
    )
    expect(problems, problems.join('\n')).toEqual([])
  })
})
