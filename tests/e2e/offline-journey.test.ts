// Issue 10 end to end in Chromium (browser mode, the real core and sandbox): open targets and
// notifications, lose the service (a TCP relay between ScanDesk and the sandbox resets every
// connection), reload and find both screens from the offline copy with their age and the top bar
// saying the service is unreachable; a list never opened says so; quit and start again with the
// service still gone and find the same screen (the copy's key is in the keychain); switch "Work offline" on,
// mark every notification seen (kept in the outbox) and find it there; come back and watch the
// outbox empty and the screen refresh from the service by itself.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { startBrowserMode, waitForList, watchPage, type BrowserMode } from './harness'
import { addRelayedAccount, useRelayedJourney } from './relayed'

const WAIT = { timeout: 30_000 }

const state = (page: Page) => page.getByTestId('connectivity').getAttribute('data-state')
const rows = (page: Page) => page.locator('[data-testid="resource-row"]:visible')
const freshness = (page: Page) => page.locator('[data-testid="data-freshness"]:visible')

async function open(page: Page, app: BrowserMode, hash: string): Promise<void> {
  await app.goto(page, hash)
}

describe('working offline (issue 10)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'scandesk-e2e-offline-'))
  const j = useRelayedJourney(dataDir)
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('shows what was opened with its age, queues safe writes and catches up', async () => {
    const page = await j.browser.newPage()
    const errors = watchPage(page)
    await addRelayedAccount(page, j, 'Acme offline', 'analyst@sandbox.test')

    // 1. online: two screens opened, fresh from the service
    await open(page, j.app, 'targets')
    await waitForList(page, 'targets')
    const targetCount = await rows(page).count()
    await expect.poll(() => state(page), WAIT).toBe('online')
    expect(await freshness(page).count()).toBe(0)
    await open(page, j.app, 'notifications')
    await waitForList(page, 'notifications')

    // 2. the service goes away; a reload shows both screens from the copy, with their age
    j.relay.cut()
    await open(page, j.app, 'targets')
    await page.reload()
    await freshness(page).first().waitFor(WAIT)
    expect(await freshness(page).first().innerText()).toMatch(/Offline copy · as of /)
    await expect.poll(() => rows(page).count(), WAIT).toBe(targetCount)
    await expect.poll(() => state(page), WAIT).toBe('unreachable')
    expect(await page.getByTestId('connectivity').innerText()).toContain('Service unreachable')
    await open(page, j.app, 'notifications')
    await freshness(page).first().waitFor(WAIT)
    await waitForList(page, 'notifications')

    // 3. a list never opened says so plainly
    await open(page, j.app, 'scans')
    await expect
      .poll(() => page.locator('body').innerText(), WAIT)
      .toContain('has not been opened on this computer while online')

    // 4. quit and start again with the service still gone: the same screens, from the copy
    const seenBeforeRestart = errors.length
    await j.app.stop()
    j.app = await startBrowserMode([], { dataDir })
    await j.app.open(page)
    // The old page's event stream to the stopped server fails to reconnect until the new page
    // loads: expected here, so only that line is forgiven.
    const restartNoise = errors.splice(seenBeforeRestart)
    expect(
      restartNoise.every((e) => /ERR_CONNECTION_REFUSED/.test(e)),
      restartNoise.join('\n'),
    ).toBe(true)
    await open(page, j.app, 'targets')
    await freshness(page).first().waitFor(WAIT)
    await expect.poll(() => rows(page).count(), WAIT).toBe(targetCount)
    await expect.poll(() => state(page), WAIT).toBe('unreachable')

    // 5. "Work offline": a safe write waits in the outbox
    await page.getByTestId('connectivity').click()
    await page.getByTestId('work-offline-switch').click()
    await expect.poll(() => state(page), WAIT).toBe('work-offline')
    await page.keyboard.press('Escape')
    await open(page, j.app, 'notifications')
    await waitForList(page, 'notifications')
    await page.getByTestId('toolbar-notifications.mark_all_seen').click()
    await expect.poll(() => page.getByTestId('nav-outbox-count').innerText(), WAIT).toBe('1')
    await open(page, j.app, 'outbox')
    await expect
      .poll(() => page.getByTestId('outbox-state').first().innerText(), WAIT)
      .toBe('Queued')
    expect(await page.getByTestId('outbox-summary').first().innerText()).toMatch(/seen/i)

    // 6. back: the outbox goes out by itself and the screens come from the service again
    j.relay.restore()
    await page.getByTestId('connectivity').click()
    await page.getByTestId('work-offline-switch').click()
    await page.keyboard.press('Escape')
    await expect.poll(() => state(page), WAIT).toBe('online')
    await page.getByTestId('outbox-empty').waitFor(WAIT)
    await open(page, j.app, 'targets')
    await waitForList(page, 'targets')
    await expect.poll(() => freshness(page).count(), WAIT).toBe(0)
    expect(errors).toEqual([])
  })
})
