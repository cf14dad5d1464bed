// Issue 21's offline edges and honest verdicts in Chromium (browser mode, the real core and a
// sandbox of the test's behind the relay the offline journey uses): a scan started a moment ago
// says its PCI verdict is not known yet; with "Work offline" on, the quick scan's action is
// disabled with its reason before any confirmation, a list never opened offers no Retry and says
// it is not known, and a notification marked read shows as pending in its row; once back online
// the list never opened reads itself, the outbox sends the change and the row says read.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { field, waitForList, watchPage } from './harness'
import { addRelayedAccount, useRelayedJourney } from './relayed'

const WAIT = { timeout: 30_000 }

const state = (page: Page) => page.getByTestId('connectivity').getAttribute('data-state')

/** Switches "Work offline" from the top bar and waits until the badge says so. */
async function workOffline(page: Page, on: boolean): Promise<void> {
  await page.getByTestId('connectivity').click()
  await page.getByTestId('work-offline-switch').click()
  await page.keyboard.press('Escape')
  if (on) await expect.poll(() => state(page), WAIT).toBe('work-offline')
  else await expect.poll(() => state(page), WAIT).not.toBe('work-offline')
}

/** The text of the Read cell of notification `id` in the list on screen. */
const readCell = async (page: Page, id: string) =>
  (
    await page
      .locator('tr', { has: page.locator(`[data-testid="resource-row"][data-id="${id}"]`) })
      .locator('[data-column="read"]')
      .first()
      .textContent()
  )?.trim()

describe('offline edges and honest verdicts (issue 21)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'scandesk-e2e-edges-'))
  const j = useRelayedJourney(dataDir)
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('holds back what needs the service, shows queued changes as pending and sends them', async () => {
    const page = await j.browser.newPage()
    const errors = watchPage(page)
    await addRelayedAccount(page, j, 'Acme edges', 'analyst@sandbox.test')

    // 1. online: a quick scan starts; its page says the PCI verdict is not known while it runs
    await expect.poll(() => state(page), WAIT).toBe('online')
    await field(page, 'quick-scan-hosts').fill('192.0.2.10')
    await expect
      .poll(() => page.getByTestId('quick-scan-count').textContent(), WAIT)
      .toContain('This covers 1 host.')
    await page.getByTestId('quick-scan-submit').click()
    await page.getByTestId('quick-scan-confirm').click()
    await page.getByTestId('quick-scan-result-link').click()
    await expect
      .poll(async () => (await page.getByTestId('scan-status').textContent())?.trim(), WAIT)
      .toBe('running')
    await expect
      .poll(async () => (await page.getByTestId('stat-pci').textContent())?.trim(), WAIT)
      .toBe('Not known yet')
    expect(await page.getByTestId('stat-pci').getAttribute('title')).toBe(
      'Not known yet: the run has not finished.',
    )
    expect(await page.getByTestId('scan-statistics-unknown').textContent()).toContain(
      'the run has not finished',
    )

    // 2. the notifications, opened online (the offline copy), with one not read yet
    await j.app.goto(page, 'notifications')
    await waitForList(page, 'notifications')
    const unread = page
      .locator('tr', { has: page.locator('[data-column="read"]', { hasText: /^No$/ }) })
      .locator('[data-testid="resource-row"]')
      .first()
    const id = (await unread.getAttribute('data-id')) ?? ''
    expect(id).toMatch(/^ntf-/)

    // 3. "Work offline": Scan now is disabled with its reason, before any confirmation
    await workOffline(page, true)
    await j.app.goto(page, '')
    await field(page, 'quick-scan-hosts').fill('192.0.2.11')
    await expect
      .poll(() => page.getByTestId('quick-scan-offline').textContent(), WAIT)
      .toContain('This needs the service, and “Work offline” is on')
    expect(await page.getByTestId('quick-scan-submit').isDisabled()).toBe(true)
    expect(await page.getByTestId('quick-scan-confirm').count()).toBe(0)

    // 4. a list never opened online says so, with no Retry while nothing can be sent
    await j.app.goto(page, 'schedules')
    await waitForList(page, 'schedules', { state: 'error' })
    expect(await page.getByTestId('resource-error').textContent()).toContain(
      'has not been opened on this computer while online',
    )
    expect(await page.getByTestId('resource-retry').count()).toBe(0)
    expect(await page.getByTestId('retry-off').textContent()).toBe(
      '“Work offline” is on: switch it off to try again.',
    )
    // …and that the list is not known, not that it is empty (issue 36 §6)
    const schedules = page.locator('.resource-table[data-resource="schedules"]')
    expect((await schedules.getByTestId('table-empty').textContent())?.trim()).toBe(
      'Not known: the schedules could not be read.',
    )
    expect(await schedules.getByTestId('resource-total').textContent()).toBe('Total not known')

    // 5. a notification marked read waits in the outbox, and its row says so
    await j.app.goto(page, 'notifications')
    await waitForList(page, 'notifications')
    expect(await readCell(page, id)).toBe('No')
    const row = page.locator(`[data-testid="resource-row"][data-id="${id}"]`)
    await row.getByTestId('row-actions').click()
    await page.locator('[data-op="notifications.mark_read"]:visible').click()
    await expect.poll(() => page.getByTestId('nav-outbox-count').textContent(), WAIT).toBe('1')
    await expect.poll(() => readCell(page, id), WAIT).toBe('Read (pending)')
    // The message that says so appears below the top bar, not over the badge it speaks of: the
    // badge is clicked while the message is still on screen.
    const queued = page.locator('.el-message', { hasText: 'Queued — it will be sent' })
    await queued.waitFor(WAIT)
    // Where it comes to rest (its top; it slides down into place as it appears) against the bar.
    const [top, barBottom] = (await page.evaluate(`(() => {
      const message = [...document.querySelectorAll('.el-message')].find((el) =>
        el.textContent.includes('Queued — it will be sent'),
      )
      const bar = document.querySelector('.app-top-bar')
      return [parseFloat(getComputedStyle(message).top), bar.getBoundingClientRect().bottom]
    })()`)) as [number, number]
    expect(top).toBeGreaterThanOrEqual(barBottom)

    // 6. back online on the list never opened: it reads itself, no Retry (issue 36 §15); the
    // outbox sends the change and the notification's row says what the service now says
    await j.app.goto(page, 'schedules')
    await waitForList(page, 'schedules', { state: 'error' })
    await workOffline(page, false)
    await expect.poll(() => state(page), WAIT).toBe('online')
    await waitForList(page, 'schedules')
    await expect
      .poll(() => schedules.getByTestId('resource-total').textContent(), WAIT)
      .toMatch(/^Total \d+$/)
    expect(await page.getByTestId('resource-error').count()).toBe(0)
    await expect.poll(() => page.getByTestId('nav-outbox-count').count(), WAIT).toBe(0)
    await j.app.goto(page, 'notifications')
    await waitForList(page, 'notifications')
    await expect.poll(() => readCell(page, id), WAIT).toBe('Yes')
    expect(errors, errors.join('\n')).toEqual([])
  })
})
