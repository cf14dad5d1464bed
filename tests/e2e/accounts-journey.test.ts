import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIXTURES } from '../../sandbox/domains/identity/seed'
import { startSandbox, type RunningSandbox } from '../../sandbox/server'
import {
  accountAction,
  accountIdByLabel,
  accountIdsInSwitcher,
  closeContexts,
  closeSwitcher,
  field,
  nextOtp,
  openSwitcher,
  sharedChromium,
  startBrowserMode,
  waitForFocus,
  watchPage,
  type BrowserMode,
} from './harness'

const PASSWORD = 'sandbox-password'
const WAIT = { timeout: 30_000 }

interface LoggedSandbox {
  sb: RunningSandbox
  lines: string[]
}

async function startLogged(
  apiKey: string,
  seed: number,
  options: { smsCooldownMs?: number } = {},
): Promise<LoggedSandbox> {
  const lines: string[] = []
  const sb = await startSandbox({
    port: 0,
    apiKey,
    seed,
    log: (line) => lines.push(line),
    ...options,
  })
  return { sb, lines }
}

/**
 * Sandbox B's time between two SMS codes: longer than the 30 s ScanDesk assumes for the code
 * texted with the sign-in, so the resend's countdown (from the service's answer) is still running
 * once the page's clock has been moved past the first one.
 */
const SMS_COOLDOWN_MS = 60_000

/** Fills the add-account dialog (opened from the welcome screen or the switcher) and submits. */
async function submitNewAccount(
  page: Page,
  account: { label: string; baseUrl: string; apiKey: string; username: string },
): Promise<void> {
  await page.getByTestId('add-account-dialog').waitFor(WAIT)
  await waitForFocus(field(page, 'field-label'))
  await field(page, 'field-label').fill(account.label)
  await field(page, 'field-base-url').fill(account.baseUrl)
  await field(page, 'field-api-key').fill(account.apiKey)
  await field(page, 'field-username').fill(account.username)
  await field(page, 'field-password').fill(PASSWORD)
  await expect.poll(() => field(page, 'field-label').inputValue()).toBe(account.label)
  await page.getByTestId('add-account-submit').click()
}

/** Types a code into the second-factor step (once it has the focus) and presses Verify. */
async function enterCode(page: Page, code: string): Promise<void> {
  const input = field(page, 'second-factor-code')
  await waitForFocus(input)
  await input.fill(code)
  await expect.poll(() => input.inputValue()).toBe(code)
  await page.getByTestId('second-factor-submit').click()
}

/** Picks a method's tab of the second-factor step (a click only when it is not chosen yet). */
async function chooseMethod(page: Page, method: 'app' | 'sms' | 'recovery'): Promise<void> {
  const tab = page.locator('.el-tabs__item', {
    has: page.getByTestId(`second-factor-tab-${method}`),
  })
  await tab.waitFor(WAIT)
  if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click()
  await expect.poll(() => tab.getAttribute('aria-selected'), WAIT).toBe('true')
}

function wrongCodeFor(code: string): string {
  return code === '000000' ? '111111' : '000000'
}

/** Reads document.title and the top bar's text, for the wrong-account guard. */
async function shown(page: Page): Promise<{ title: string; topBar: string }> {
  return {
    title: await page.title(),
    topBar: (await page.locator('header.app-top-bar').innerText()).replace(/\s+/g, ' '),
  }
}

/** Moves to another screen inside the app (a hash change, as the sidebar's links do). */
async function goToScreen(page: Page, hash: string): Promise<void> {
  await page.evaluate(`location.hash = ${JSON.stringify(hash)}`)
  await expect.poll(() => new URL(page.url()).hash, WAIT).toBe(hash)
}

/** The text of an account's row in the switcher (label, user, release, signed-out note). */
async function rowText(page: Page, accountId: string): Promise<string> {
  const panel = await openSwitcher(page)
  return (await panel.getByTestId(`account-switch-${accountId}`).innerText()).replace(/\s+/g, ' ')
}

describe('two accounts side by side in the browser', () => {
  let a: LoggedSandbox
  let b: LoggedSandbox
  let app: BrowserMode
  let browser: Browser

  beforeAll(async () => {
    a = await startLogged('alpha-api-key-e2e', 101)
    b = await startLogged('bravo-api-key-e2e', 202, { smsCooldownMs: SMS_COOLDOWN_MS })
    app = await startBrowserMode()
    browser = await sharedChromium()
  })

  afterAll(async () => {
    await closeContexts(browser)
    await app?.stop()
    await a?.sb.close()
    await b?.sb.close()
  })

  it(
    'adds both with 2FA, switches, signs in with a recovery code, impersonates and signs out',
    {
      timeout: 240_000,
    },
    async () => {
      const page = await browser.newPage()
      const problems = watchPage(page)
      // The page's clock runs as usual but can be moved on: the SMS cooldown below passes
      // without waiting it out (the service's clock is moved on with it).
      await page.clock.install()
      await app.open(page)

      // 1. Alpha on sandbox A as the administrator: authenticator-app code, a wrong one first
      await page.getByTestId('add-account-button').first().click()
      let from = a.lines.length
      await submitNewAccount(page, {
        label: 'Alpha',
        baseUrl: a.sb.baseUrl,
        apiKey: a.sb.apiKey,
        username: 'admin@sandbox.test',
      })
      await page.getByTestId('second-factor-step').waitFor(WAIT)
      await chooseMethod(page, 'app')
      const appCode = await nextOtp(a.lines, 'admin@sandbox.test', from)
      await enterCode(page, wrongCodeFor(appCode))
      const error = page.getByTestId('second-factor-error')
      await error.waitFor(WAIT)
      expect(await error.textContent()).toMatch(/not correct/)
      await expect.poll(() => field(page, 'second-factor-code').inputValue()).toBe('')
      // the step puts the caret back into the emptied field for the retry
      const refocused = await waitForFocus(field(page, 'second-factor-code'), 5_000).then(
        () => 'yes',
        (err: Error) => err.message,
      )
      expect.soft(refocused, 'focus back in the code field after a wrong code').toBe('yes')
      await field(page, 'second-factor-code').click()
      await enterCode(page, appCode)
      await page.getByTestId('add-account-dialog').waitFor({ state: 'hidden', ...WAIT })
      await expect.poll(() => page.title(), WAIT).toBe('Alpha — ScanDesk')
      await expect.poll(async () => (await shown(page)).topBar, WAIT).toContain('Alpha')

      // 2. Bravo on sandbox B as the SMS user: send, masked phone and countdown, then the code
      await openSwitcher(page)
      await page.getByTestId('account-switcher-panel').getByTestId('add-account-button').click()
      await submitNewAccount(page, {
        label: 'Bravo',
        baseUrl: b.sb.baseUrl,
        apiKey: b.sb.apiKey,
        username: 'sms@sandbox.test',
      })
      await page.getByTestId('second-factor-step').waitFor(WAIT)
      await chooseMethod(page, 'sms')
      // SMS is this user's default method: the service texted a code with the sign-in, so the
      // step says so and offers "Resend" only after a visible cooldown.
      await page.getByTestId('sms-sent-at-sign-in').waitFor(WAIT)
      await page.getByTestId('sms-countdown').waitFor(WAIT)
      expect(await page.getByTestId('sms-countdown').innerText()).toMatch(/\d+ s|\d+:\d\d/)
      expect(await page.getByTestId('sms-resend').isDisabled()).toBe(true)
      // The cooldown passes without waiting it out: the page's clock moves past ScanDesk's 30 s
      // and sandbox B's past its own (before that it refuses a resend: a 429 the step shows).
      b.sb.advanceClock(SMS_COOLDOWN_MS + 1_000)
      await page.clock.fastForward(31_000)
      await page.getByTestId('sms-countdown').waitFor({ state: 'hidden', ...WAIT })
      expect(await page.getByTestId('sms-resend').isDisabled()).toBe(false)
      from = b.lines.length
      await page.getByTestId('sms-resend').click()
      const phone = page.getByTestId('sms-phone')
      await phone.waitFor(WAIT)
      await page.getByTestId('sms-countdown').waitFor(WAIT)
      expect(await phone.innerText()).toMatch(/•+.*8750/)
      expect(await phone.innerText()).not.toContain('2071838750')
      expect(await page.getByTestId('sms-resend').isDisabled()).toBe(true)
      const smsCode = await nextOtp(b.lines, 'sms@sandbox.test', from)
      await enterCode(page, smsCode)
      await page.getByTestId('add-account-dialog').waitFor({ state: 'hidden', ...WAIT })
      await expect.poll(() => page.title(), WAIT).toBe('Bravo — ScanDesk')

      const alpha = await accountIdByLabel(page, 'Alpha')
      const bravo = await accountIdByLabel(page, 'Bravo')
      const order = await accountIdsInSwitcher(page)
      expect(order).toHaveLength(2)

      // 3. switching: one click to Alpha, the keyboard shortcut to Bravo; the guard holds
      await page.getByTestId(`account-switch-${alpha}`).click()
      await expect.poll(() => page.title(), WAIT).toBe('Alpha — ScanDesk')
      await expect
        .poll(async () => page.getByTestId('account-switcher-label').innerText(), WAIT)
        .toBe('Alpha')
      await closeSwitcher(page)
      await page.keyboard.press(`Control+${order.indexOf(bravo) + 1}`)
      await expect.poll(() => page.title(), WAIT).toBe('Bravo — ScanDesk')
      await expect
        .poll(async () => page.getByTestId('account-switcher-label').innerText(), WAIT)
        .toBe('Bravo')
      expect((await shown(page)).topBar).not.toContain('Alpha')
      await page.keyboard.press(`Control+${order.indexOf(alpha) + 1}`)
      await expect.poll(() => page.title(), WAIT).toBe('Alpha — ScanDesk')
      expect((await shown(page)).topBar).not.toContain('Bravo')

      // 4. sign out of Alpha, sign in again with a recovery code
      await accountAction(page, alpha, `sign-out-${alpha}`)
      await page.getByTestId('sign-out-submit').click()
      await page.getByTestId('sign-out-dialog').waitFor({ state: 'hidden', ...WAIT })
      await expect.poll(() => rowText(page, alpha), WAIT).toContain('signed out')
      expect(await rowText(page, bravo)).not.toContain('signed out')
      await accountAction(page, alpha, `sign-in-${alpha}`)
      await page.getByTestId('sign-in-dialog').waitFor(WAIT)
      await waitForFocus(field(page, 'sign-in-password'))
      await field(page, 'sign-in-password').fill(PASSWORD)
      await page.getByTestId('sign-in-submit').click()
      await page.getByTestId('second-factor-step').waitFor(WAIT)
      await chooseMethod(page, 'recovery')
      await enterCode(page, FIXTURES.adminRecoveryCode)
      await page.getByTestId('sign-in-dialog').waitFor({ state: 'hidden', ...WAIT })
      await expect.poll(() => rowText(page, alpha), WAIT).not.toContain('signed out')
      await closeSwitcher(page)

      // 5. impersonate from Alpha: the banner on every screen, gone after Stop
      await accountAction(page, alpha, 'impersonate-open')
      await page.getByTestId('impersonate-dialog').waitFor(WAIT)
      await page.getByTestId('impersonate-choice').first().waitFor(WAIT)
      await field(page, 'impersonate-user').fill('analyst@sandbox.test')
      await page.getByTestId('impersonate-submit').click()
      const banner = page.getByTestId('impersonation-banner')
      await banner.waitFor(WAIT)
      expect(await banner.innerText()).toContain('analyst@sandbox.test')
      expect(await banner.innerText()).toContain('Alpha')
      expect(await page.getByTestId('upcoming-scans-panel').count()).toBe(1)
      await goToScreen(page, '#/reports')
      await expect.poll(() => page.title(), WAIT).toBe('Alpha — ScanDesk')
      await page.getByTestId('reports-table').waitFor(WAIT)
      await banner.waitFor(WAIT)
      expect(await banner.innerText()).toContain('analyst@sandbox.test')
      await page.getByTestId('impersonation-stop').click()
      await banner.waitFor({ state: 'hidden', ...WAIT })
      expect(await rowText(page, alpha)).not.toContain('acting as')
      await closeSwitcher(page)

      // 6. sign out of Bravo: Bravo signed out, Alpha still signed in
      await accountAction(page, bravo, `sign-out-${bravo}`)
      await page.getByTestId('sign-out-submit').click()
      await page.getByTestId('sign-out-dialog').waitFor({ state: 'hidden', ...WAIT })
      await expect.poll(() => rowText(page, bravo), WAIT).toContain('signed out')
      expect(await rowText(page, alpha)).not.toContain('signed out')
      await page.getByTestId(`account-switch-${bravo}`).click()
      await expect.poll(() => page.title(), WAIT).toBe('Bravo — ScanDesk')
      await expect.poll(async () => (await shown(page)).topBar, WAIT).toContain('signed out')
      expect((await shown(page)).topBar).not.toContain('Alpha')
      // ...and Alpha's session still works: its dashboard loads live data
      await goToScreen(page, '#/dashboard')
      await page.getByTestId('upcoming-scans-panel').waitFor(WAIT)
      await closeSwitcher(page)
      await page.keyboard.press(`Control+${order.indexOf(alpha) + 1}`)
      await expect.poll(() => page.title(), WAIT).toBe('Alpha — ScanDesk')
      await page.getByTestId('upcoming-scan-row').first().waitFor(WAIT)
      expect(await page.getByTestId('upcoming-scans-error').count()).toBe(0)

      expect(problems.filter((p) => p.startsWith('pageerror'))).toEqual([])
    },
  )
})
