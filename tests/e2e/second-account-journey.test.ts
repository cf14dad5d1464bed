// Issue 21, item 3, end to end in Chromium on the demo service: the demo account's settings show
// its base URL (never its key), and its menu adds the demo's manager with the stored API key
// reused, landing signed in as the manager.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  accountAction,
  accountIdByLabel,
  closeSwitcher,
  field,
  openSwitcher,
  useDemoJourney,
} from './harness'

const WAIT = { timeout: 30_000 }

/** The visible text of the first match, blanks collapsed. */
async function text(locator: ReturnType<Page['locator']>): Promise<string> {
  return (await locator.first().innerText()).replace(/\s+/g, ' ').trim()
}

describe('a second user of the demo service, from the account menu (issue 21)', () => {
  const j = useDemoJourney()
  let page: Page
  let problems: string[]
  beforeAll(() => void ({ page, problems } = j))

  it('adds the manager with the demo’s stored key and lands signed in as them', async () => {
    const demoId = await accountIdByLabel(page, 'Demo service')

    // The settings say where the demo service is, and never show its key.
    await accountAction(page, demoId, 'account-settings-open')
    const settings = page.getByTestId('account-settings-dialog')
    await settings.waitFor(WAIT)
    const baseUrl = await text(settings.getByTestId('settings-base-url'))
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(await text(settings.getByTestId('settings-user'))).toContain(
      'Signed in as demo@sandbox.test.',
    )
    expect(await settings.innerText()).not.toContain('sandbox-api-key')
    await settings.locator('.el-dialog__headerbtn').click()
    await settings.waitFor({ state: 'hidden', ...WAIT })

    // Add another user of this service: URL and release are the demo's, its key is reused.
    await accountAction(page, demoId, 'account-add-user')
    const dialog = page.getByTestId('add-account-dialog')
    await dialog.waitFor(WAIT)
    expect(await text(dialog.locator('.el-dialog__title'))).toBe('Add another user of Demo service')
    expect(await text(dialog.getByTestId('add-account-base-url-fixed'))).toBe(baseUrl)
    expect(await field(page, 'field-reuse-key').isChecked()).toBe(true)
    expect(await dialog.getByTestId('field-api-key').count()).toBe(0)
    await field(page, 'field-label').fill('Demo manager')
    await field(page, 'field-username').fill('manager@sandbox.test')
    await field(page, 'field-password').fill('sandbox-password')
    await page.getByTestId('add-account-submit').click()
    await dialog.waitFor({ state: 'hidden', ...WAIT })

    // Signed in as the manager: the new account is this window's, and the service says who it is.
    await expect
      .poll(() => text(page.getByTestId('account-switcher-label')), WAIT)
      .toBe('Demo manager')
    await j.app.goto(page, 'user')
    await expect
      .poll(() => field(page, 'user-profile-email').inputValue(), WAIT)
      .toBe('manager@sandbox.test')
    const panel = await openSwitcher(page)
    const managerRow = panel.locator('[data-testid^="account-switch-"]', {
      hasText: 'Demo manager',
    })
    expect(await text(managerRow)).toContain(`manager@sandbox.test · latest`)
    expect(await text(managerRow)).not.toContain('signed out')
    await closeSwitcher(page)
    expect(problems, problems.join('\n')).toEqual([])
  })
})
