// Issue 19: an analyst runs a scan twice and sees on its Changes view what the second run found
// new and what it fixed, exact from the snapshots ScanDesk kept of both runs; after the first run
// the view says in words that there is nothing earlier to compare with. Issue 36: the scans list
// shows the run end without a reload (§3), and on a seeded scan whose runs ended before ScanDesk
// ran, any two runs can be chosen, compared from times where there is no snapshot, and said so
// (§14).
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { chooseOption, field, useDemoJourney, waitForList } from './harness'

const WAIT = { timeout: 30_000 }
const HOSTS = '198.51.100.40/29'
const SCAN = `Quick scan ${HOSTS}`

/** Waits until the scan's status says its run completed. */
async function completed(page: Page): Promise<void> {
  await expect
    .poll(() => page.getByTestId('scan-status').textContent(), { timeout: 60_000 })
    .toMatch(/completed/)
}

describe('what changed between two runs of a scan (issue 19)', () => {
  const j = useDemoJourney({ env: { SCANDESK_DEMO_SCAN_MS: '8000' } })
  let page: Page
  beforeAll(() => void ({ page } = j))

  it('runs a scan twice and shows New and Fixed on its Changes view', async () => {
    await field(page, 'quick-scan-hosts').fill(HOSTS)
    await expect
      .poll(() => page.getByTestId('quick-scan-summary').textContent(), WAIT)
      .toContain(`Creates target “${HOSTS}”`)
    await page.getByTestId('quick-scan-submit').click()
    await page.getByTestId('quick-scan-confirm').click()
    await page.getByTestId('quick-scan-result-link').waitFor(WAIT)

    // The scans list, opened while the run goes on, shows it end without a reload.
    await page.locator('[data-testid="nav-group"][data-group="scans"]').click()
    await waitForList(page, 'scans')
    const row = page
      .locator('.resource-table[data-resource="scans"] tbody tr')
      .filter({ has: page.getByTestId('resource-open').getByText(SCAN, { exact: true }) })
    await expect.poll(() => row.textContent(), WAIT).toMatch(/running|queued/)
    // The list's own poll (every few seconds while a row runs), not the watcher's minute.
    await expect.poll(() => row.textContent(), WAIT).toMatch(/completed/)
    await row.getByTestId('resource-open').click()
    await expect.poll(() => page.getByTestId('resource-title').textContent(), WAIT).toBe(SCAN)
    await completed(page)

    // One run: said in words, no empty tables.
    await page.locator('.el-tabs__item', { hasText: /^Changes$/ }).click()
    const changes = page.getByTestId('scan-changes')
    await expect
      .poll(() => changes.getByTestId('changes-note').first().textContent(), WAIT)
      .toMatch(/only completed run: there is no earlier run/)
    expect(await changes.getByTestId('changes-new').count()).toBe(0)

    // The second run.
    await page.locator('.el-tabs__item', { hasText: /^Overview$/ }).click()
    await page.getByTestId('scan-start').click()
    await page.getByTestId('scan-start-confirm').click()
    await expect
      .poll(() => page.getByTestId('scan-status').textContent(), WAIT)
      .toMatch(/running|queued/)
    await completed(page)

    await page.locator('.el-tabs__item', { hasText: /^Changes$/ }).click()
    await expect
      .poll(() => changes.getByTestId('changes-basis').textContent(), WAIT)
      .toMatch(/^Exact, from the snapshots ScanDesk kept of both runs/)
    const fresh = changes.getByTestId('changes-new').getByTestId('changes-finding')
    const fixed = changes.getByTestId('changes-fixed').getByTestId('changes-finding')
    await fresh.first().waitFor(WAIT)
    await fixed.first().waitFor(WAIT)
    expect(await fresh.count()).toBeGreaterThan(0)
    expect(await fixed.count()).toBeGreaterThan(0)

    // A fixed finding leads to its page.
    const id = await fixed.first().getAttribute('data-id')
    await fixed.first().click()
    await expect.poll(() => page.url(), WAIT).toContain(`/vulnerabilities/${id}`)
  })

  it('compares any two runs of a seeded scan, from times where ScanDesk kept no snapshot, and keeps the choice in the address', async () => {
    await page.locator('[data-testid="nav-group"][data-group="scans"]').click()
    const list = await waitForList(page, 'scans')
    await field(page, 'resource-search').fill('Payment DMZ')
    const seeded = list.getByTestId('resource-open').getByText('Payment DMZ', { exact: true })
    await seeded.waitFor(WAIT)
    await seeded.click()
    await expect
      .poll(() => page.getByTestId('resource-title').textContent(), WAIT)
      .toBe('Payment DMZ')
    await page.locator('.el-tabs__item', { hasText: /^Changes$/ }).click()
    const changes = page.getByTestId('scan-changes')
    // The pickers name the two runs compared (never "Select"): the latest exact, the one before
    // from times (it ended before ScanDesk ran).
    const from = changes.getByTestId('changes-from')
    await expect
      .poll(() => changes.getByTestId('changes-from-source').textContent(), WAIT)
      .toBe('Approximate: times')
    expect(await changes.getByTestId('changes-to-source').textContent()).toBe('Exact: snapshot')
    expect(await from.textContent()).toMatch(/\(run-\d+\)/)

    // The oldest run of the history as the earlier one.
    const box = from.locator('[role="combobox"]')
    await from.click()
    const options = page.locator(`[id="${await box.getAttribute('aria-controls')}"] li`)
    await options.first().waitFor(WAIT)
    const oldest = /\((run-\d+)\)/.exec((await options.last().textContent()) ?? '')![1]
    await page.keyboard.press('Escape')
    await chooseOption(from, `(${oldest})`)
    await expect.poll(() => page.url(), WAIT).toContain(`from=${oldest}`)
    await expect.poll(() => from.textContent(), WAIT).toContain(`(${oldest})`)
    const basis = changes.getByTestId('changes-basis')
    await expect
      .poll(() => basis.textContent(), WAIT)
      .toMatch(
        new RegExp(`^Approximate on one side: the earlier run, .*\\(${oldest}\\), is read from`),
      )
    await changes.getByTestId('changes-fixed').waitFor(WAIT)

    // A reload opens the same tab on the same two runs.
    await page.reload()
    await expect
      .poll(() => page.getByTestId('changes-basis').textContent(), WAIT)
      .toContain(`(${oldest}), is read from`)
    expect(await page.getByTestId('changes-from').textContent()).toContain(`(${oldest})`)
  })
})
