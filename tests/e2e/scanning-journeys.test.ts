// Issue 8's end-to-end proofs on the demo service: a quick scan from one field to a finished scan
// with vulnerabilities, the guided wizard with a weekly schedule whose next dates the service
// computes, and bad host lines refused in place with nothing created.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { chooseOption, field, useDemoJourney, waitForFocus, waitForList } from './harness'

const WAIT = { timeout: 30_000 }

/** The wizard's hosts textarea (Element Plus hands the test id on to the textarea). */
const hostsArea = (page: Page) =>
  page.locator('textarea[data-testid="wizard-hosts"], [data-testid="wizard-hosts"] textarea')

/** Moves to another screen inside the app (a hash change, as the sidebar's links do). */
async function goToScreen(page: Page, hash: string): Promise<void> {
  await page.evaluate(`location.hash = ${JSON.stringify(hash)}`)
  await expect.poll(() => new URL(page.url()).hash, WAIT).toBe(hash)
}

/** The scans list's total ("Total 18") once the list has loaded. */
async function scansTotal(page: Page): Promise<number> {
  await goToScreen(page, '#/scans')
  const list = await waitForList(page, 'scans')
  const total = list.locator('[data-testid="resource-pager"] .el-pagination__total')
  await expect.poll(() => total.textContent(), WAIT).toMatch(/\d/)
  return Number(/(\d[\d,]*)/.exec((await total.textContent()) ?? '')![1].replace(/,/g, ''))
}

/** Opens the wizard from the scans list's one New button ("New scan…"), on a blank first step. */
async function openWizard(page: Page): Promise<void> {
  await goToScreen(page, '#/scans')
  await (await waitForList(page, 'scans')).getByTestId('resource-create').click()
  await page.locator('.scan-wizard__body').waitFor(WAIT)
  if ((await page.locator('.scan-wizard__body').getAttribute('data-step')) !== '0')
    await page.getByTestId('scan-wizard-start-over').click()
  await expect.poll(() => page.locator('.scan-wizard__body').getAttribute('data-step')).toBe('0')
}

/** Fills step 1 (name, the Full and fast profile) and moves to step 2. */
async function fillWhat(page: Page, name: string): Promise<void> {
  await field(page, 'wizard-name').fill(name)
  await page.getByTestId('wizard-profile-full_and_fast').click()
  await page.getByTestId('scan-wizard-next').click()
  await expect
    .poll(() => page.locator('.scan-wizard__body').getAttribute('data-step'), WAIT)
    .toBe('1')
}

describe('scanning on the demo service (issue 8)', () => {
  const j = useDemoJourney({ env: { SCANDESK_DEMO_SCAN_MS: '6000' } })
  let page: Page
  let problems: string[]
  beforeAll(() => void ({ page, problems } = j))

  it('runs a quick scan from one field to a finished scan with vulnerabilities', async () => {
    const hosts = field(page, 'quick-scan-hosts')
    await hosts.fill('192.0.2.0/28')
    await expect
      .poll(() => page.getByTestId('quick-scan-summary').textContent(), WAIT)
      .toContain('Creates target “192.0.2.0/28”')
    await expect
      .poll(() => page.getByTestId('quick-scan-count').textContent(), WAIT)
      .toContain('This covers 14 hosts.')

    await page.getByTestId('quick-scan-submit').click()
    await page.getByTestId('quick-scan-confirm').waitFor(WAIT)
    expect(await page.getByTestId('quick-scan-confirm-text').textContent()).toContain(
      'Creates target “192.0.2.0/28”',
    )
    expect(await page.getByTestId('confirm-where').textContent()).toContain('Demo service')
    await page.getByTestId('quick-scan-confirm').click()

    const link = page.getByTestId('quick-scan-result-link')
    await link.waitFor(WAIT)
    expect(await link.textContent()).toContain('Quick scan 192.0.2.0/28')
    expect(await page.getByTestId('quick-scan-result-status').textContent()).toMatch(
      /queued|running/,
    )
    await link.click()

    await expect
      .poll(() => page.getByTestId('resource-title').textContent(), WAIT)
      .toContain('Quick scan 192.0.2.0/28')
    // live polling follows the run (6 s of sandbox clock) to its end
    await expect
      .poll(() => page.getByTestId('scan-status').textContent(), { timeout: 45_000 })
      .toMatch(/completed/)
    await expect
      .poll(async () => Number(await page.getByTestId('stat-findings').textContent()), WAIT)
      .toBeGreaterThan(0)
    expect(Number(await page.getByTestId('stat-hosts').textContent())).toBeGreaterThan(0)
    expect(problems, problems.join('\n')).toEqual([])
  })

  it('creates a scan through the wizard with a weekly Berlin schedule whose next runs are shown', async () => {
    await openWizard(page)
    await fillWhat(page, 'E2E weekly perimeter')

    await hostsArea(page).fill('198.51.100.0/29\nscan.example.com')
    await expect
      .poll(() => page.getByTestId('wizard-host-count').textContent(), WAIT)
      .toContain('These entries cover 7 hosts')
    await page.getByTestId('scan-wizard-next').click()
    await expect.poll(() => page.locator('.scan-wizard__body').getAttribute('data-step')).toBe('2')
    await page.getByTestId('scan-wizard-next').click() // the service chooses the scanner
    await expect.poll(() => page.locator('.scan-wizard__body').getAttribute('data-step')).toBe('3')

    await page.getByTestId('wizard-start-scheduled').click()
    await page.getByTestId('schedule-editor').waitFor(WAIT)
    await chooseOption(page.getByTestId('schedule-frequency'), /^Every week$/)
    // the date picker keeps its test id off the input: the form item names the field
    const start = page.locator('[data-testid="schedule-editor"] [data-field="start_at"] input')
    await start.fill('2030-03-25 09:00')
    await start.press('Enter')
    await page.keyboard.press('Escape')
    await chooseOption(page.getByTestId('schedule-time-zone'), /^Europe\/Berlin$/, 'Europe/Berl')

    await expect
      .poll(() => page.getByTestId('schedule-summary').textContent(), WAIT)
      .toContain('Every Monday at 09:00 Europe/Berlin, from 25 March 2030')
    await expect
      .poll(() => page.getByTestId('schedule-first').textContent(), WAIT)
      .toContain('Mon 25 Mar 2030, 09:00 (UTC+01:00)')
    const runs = page.locator('[data-testid="schedule-next"] li')
    await expect.poll(() => runs.count(), WAIT).toBeGreaterThanOrEqual(3)
    const texts = await runs.allTextContents()
    // each a Monday at 09:00 Berlin time, a week apart (across the change to summer time)
    const days = texts.map((t) => {
      const m = /^Mon (\d+) (\w{3}) (\d{4}), 09:00 \(UTC\+0[12]:00\)$/.exec(t.trim())
      expect(m, t).not.toBeNull()
      return Date.parse(`${m![1]} ${m![2]} ${m![3]} UTC`)
    })
    for (let i = 1; i < days.length; i++) expect(days[i] - days[i - 1]).toBe(7 * 86_400_000)
    expect(texts.some((t) => t.includes('(UTC+02:00)'))).toBe(true)

    await page.getByTestId('scan-wizard-next').click()
    await expect.poll(() => page.locator('.scan-wizard__body').getAttribute('data-step')).toBe('4')
    const review = (await page.getByTestId('wizard-review-summary').innerText()).replace(
      /\s+/g,
      ' ',
    )
    expect(review).toContain('E2E weekly perimeter')
    expect(review).toContain('Every Monday at 09:00 Europe/Berlin')
    expect(await page.getByTestId('wizard-review-where').textContent()).toContain('Demo service')

    await page.getByTestId('wizard-save').click()
    await expect
      .poll(() => page.getByTestId('resource-title').textContent(), WAIT)
      .toBe('E2E weekly perimeter')
    expect(new URL(page.url()).hash).toMatch(/^#\/scans\/[^/]+$/)
    expect(problems, problems.join('\n')).toEqual([])
  })

  it('refuses 10.0.0.0/0, 999.1.1.1 and a..b in the wizard, each with its reason, creating nothing', async () => {
    const before = await scansTotal(page)
    await openWizard(page)
    await fillWhat(page, 'E2E bad hosts')

    await hostsArea(page).fill('10.0.0.0/0\n999.1.1.1\na..b')
    const line = (n: number) => page.locator(`[data-testid="wizard-host-lines"] [data-line="${n}"]`)
    await expect
      .poll(() => line(1).textContent(), WAIT)
      .toContain('A /0 range covers every address')
    await expect.poll(() => line(2).textContent()).toContain('999 is not an octet (0–255)')
    await expect.poll(() => line(3).textContent()).toContain('has an empty label')
    for (const n of [1, 2, 3]) expect(await line(n).getAttribute('class')).toContain('problem')

    await page.getByTestId('scan-wizard-next').click()
    // the step was checked and refused: the caret is back in the field in error
    await waitForFocus(hostsArea(page))
    expect(await page.locator('.scan-wizard__body').getAttribute('data-step')).toBe('1')

    await page.getByTestId('scan-wizard-start-over').click()
    expect(await scansTotal(page)).toBe(before)
    expect(problems, problems.join('\n')).toEqual([])
  })
})
