// Issue 19, lists that remember and keyboard triage, end to end in Chromium on the demo: a
// severity chosen in the list's control stays after opening a finding and going Back, and after a
// reload.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chooseOption, field, openGroupList, useDemoJourney, waitForList } from './harness'

const WAIT = { timeout: 30_000 }

const rows = (page: Page) =>
  page.locator('.resource-table[data-resource="vulnerabilities"] tbody tr')
const severityFilter = (page: Page) =>
  page.locator('[data-testid="resource-filters"] [data-filter="severity"]')

/**
 * The fill and words of the first row's severity tag, and the page's colours of `severity` and of
 * words on it (its theme's `--sd-severity-*`), all as Chromium computes them.
 */
const tagColours = (page: Page, severity: string) =>
  page.evaluate(`(() => {
    const colour = (value) => {
      const probe = document.createElement('span')
      probe.style.color = value
      document.body.append(probe)
      const computed = getComputedStyle(probe).color
      probe.remove()
      return computed
    }
    const tag = getComputedStyle(document.querySelector(
      '.resource-table[data-resource="vulnerabilities"] tbody tr [data-column="severity"] .el-tag'))
    return {
      tag: [tag.backgroundColor, tag.color],
      theme: [colour('var(--sd-severity-${severity})'), colour('var(--sd-severity-text)')],
    }
  })()`) as Promise<{ tag: string[]; theme: string[] }>

/** Every row of the list on screen shows this severity (and there is at least one). */
async function allRowsAre(page: Page, severity: string): Promise<void> {
  const matching = page.locator('.resource-table[data-resource="vulnerabilities"] tbody tr', {
    has: page.locator('.el-tag', { hasText: new RegExp(`^\\s*${severity}\\s*$`) }),
  })
  await expect
    .poll(async () => {
      const all = await rows(page).count()
      return all > 0 && all === (await matching.count())
    }, WAIT)
    .toBe(true)
}

describe('lists that remember, on the demo service', () => {
  const j = useDemoJourney()
  let page: Page
  beforeAll(() => void ({ page } = j))
  // where the views file goes (browser mode takes a typed path inside the temp folder)
  const folder = mkdtempSync(join(tmpdir(), 'scandesk-views-e2e-'))
  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  it('keeps a severity chosen in the control after a finding and Back, and after a reload', async () => {
    await openGroupList(page, 'vulnerabilities')
    await chooseOption(severityFilter(page), /^\s*high\s*$/)
    await page.waitForURL(/#\/vulnerabilities\?severity=high$/, WAIT)
    await waitForList(page, 'vulnerabilities')
    await allRowsAre(page, 'high')
    // the tag is filled with its severity's colour (app.css' rule), its words readable on it
    const colours = await tagColours(page, 'high')
    expect(colours.tag).toEqual(colours.theme)
    expect(colours.tag[0]).not.toBe('rgba(0, 0, 0, 0)')

    const first = rows(page).first().getByTestId('resource-open')
    const title = (await first.textContent())!.trim()
    await first.click()
    await page.waitForURL(/#\/vulnerabilities\/[^?/]+$/, WAIT)
    await expect.poll(() => page.getByTestId('resource-title').textContent(), WAIT).toBe(title)

    await page.goBack()
    await page.waitForURL(/#\/vulnerabilities\?severity=high$/, WAIT)
    await waitForList(page, 'vulnerabilities')
    await allRowsAre(page, 'high')
    expect(await severityFilter(page).textContent()).toContain('high')

    await page.reload()
    await page.waitForURL(/#\/vulnerabilities\?severity=high$/, WAIT)
    await waitForList(page, 'vulnerabilities')
    await allRowsAre(page, 'high')
    expect(await severityFilter(page).textContent()).toContain('high')
  })

  it('opens the second finding with j j Enter, the next with n, and shows the shortcuts with ?', async () => {
    await openGroupList(page, 'vulnerabilities')
    const ids = await page
      .locator('.resource-table[data-resource="vulnerabilities"] [data-testid="resource-row"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-id')))
    expect(ids.length).toBeGreaterThan(2)
    await page.keyboard.press('j')
    await page.keyboard.press('j')
    await expect
      .poll(
        () =>
          page
            .locator('tbody tr[aria-current="true"] [data-testid="resource-row"]')
            .getAttribute('data-id'),
        WAIT,
      )
      .toBe(ids[1])
    await page.keyboard.press('Enter')
    await page.waitForURL(new RegExp(`#/vulnerabilities/${ids[1]}$`), WAIT)
    await page.getByTestId('resource-title').waitFor(WAIT)

    await page.keyboard.press('n')
    await page.waitForURL(new RegExp(`#/vulnerabilities/${ids[2]}$`), WAIT)
    await page.keyboard.press('p')
    await page.waitForURL(new RegExp(`#/vulnerabilities/${ids[1]}$`), WAIT)

    await page.keyboard.press('?')
    const help = page.locator('[data-testid="shortcuts-help"]')
    await help.waitFor(WAIT)
    expect(await help.textContent()).toContain('Open the next record of the list it came from')
    await page.keyboard.press('Escape')
    await help.waitFor({ state: 'hidden', ...WAIT })
  })

  it('saves the list as a view, which survives a reload and opens from the sidebar', async () => {
    await j.app.goto(page, 'vulnerabilities?severity=medium')
    await waitForList(page, 'vulnerabilities')
    await allRowsAre(page, 'medium')
    await page.getByTestId('views-open').click()
    await page.getByTestId('view-save').filter({ visible: true }).click()
    const dialog = page.locator('[data-testid="view-name-dialog"]').filter({ visible: true })
    const name = field(page, 'view-name-input')
    await name.waitFor(WAIT)
    // Esc cancels (the kit's dialog keys); the menu opens it again.
    await name.pressSequentially('Discarded')
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden', ...WAIT })
    await page.getByTestId('views-open').click()
    await page.getByTestId('view-save').filter({ visible: true }).click()
    await dialog.locator('[data-held=""]').waitFor(WAIT)
    expect(await name.inputValue()).toBe('')
    await name.pressSequentially('Medium fi')
    // A reload with the dialog open finds it as it was: the name typed so far.
    await dialog.locator('[data-held="Medium fi"]').waitFor(WAIT)
    await page.reload()
    await waitForList(page, 'vulnerabilities')
    await name.waitFor(WAIT)
    expect(await name.inputValue()).toBe('Medium fi')
    await name.focus()
    await page.keyboard.press('End')
    await page.keyboard.type('ndings')
    // Enter saves (the kit's dialog keys): no click needed.
    await page.keyboard.press('Enter')
    await dialog.waitFor({ state: 'hidden', ...WAIT })
    await page.waitForURL(/#\/vulnerabilities\?severity=medium&view=view-/, WAIT)
    const entry = page.locator('[data-testid="nav-view"]', { hasText: 'Medium findings' })
    await entry.waitFor(WAIT)

    await page.reload()
    await page.getByTestId('nav-dashboard').click()
    await page.waitForURL(/#\/dashboard$/, WAIT)
    await entry.click()
    await page.waitForURL(/#\/vulnerabilities\?severity=medium&view=view-/, WAIT)
    await waitForList(page, 'vulnerabilities')
    await allRowsAre(page, 'medium')
    await expect
      .poll(() => page.getByTestId('views-open').textContent(), WAIT)
      .toContain('View: Medium findings')
  })

  it('exports the views to a file and imports them back after deleting one', async () => {
    await openGroupList(page, 'vulnerabilities')
    await page.getByTestId('views-open').click()
    await page.getByTestId('view-manage').filter({ visible: true }).click()
    const dialog = page.locator('[data-testid="saved-views-dialog"]')
    await dialog.waitFor(WAIT)
    // browser mode: main suggests a path, the user confirms it
    await dialog.getByTestId('views-export').click()
    // the test id lands on Element Plus' inner input
    const pathInput = dialog.locator(
      'input[data-testid="views-file-path"], [data-testid="views-file-path"] input',
    )
    await pathInput.waitFor(WAIT)
    expect(await pathInput.inputValue()).toMatch(/Saved views - .+\.json$/)
    const file = join(folder, 'views.json')
    await pathInput.fill(file)
    await dialog.getByTestId('views-file-go').click()
    await page.locator('.el-message', { hasText: `Saved 1 views to ${file}` }).waitFor(WAIT)
    expect(JSON.parse(readFileSync(file, 'utf8')).views).toEqual([
      expect.objectContaining({ name: 'Medium findings', query: { severity: 'medium' } }),
    ])

    await dialog.getByTestId('view-delete').first().click()
    await page.getByTestId('confirm').filter({ visible: true }).click()
    const entry = page.locator('[data-testid="nav-view"]', { hasText: 'Medium findings' })
    await entry.waitFor({ state: 'detached', ...WAIT })

    await dialog.getByTestId('views-import').click()
    await pathInput.waitFor(WAIT)
    await pathInput.fill(file)
    await dialog.getByTestId('views-file-go').click()
    await page.locator('.el-message', { hasText: 'Imported 1 view.' }).waitFor(WAIT)
    await entry.waitFor(WAIT)
  })
})
