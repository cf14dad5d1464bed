// Issue 19: an analyst runs a scan twice and sees on its Changes view what the second run found
// new and what it fixed, exact from the snapshots ScanDesk kept of both runs; after the first run
// the view says in words that there is nothing earlier to compare with.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { field, useDemoJourney } from './harness'

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
  const j = useDemoJourney({ env: { SCANDESK_DEMO_SCAN_MS: '6000' } })
  let page: Page
  beforeAll(() => void ({ page } = j))

  it('runs a scan twice and shows New and Fixed on its Changes view', async () => {
    await field(page, 'quick-scan-hosts').fill(HOSTS)
    await expect
      .poll(() => page.getByTestId('quick-scan-summary').textContent(), WAIT)
      .toContain(`Creates target “${HOSTS}”`)
    await page.getByTestId('quick-scan-submit').click()
    await page.getByTestId('quick-scan-confirm').click()
    await page.getByTestId('quick-scan-result-link').click()
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
})
