// Issue 36 §4 and §8, end to end in Chromium on the demo with no keychain at all (browser mode's
// D-Bus address points nowhere, as on a machine without gnome-keyring): a saved view is kept for
// the session and says so when it is saved, and is still there after a reload; a bulk decision is
// made (not refused), says at once that its run is kept until ScanDesk closes, and each of its
// rows names the finding's host and that host's scanning target beside the title.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { field, useDemoJourney, waitForList } from './harness'

const WAIT = { timeout: 30_000 }
const NAME = 'Informational, no keychain'

/** A day `days` from today on this computer, as the date field takes it. */
function dayFromToday(days: number): string {
  const d = new Date()
  d.setDate(d.getDate() + days)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

describe('working without a keychain, on the demo service', () => {
  const j = useDemoJourney({
    env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/scandesk-no-bus' },
  })
  let page: Page
  beforeAll(() => void ({ page } = j))

  it('keeps a saved view for the session, saying so as it is saved, through a reload', async () => {
    await page.getByTestId('keychain-banner').waitFor(WAIT)
    await j.app.goto(page, 'vulnerabilities?severity=info')
    await waitForList(page, 'vulnerabilities')
    await page.getByTestId('views-open').click()
    await page.getByTestId('view-save').filter({ visible: true }).click()
    const dialog = page.locator('[data-testid="view-name-dialog"]').filter({ visible: true })
    await dialog.waitFor(WAIT)
    // Before saving: where it will be kept.
    expect(await dialog.getByTestId('view-name-note').textContent()).toMatch(
      /kept in memory until ScanDesk closes/,
    )
    await field(page, 'view-name-input').fill(NAME)
    await page.keyboard.press('Enter')
    // At the moment of saving, not after a loss.
    await page
      .locator('.el-message', { hasText: `Saved the view “${NAME}”: kept until ScanDesk closes` })
      .waitFor(WAIT)
    const entry = page.locator('[data-testid="nav-view"]', { hasText: NAME })
    await entry.waitFor(WAIT)

    await page.reload()
    await waitForList(page, 'vulnerabilities')
    await entry.waitFor(WAIT)
    await page.getByTestId('views-open').click()
    await page.getByTestId('view-manage').filter({ visible: true }).click()
    await page.getByTestId('views-kept-in-memory').waitFor(WAIT)
    await page.keyboard.press('Escape')
  })

  it('makes a bulk decision in memory, and names each finding’s host and target', async () => {
    await j.app.goto(page, 'vulnerabilities?severity=info')
    const list = await waitForList(page, 'vulnerabilities')
    const marks = list.getByTestId('resource-row')
    expect(await marks.count()).toBeGreaterThanOrEqual(2)
    const hosts: string[] = []
    for (const i of [0, 1]) {
      const row = list.locator('tbody tr').nth(i)
      hosts.push(((await row.locator('[data-column="host_ip"]').textContent()) ?? '').trim())
      await row.getByRole('checkbox').click()
    }
    await expect.poll(() => page.getByTestId('bulk-chosen').textContent(), WAIT).toContain('2')
    await page.getByTestId('bulk-accept').click()
    const dialog = page.locator('[data-testid="bulk-exception-dialog"]').filter({ visible: true })
    await dialog.waitFor(WAIT)
    await dialog.getByTestId('bulk-in-memory').waitFor(WAIT)
    await dialog.locator('textarea').fill('Accepted without a keychain')
    await dialog.locator('input[type="date"]').fill(dayFromToday(30))
    await page.getByTestId('bulk-exception-submit').click()

    await page.waitForURL(/#\/bulk\/[0-9a-f-]{36}$/, WAIT)
    expect(await page.getByTestId('bulk-run-in-memory').textContent()).toMatch(
      /kept until ScanDesk closes: no keychain/,
    )
    await page.locator('section.bulk-run[data-state="finished"]').waitFor(WAIT)
    const done = page.locator('[data-testid="bulk-item"][data-state="done"]')
    await expect.poll(() => done.count(), WAIT).toBe(2)
    // Each row names its host (as the list showed it) and the host's scanning target, by name.
    const where = page.getByTestId('bulk-item-where')
    await expect.poll(() => page.getByTestId('bulk-item-scan-target').count(), WAIT).toBe(2)
    const words = (await where.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim())
    for (const host of hosts)
      expect(
        words.some((w) => w.startsWith(`Host ${host}`)),
        words.join(' | '),
      ).toBe(true)
    expect(
      words.every((w) => / · Target \S/.test(w) && !/ · Target tgt-/.test(w)),
      words.join(' | '),
    ).toBe(true)
    expect(j.problems).toEqual([])
  })
})
