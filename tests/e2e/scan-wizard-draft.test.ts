// Issue 8's end-to-end proofs on the demo service that need their own browser mode: a wizard
// draft restored after browser mode is restarted on the same data directory, and an account on
// release 5.3.0 that neither counts hosts nor lists scan profiles.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  accountAction,
  accountIdByLabel,
  chooseOption,
  closeContexts,
  closeSwitcher,
  field,
  openSwitcher,
  sharedChromium,
  startBrowserMode,
  watchPage,
  type BrowserMode,
} from './harness'

const WAIT = { timeout: 30_000 }

const hostsArea = (page: Page) =>
  page.locator('textarea[data-testid="wizard-hosts"], [data-testid="wizard-hosts"] textarea')
const wizardStep = (page: Page) => page.locator('.scan-wizard__body').getAttribute('data-step')

/** Moves to another screen inside the app (a hash change, as the sidebar's links do). */
async function goToScreen(page: Page, hash: string): Promise<void> {
  await page.evaluate(`location.hash = ${JSON.stringify(hash)}`)
  await expect.poll(() => new URL(page.url()).hash, WAIT).toBe(hash)
}

/** The operations the page asked the service for (browser mode's api.call bridge requests). */
function watchOperations(page: Page): string[] {
  const ops: string[] = []
  page.on('request', (req) => {
    if (!req.url().includes('/bridge/call/api.call')) return
    try {
      ops.push(String((JSON.parse(req.postData() ?? '{}') as { op?: string }).op))
    } catch {
      ops.push('?')
    }
  })
  return ops
}

describe('the scan wizard across a restart, and on release 5.3.0 (issue 8)', () => {
  let app: BrowserMode
  let browser: Browser
  const root = mkdtempSync(join(tmpdir(), 'scandesk-e2e-wizard-'))
  const dataDir = join(root, 'data')

  beforeAll(async () => {
    mkdirSync(dataDir)
    app = await startBrowserMode([], { dataDir })
    browser = await sharedChromium()
  })

  afterAll(async () => {
    await closeContexts(browser)
    await app?.stop()
    rmSync(root, { recursive: true, force: true })
  })

  it('restores a wizard draft after browser mode restarts on the same data, and Start over clears it', async () => {
    let page = await browser.newPage()
    let problems = watchPage(page)
    await app.open(page)
    await page.getByTestId('welcome-demo-button').click()
    await page.getByTestId('upcoming-scan-row').first().waitFor(WAIT)
    const demoId = await accountIdByLabel(page, 'Demo service')
    await closeSwitcher(page)

    await goToScreen(page, '#/scans/new')
    await page.locator('.scan-wizard__body').waitFor(WAIT)
    await field(page, 'wizard-name').fill('E2E draft across restart')
    await page.getByTestId('wizard-profile-full_and_fast').click()
    await page.getByTestId('scan-wizard-next').click()
    await expect.poll(() => wizardStep(page), WAIT).toBe('1')
    await hostsArea(page).fill('192.0.2.10\n192.0.2.20-192.0.2.29')
    await expect
      .poll(() => page.getByTestId('scan-wizard-draft').textContent(), WAIT)
      .toContain('Draft saved on this computer')
    // the last keystrokes' save has landed (not a pause that a busy machine can outlast)
    await page.locator('[data-testid="scan-wizard-draft"][data-saving="false"]').waitFor(WAIT)
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()

    await app.stop()
    app = await startBrowserMode([], { dataDir })
    page = await browser.newPage()
    problems = watchPage(page)
    await app.open(page)
    // the demo account is kept (same id) and reconnected to this run's demo service
    await page.getByTestId('account-switcher').waitFor(WAIT)
    expect(await accountIdByLabel(page, 'Demo service')).toBe(demoId)
    await closeSwitcher(page)

    await goToScreen(page, '#/scans/new')
    await page.locator('.scan-wizard__body').waitFor(WAIT)
    await expect.poll(() => wizardStep(page), WAIT).toBe('1')
    await expect
      .poll(() => hostsArea(page).inputValue(), WAIT)
      .toBe('192.0.2.10\n192.0.2.20-192.0.2.29')
    expect(await page.getByTestId('scan-wizard-draft').textContent()).toContain(
      'Draft saved on this computer',
    )
    await page.getByTestId('scan-wizard-back').click()
    await expect.poll(() => wizardStep(page)).toBe('0')
    expect(await field(page, 'wizard-name').inputValue()).toBe('E2E draft across restart')

    await page.getByTestId('scan-wizard-start-over').click()
    await expect.poll(() => field(page, 'wizard-name').inputValue(), WAIT).toBe('')
    expect(await wizardStep(page)).toBe('0')
    // and it stays cleared when the wizard opens again
    await page.reload()
    await page.locator('.scan-wizard__body').waitFor(WAIT)
    await expect.poll(() => wizardStep(page), WAIT).toBe('0')
    expect(await field(page, 'wizard-name').inputValue()).toBe('')
    expect(problems, problems.join('\n')).toEqual([])
    await page.close()
  })

  it('on release 5.3.0 the quick scan cannot count hosts (none asked) and the wizard cannot list profiles', async () => {
    const page = await browser.newPage()
    const problems = watchPage(page)
    const ops = watchOperations(page)
    await app.open(page)
    await page.getByTestId('account-switcher').waitFor(WAIT)
    const demoId = await accountIdByLabel(page, 'Demo service')
    await closeSwitcher(page)
    // the demo service of this run answers (reconnected after the restart): its upcoming scans
    await page.getByTestId('upcoming-scan-row').first().waitFor(WAIT)
    // the watch sees the requests: on the latest release the dashboard reads the scan profiles
    await expect.poll(() => ops.includes('scans.scan_profiles'), WAIT).toBe(true)

    // the demo account's release, changed in its settings
    await accountAction(page, demoId, 'account-settings-open')
    await page.getByTestId('account-settings-dialog').waitFor(WAIT)
    await chooseOption(page.getByTestId('field-release'), /^5\.3\.0$/)
    // the choice is in the form before it is saved (Save closes without a change to send)
    await expect
      .poll(() => page.locator('[data-field="release"] .el-select__wrapper').textContent(), WAIT)
      .toContain('5.3.0')
    await page.getByTestId('settings-save').click()
    await page.getByTestId('account-settings-dialog').waitFor({ state: 'hidden', ...WAIT })
    await expect
      .poll(async () => (await openSwitcherRow(page, demoId)).replace(/\s+/g, ' '), WAIT)
      .toContain('5.3.0')
    await closeSwitcher(page)
    ops.length = 0 // from here on the account is on 5.3.0

    await goToScreen(page, '#/dashboard')
    await field(page, 'quick-scan-hosts').fill('192.0.2.0/28')
    await expect
      .poll(() => page.getByTestId('quick-scan-summary').textContent(), WAIT)
      .toContain('Creates target “192.0.2.0/28”')
    await expect
      .poll(() => page.getByTestId('quick-scan-count').textContent(), WAIT)
      .toBe('Host count not available on this release.')
    // typing's pause is over: where the release could count, the count would be asked now
    await page.locator('[data-testid="quick-scan-count"][data-count-pending="false"]').waitFor(WAIT)
    expect(ops).not.toContain('targets.calculate_hosts')
    expect(ops).not.toContain('scans.scan_profiles')

    await goToScreen(page, '#/scans/new')
    await page.locator('.scan-wizard__body').waitFor(WAIT)
    await expect
      .poll(() => page.getByTestId('wizard-profiles-unavailable').textContent(), WAIT)
      .toContain('This release cannot list scan profiles')
    expect(await page.getByTestId('wizard-profiles').count()).toBe(0)
    await field(page, 'wizard-name').fill('E2E on 5.3.0')
    await field(page, 'wizard-profile-code').fill('full_and_fast')
    await page.getByTestId('scan-wizard-next').click()
    await expect.poll(() => wizardStep(page), WAIT).toBe('1')
    await hostsArea(page).fill('192.0.2.0/28\n192.0.2.1')
    await expect
      .poll(() => page.getByTestId('wizard-host-count').textContent(), WAIT)
      .toContain('counted on this computer: this release cannot count hosts')
    await page
      .locator('[data-testid="wizard-host-count"][data-count-pending="false"]')
      .waitFor(WAIT)
    expect(ops).not.toContain('targets.calculate_hosts')
    expect(ops).not.toContain('scans.scan_profiles')
    await page.getByTestId('scan-wizard-start-over').click()
    expect(problems, problems.join('\n')).toEqual([])
  })
})

/** The text of an account's row in the switcher. */
async function openSwitcherRow(page: Page, accountId: string): Promise<string> {
  const panel = await openSwitcher(page)
  return panel.getByTestId(`account-switch-${accountId}`).innerText()
}
