import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type RunningSandbox } from '../../sandbox/server'
import { startHostileService, type HostileMode } from '../support/hostile-service'
import { closeContexts, sharedChromium, startBrowserMode, type BrowserMode } from './harness'

function field(page: Page, id: string) {
  return page.locator(`input[data-testid="${id}"], [data-testid="${id}"] input`).first()
}

async function fillAccount(
  page: Page,
  sandbox: Pick<RunningSandbox, 'baseUrl'>,
  apiKey: string,
  password: string,
) {
  await page.getByTestId('add-account-button').first().click()
  await page.getByTestId('add-account-dialog').waitFor()
  // The dialog focuses its first field when its opening animation ends; start typing after that.
  await expect
    .poll(() =>
      field(page, 'field-label').evaluate((el: { matches(selector: string): boolean }) =>
        el.matches(':focus'),
      ),
    )
    .toBe(true)
  await field(page, 'field-label').fill('Production')
  await field(page, 'field-base-url').fill(sandbox.baseUrl)
  await field(page, 'field-api-key').fill(apiKey)
  await field(page, 'field-username').fill('analyst@sandbox.test')
  await field(page, 'field-password').fill(password)
  await expect.poll(() => field(page, 'field-label').inputValue()).toBe('Production')
  await page.getByTestId('add-account-submit').click()
}

/** Waits for the dialog's error; on timeout, fails with what the dialog and the app showed. */
async function dialogError(page: Page, app: BrowserMode): Promise<string> {
  const error = page.getByTestId('add-account-error')
  try {
    await error.waitFor({ timeout: 30_000 })
  } catch {
    const dialog = await page
      .getByTestId('add-account-dialog')
      .innerText()
      .catch(() => '?')
    throw new Error(
      `no error shown in the dialog.\nDialog:\n${dialog}\nApp output:\n${app.output()}`,
    )
  }
  return (await error.textContent())?.toLowerCase() ?? ''
}

describe('adding an account with wrong credentials', () => {
  let app: BrowserMode
  let browser: Browser
  let sandbox: RunningSandbox

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, log: () => undefined })
    app = await startBrowserMode()
    browser = await sharedChromium()
  })

  afterAll(async () => {
    await closeContexts(browser)
    await app?.stop()
    await sandbox?.close()
  })

  it('says the password is wrong, keeps what was typed and adds no account', async () => {
    const page = await browser.newPage()
    await app.open(page)
    await fillAccount(page, sandbox, sandbox.apiKey, 'not-the-password')
    expect(await dialogError(page, app)).toMatch(/password/)
    expect(await field(page, 'field-label').inputValue()).toBe('Production')
    expect(await field(page, 'field-base-url').inputValue()).toBe(sandbox.baseUrl)
    await expect.poll(() => page.getByTestId('welcome-demo-button').count()).toBeGreaterThan(0)
  })

  it('says the API key is not accepted', async () => {
    const page = await browser.newPage()
    await app.open(page)
    await fillAccount(page, sandbox, 'wrong-api-key', 'sandbox-password')
    expect(await dialogError(page, app)).toMatch(/api key/)
  })

  it('shows a hostile service’s refusals on the screens, never a blank page', async () => {
    const hostile = await startHostileService()
    try {
      const page = await browser.newPage()
      await app.open(page)
      await fillAccount(page, { baseUrl: hostile.baseUrl }, 'hostile-key', 'sandbox-password')
      await page.getByTestId('add-account-dialog').waitFor({ state: 'hidden', timeout: 30_000 })
      const screen = async (route: string, mode: HostileMode, says: RegExp) => {
        hostile.mode = mode
        await app.goto(page, route)
        const error = page.getByTestId('resource-error').first()
        await error.waitFor({ timeout: 30_000 })
        expect(await error.innerText()).toMatch(says)
        // The app around it is there: the sidebar, and nothing of the service's page.
        expect(await page.getByRole('navigation', { name: 'Sections' }).isVisible()).toBe(true)
        expect(await page.locator('body').innerText()).not.toMatch(/Login required|steal\(/)
      }
      await screen('targets', 'html-200', /web page instead of data/)
      await screen('scans', 'deep-nesting', /nested more than 64 levels deep/)
      await screen('webhooks', 'ids-off-rule', /holds an id ScanDesk does not accept/)
      expect(hostile.elsewhere.seen).toEqual([])
    } finally {
      await hostile.close()
    }
  })
})
