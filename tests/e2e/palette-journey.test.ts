import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { useDemoJourney, waitForFocus, waitForList } from './harness'

const WAIT = { timeout: 30_000 }
// The demo's 34th target (sandbox/domains/scanning/seed-setup.ts): one of a kind by name.
const TARGET = 'Partner SFTP 3'

/** The palette's field once Ctrl+K opened it. */
async function openPalette(page: Page) {
  await page.keyboard.press('Control+k')
  const input = page.getByTestId('palette-input')
  await input.waitFor(WAIT)
  await waitForFocus(input)
  return input
}

/** The options of one group of the palette (`records:targets`, `recent`, …). */
const optionsOf = (page: Page, group: string) =>
  page.locator(`[data-testid="palette-group"][data-group="${group}"] [role="option"]`)

describe('the command palette, on the demo service', () => {
  const j = useDemoJourney()
  let page: Page
  let problems: string[]
  beforeAll(() => void ({ page, problems } = j))

  it('finds a target by name with Ctrl+K and opens it with Enter', async () => {
    const input = await openPalette(page)
    await input.fill(TARGET)
    const found = optionsOf(page, 'records:targets').filter({ hasText: TARGET })
    await found.waitFor(WAIT)
    // Nothing else matches the name: the target is the first option, under the cursor.
    const id = await found.getAttribute('id')
    expect(await input.getAttribute('aria-activedescendant')).toBe(id)
    expect(await found.getAttribute('aria-selected')).toBe('true')
    await input.press('Enter')
    await page.waitForURL((url) => /^#\/targets\/tgt-\d{3}$/.test(url.hash), WAIT)
    await expect.poll(() => page.getByTestId('resource-title').textContent(), WAIT).toBe(TARGET)
    await expect.poll(() => page.getByTestId('palette-input').isVisible()).toBe(false)
  })

  it('offers the target among the recently opened, moves with the arrows and closes on Esc', async () => {
    const input = await openPalette(page)
    const recent = optionsOf(page, 'recent').filter({ hasText: TARGET })
    await recent.waitFor(WAIT)
    // The arrows walk the list: down then up comes back to the first option.
    const first = await input.getAttribute('aria-activedescendant')
    await input.press('ArrowDown')
    await expect.poll(() => input.getAttribute('aria-activedescendant')).not.toBe(first)
    await input.press('ArrowUp')
    await expect.poll(() => input.getAttribute('aria-activedescendant')).toBe(first)
    await input.press('Escape')
    await expect.poll(() => input.isVisible(), WAIT).toBe(false)
  })

  it('works offline from an action, and then finds the target in the offline copy', async () => {
    let input = await openPalette(page)
    await input.fill('work offline')
    await optionsOf(page, 'actions').filter({ hasText: 'Work offline' }).waitFor(WAIT)
    await input.press('Enter')
    await page.locator('[data-testid="connectivity"][data-state="work-offline"]').waitFor(WAIT)

    input = await openPalette(page)
    await input.fill(TARGET)
    const status = page.getByTestId('palette-status')
    await expect.poll(() => status.textContent(), WAIT).toMatch(/^\s*Offline: records of /)
    const group = page.locator('[data-testid="palette-group"][data-group="records:targets"]')
    await group.locator('[role="option"]', { hasText: TARGET }).waitFor(WAIT)
    expect(await group.getAttribute('data-state')).toBe('ready')
    expect(await group.innerText()).toContain('offline copy')

    await input.fill('work online')
    await optionsOf(page, 'actions').filter({ hasText: 'Work online' }).waitFor(WAIT)
    await input.press('Enter')
    await page.locator('[data-testid="connectivity"][data-state="online"]').waitFor(WAIT)
  })

  it('opens a screen by its name', async () => {
    const input = await openPalette(page)
    await input.fill('vulnerab')
    const screen = optionsOf(page, 'screens').filter({ hasText: 'Vulnerabilities' })
    await screen.waitFor(WAIT)
    await screen.click()
    await waitForList(page, 'vulnerabilities')
    expect(problems).toEqual([])
  })
})
