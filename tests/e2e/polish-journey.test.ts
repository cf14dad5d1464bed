// Issue 21, item 4, end to end in Chromium on the demo service: the wizard's When step says what
// is missing under an empty First run, and its time zone starts at the user's profile zone (the
// demo user's Europe/Amsterdam) rather than the browser's (Asia/Tokyo here) or UTC. Issue 36
// §10 and §18, what only a real layout shows: at 1440 px the vulnerabilities' titles take one or
// two lines (four before), and the largest download's value shows whole ("4.00(" before).
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { field, useDemoJourney, waitForFocus, waitForList, watchPage } from './harness'

const WAIT = { timeout: 30_000 }

const step = (page: Page) => page.locator('.scan-wizard__body').getAttribute('data-step')

async function text(locator: ReturnType<Page['locator']>): Promise<string> {
  return (await locator.first().innerText()).replace(/\s+/g, ' ').trim()
}

describe('the wizard’s When step on the demo service (issue 21)', () => {
  const j = useDemoJourney()
  let page: Page
  let problems: string[]
  beforeAll(async () => {
    // A browser in another time zone than the demo user's profile.
    const context = await j.browser.newContext({ timezoneId: 'Asia/Tokyo' })
    page = await context.newPage()
    problems = watchPage(page)
    await j.app.open(page)
  })
  afterAll(async () => {
    await page?.context().close()
  })

  it('names the empty First run and starts in the profile’s time zone', async () => {
    expect(await page.evaluate('Intl.DateTimeFormat().resolvedOptions().timeZone')).toBe(
      'Asia/Tokyo',
    )
    await j.app.goto(page, 'scans/new')
    await page.locator('.scan-wizard__body').waitFor(WAIT)
    if ((await step(page)) !== '0') await page.getByTestId('scan-wizard-start-over').click()
    await expect.poll(() => step(page), WAIT).toBe('0')

    await field(page, 'wizard-name').fill('E2E polish')
    await page.getByTestId('wizard-profile-full_and_fast').click()
    await page.getByTestId('scan-wizard-next').click()
    await expect.poll(() => step(page), WAIT).toBe('1')
    await page
      .locator('textarea[data-testid="wizard-hosts"], [data-testid="wizard-hosts"] textarea')
      .fill('192.0.2.10')
    await page.getByTestId('scan-wizard-next').click()
    await expect.poll(() => step(page), WAIT).toBe('2')
    await page.getByTestId('scan-wizard-next').click()
    await expect.poll(() => step(page), WAIT).toBe('3')

    await page.getByTestId('wizard-start-scheduled').click()
    await page.getByTestId('schedule-editor').waitFor(WAIT)
    await expect
      .poll(() => text(page.getByTestId('schedule-time-zone')), WAIT)
      .toBe('Europe/Amsterdam')

    // Next with no First run: the step stays, says so under the field and puts the caret there.
    await page.getByTestId('scan-wizard-next').click()
    const firstRun = page.locator('[data-testid="schedule-editor"] [data-field="start_at"]')
    await expect
      .poll(() => firstRun.locator('.el-form-item__error').innerText(), WAIT)
      .toBe('Choose the date and time of the first run.')
    await waitForFocus(firstRun.locator('input'))
    expect(await step(page)).toBe('3')
    expect(problems, problems.join('\n')).toEqual([])
  })

  it('lays the vulnerabilities’ titles on at most two lines and shows the largest download whole at 1440 px', async () => {
    const demo = j.page
    await demo.setViewportSize({ width: 1440, height: 900 })
    await j.app.goto(demo, 'vulnerabilities')
    const list = await waitForList(demo, 'vulnerabilities')
    const titles = list.locator('tbody td[data-column="title"] a')
    await expect.poll(() => titles.count(), WAIT).toBeGreaterThan(10)
    // each link's own height in lines of its cell (the row is as tall as its tallest cell)
    type Link = {
      textContent: string | null
      getBoundingClientRect(): { height: number }
      closest(selector: string): unknown
    }
    const lines = await titles.evaluateAll((links: Link[]) => {
      const style = (
        globalThis as unknown as {
          getComputedStyle(el: unknown): { lineHeight: string }
        }
      ).getComputedStyle
      return links.map((a) => {
        const line = parseFloat(style(a.closest('td')).lineHeight)
        return [a.textContent?.trim() ?? '', Math.round(a.getBoundingClientRect().height / line)]
      }) as [string, number][]
    })
    expect(
      lines.filter(([, n]) => n > 2),
      JSON.stringify(lines),
    ).toEqual([])
    expect(lines.map(([t]) => t)).toContain('Apache Log4j remote code execution (Log4Shell)')

    await demo.getByTestId('download-settings-button').click()
    const limit = demo.locator(
      'input[data-testid="settings-max-download"], [data-testid="settings-max-download"] input',
    )
    await expect.poll(() => limit.inputValue(), WAIT).toBe('4.000')
    const fits = await limit.evaluate(
      (input: { scrollWidth: number; clientWidth: number }) =>
        input.scrollWidth <= input.clientWidth,
    )
    expect(fits).toBe(true)
    await demo.keyboard.press('Escape')
    expect(j.problems, j.problems.join('\n')).toEqual([])
  })
})
