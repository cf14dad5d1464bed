// Issue 21: a new user runs a scan to completion and finds its report on the scan's Reports tab,
// generates and downloads it, and sees it verified; the library shows the file's recorded hash
// and, in browser mode, where the file is. The Download of a reports table shows whole at the
// default window width.
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { field, openGroupList, useDemoJourney, waitForList } from './harness'

const WAIT = { timeout: 30_000 }
const HOSTS = '198.51.100.16/29'
const SCAN = `Quick scan ${HOSTS}`

/** Fails unless the row's Download shows its whole label inside its cell, not under another. */
async function expectWholeDownload(row: Locator): Promise<void> {
  const download = row.getByTestId('row-export-download')
  await download.waitFor(WAIT)
  expect((await download.innerText()).trim()).toBe('Download')
  const fit = await download.evaluate((el) => {
    const cell = el.closest('td')!
    const label = el.querySelector('span') ?? el
    const box = label.getBoundingClientRect()
    const within = cell.getBoundingClientRect()
    // the row's actions cell, kept in view at the right
    const fixed = el.closest('tr')!.querySelector('[data-testid="resource-row"]')?.closest('td')
    return {
      clipped: cell.scrollWidth > cell.clientWidth || label.scrollWidth > label.clientWidth,
      inside: box.left >= within.left && box.right <= within.right,
      beforeFixed: !fixed || box.right <= fixed.getBoundingClientRect().left,
    }
  })
  expect(fit).toEqual({ clipped: false, inside: true, beforeFixed: true })
}

/** Opens the scan's Reports tab and waits for its list of reports for the demo account. */
async function openReportsTab(page: Page): Promise<Locator> {
  await page.locator('.el-tabs__item', { hasText: /^Reports$/ }).click()
  await waitForList(page, 'reports')
  return page.getByTestId('scan-reports')
}

describe('the report of a scan just run (issue 21)', () => {
  const j = useDemoJourney({ env: { SCANDESK_DEMO_SCAN_MS: '6000' } })
  const downloads = mkdtempSync(join(tmpdir(), 'scandesk-e2e-scan-report-'))
  let page: Page
  let problems: string[]
  beforeAll(() => void ({ page, problems } = j))
  afterAll(() => rmSync(downloads, { recursive: true, force: true }))

  it('finds the report on the scan’s Reports tab, generates and downloads it, verified', async () => {
    await field(page, 'quick-scan-hosts').fill(HOSTS)
    await expect
      .poll(() => page.getByTestId('quick-scan-summary').textContent(), WAIT)
      .toContain(`Creates target “${HOSTS}”`)
    await page.getByTestId('quick-scan-submit').click()
    await page.getByTestId('quick-scan-confirm').click()
    const link = page.getByTestId('quick-scan-result-link')
    await link.waitFor(WAIT)
    await link.click()
    await expect.poll(() => page.getByTestId('resource-title').textContent(), WAIT).toBe(SCAN)

    // While it runs the tab says why there is no report yet.
    const tab = await openReportsTab(page)
    await expect
      .poll(() => tab.getByTestId('scan-reports-why').textContent(), WAIT)
      .toMatch(/running: its report appears here when the run completes|queued/)

    await expect
      .poll(() => page.getByTestId('scan-status').textContent(), { timeout: 45_000 })
      .toMatch(/completed/)
    // The run's report, named for the scan: the page's reads were refreshed when it completed.
    const row = tab.locator('tr', { hasText: `${SCAN} - technical report` })
    await row.waitFor(WAIT)
    expect(await tab.locator('[data-testid="report-row"]').count()).toBe(1)

    await row.getByTestId('report-generate-button').click()
    await page.getByTestId('generate-format-pdf').click()
    await page.getByTestId('generate-confirm').click()
    const exported = row.getByTestId('row-export')
    await expect.poll(() => exported.getAttribute('data-state'), WAIT).toBe('ready')
    await expectWholeDownload(row)

    // Download: browser mode asks once for a folder, then the file is hashed and compared.
    await row.getByTestId('row-export-download').click()
    await page.getByTestId('folder-dialog').waitFor(WAIT)
    await field(page, 'folder-input').fill(downloads)
    await page.getByTestId('folder-save').click()
    await expect.poll(() => exported.getAttribute('data-state'), WAIT).toBe('verified')
    expect((await exported.innerText()).trim()).toContain('Verified')
    const pdfs = readdirSync(downloads).filter((f) => f.endsWith('.pdf'))
    expect(pdfs).toHaveLength(1)
    expect(pdfs[0]).toContain('technical report')
    await page.getByTestId('exports-tray-button').click()
    const job = page.locator('[data-testid="export-job"][data-state="verified"]', {
      hasText: `${SCAN} - technical report`,
    })
    await job.waitFor(WAIT)
    await page.keyboard.press('Escape')

    // The library shows the hash recorded at download and, in browser mode, where the file is.
    const path = join(downloads, pdfs[0])
    const digest = createHash('sha256').update(readFileSync(path)).digest('hex')
    await page.getByTestId('nav-library').click()
    const entry = page.locator('[data-testid="library-table"] tr', {
      hasText: `${SCAN} - technical report`,
    })
    await entry.waitFor(WAIT)
    expect(await entry.getByTestId('library-hash-short').textContent()).toBe(
      `${digest.slice(0, 12)}…`,
    )
    expect(await entry.getByTestId('library-hash-short').getAttribute('title')).toBe(digest)
    await entry.getByTestId('library-open').click()
    const where = page.getByTestId('library-location')
    await where.waitFor(WAIT)
    expect(await where.locator('textarea').inputValue()).toBe(path)
    await where.getByTestId('library-location-close').click()
    expect(problems, problems.join('\n')).toEqual([])
  })

  it('shows a ready report’s Download whole in the Reports list', async () => {
    await openGroupList(page, 'reports')
    const row = page.locator('[data-testid="reports-table"] tr', {
      has: page.locator('[data-testid="report-row"][data-report-id="rpt-001"]'),
    })
    await row.getByTestId('report-generate-button').click()
    await page.getByTestId('generate-format-pdf').click()
    await page.getByTestId('generate-confirm').click()
    // rpt-001's PDF exists on the service: the job is ready at once.
    await expect
      .poll(() => row.getByTestId('row-export').getAttribute('data-state'), WAIT)
      .toBe('ready')
    await expectWholeDownload(row)
    expect(problems, problems.join('\n')).toEqual([])
  })
})
