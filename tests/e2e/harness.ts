// Shared pieces of the end-to-end journeys: browser mode and Chromium (browser-mode.ts, re-exported
// here), the account switcher, one-time codes, the demo journey's setup and a folder of its own.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, inject } from 'vitest'
import { findOtp } from '../support/otp'
import {
  launchChromium,
  startBrowserMode,
  useBrowserModeBundle,
  watchPage,
  type BrowserMode,
} from './browser-mode'

export * from './browser-mode'

// Every journey's browser mode starts from the run's bundle (tests/e2e/global-setup.ts).
useBrowserModeBundle(inject('browserModeBundle') ?? null)

/** Waits until the element (an input found by `field`, or any locator) has the keyboard focus. */
export async function waitForFocus(locator: ReturnType<Page['locator']>, timeout = 30_000) {
  const deadline = Date.now() + timeout
  for (;;) {
    const focused = await locator
      .evaluate((el: { matches(selector: string): boolean }) => el.matches(':focus'))
      .catch(() => false)
    if (focused) return
    if (Date.now() > deadline) {
      const active = await locator
        .page()
        .evaluate('document.activeElement ? document.activeElement.outerHTML.slice(0, 300) : null')
      throw new Error(`the field never got the keyboard focus; focused: ${String(active)}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * The newest one-time code logged by a sandbox for `email` (`[otp] <email>: <code>`) among the
 * lines logged at or after index `from`; waits (polling) until one appears.
 */
export async function nextOtp(
  lines: readonly string[],
  email: string,
  from: number,
  timeout = 30_000,
): Promise<string> {
  const deadline = Date.now() + timeout
  for (;;) {
    const code = findOtp(lines, email, from)
    if (code) return code
    if (Date.now() > deadline) throw new Error(`no one-time code logged for ${email}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * The switcher panel's state from its popper: 'moving' while its show/hide transition runs (the
 * switcher button carries no aria-expanded: Element Plus's popover trigger drops it).
 */
async function switcherState(page: Page): Promise<'open' | 'closed' | 'moving'> {
  return page.evaluate(`(() => {
    const el = document.querySelector('.account-switcher__popper')
    if (!el) return 'closed'
    if (/-(enter|leave)-(active|from|to)/.test(el.className)) return 'moving'
    return getComputedStyle(el).display === 'none' ? 'closed' : 'open'
  })()`) as Promise<'open' | 'closed' | 'moving'>
}

async function settledSwitcher(page: Page): Promise<'open' | 'closed'> {
  const deadline = Date.now() + 30_000
  for (;;) {
    const state = await switcherState(page)
    if (state !== 'moving') return state
    if (Date.now() > deadline) throw new Error('the account switcher never stopped moving')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * Clicks the switcher's button until its panel has settled `wanted`: a click the page took while
 * it re-rendered the top bar (an account list arriving, a banner going) can leave the panel as it
 * was, so a panel found settled the other way after a second is clicked again.
 */
async function switcherBecomes(page: Page, wanted: 'open' | 'closed'): Promise<void> {
  const deadline = Date.now() + 30_000
  let clickedAt = 0
  for (;;) {
    if ((await settledSwitcher(page)) === wanted) return
    if (Date.now() > deadline) throw new Error(`the account switcher did not become ${wanted}`)
    if (Date.now() - clickedAt > 1_000) {
      await page.getByTestId('account-switcher').click()
      clickedAt = Date.now()
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Opens the account switcher's panel (if closed) and waits until it has finished opening. */
export async function openSwitcher(page: Page): Promise<ReturnType<Page['locator']>> {
  await switcherBecomes(page, 'open')
  return page.getByTestId('account-switcher-panel')
}

/** Closes the account switcher's panel (if open) and waits until it has finished closing. */
export async function closeSwitcher(page: Page): Promise<void> {
  await switcherBecomes(page, 'closed')
}

/** The account ids in the switcher's order (from its `account-switch-<id>` rows). */
export async function accountIdsInSwitcher(page: Page): Promise<string[]> {
  const panel = await openSwitcher(page)
  const ids = await panel
    .locator('[data-testid^="account-switch-"]')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-testid') ?? ''))
  return ids.map((id) => id.slice('account-switch-'.length))
}

/** The switcher row (with its actions) of the account labelled `label`; returns its id. */
export async function accountIdByLabel(page: Page, label: string): Promise<string> {
  const panel = await openSwitcher(page)
  const row = panel.locator('[data-testid^="account-switch-"]', { hasText: label }).first()
  await row.waitFor({ timeout: 30_000 })
  const testid = (await row.getAttribute('data-testid')) ?? ''
  return testid.slice('account-switch-'.length)
}

/** Opens the action menu of an account in the switcher and clicks the action `actionTestId`. */
export async function accountAction(page: Page, accountId: string, actionTestId: string) {
  const panel = await openSwitcher(page)
  const menu = panel.getByTestId(`account-menu-${accountId}`)
  if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click()
  const deadline = Date.now() + 30_000
  while ((await menu.getAttribute('aria-expanded')) !== 'true') {
    if (Date.now() > deadline) throw new Error(`the actions of account ${accountId} did not open`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const action = panel.getByTestId(actionTestId)
  await action.waitFor({ timeout: 30_000 })
  await action.click()
}

/**
 * Picks `option` in the Element Plus select `select` (its element or one around it) with the
 * keyboard, as a user may: opens it, types `search` first if given (a filterable select), moves
 * down the list to the option and presses Enter. Not with a click on the option: the list is
 * placed after it shows, and on a busy machine the pointer pressed an option and let go over the
 * dialog behind once the list had moved (the choice was lost); arrows and Enter go to the list
 * wherever it stands.
 */
export async function chooseOption(
  select: Locator,
  option: string | RegExp,
  search?: string,
): Promise<void> {
  const page = select.page()
  const box = select.locator('[role="combobox"]')
  await select.click()
  if (search !== undefined) await page.keyboard.type(search)
  const listId = await box.getAttribute('aria-controls')
  const wanted = page.locator(`[id="${listId}"] .el-select-dropdown__item`, { hasText: option })
  await wanted.first().waitFor({ timeout: 30_000 })
  const id = await wanted.first().getAttribute('id')
  const items = await page.locator(`[id="${listId}"] .el-select-dropdown__item`).count()
  for (let step = 0; step <= items; step++) {
    if ((await box.getAttribute('aria-activedescendant')) === id) {
      await box.press('Enter')
      return
    }
    await box.press('ArrowDown')
  }
  throw new Error(`the arrows never reached the option ${String(option)} (id ${id})`)
}

/**
 * Chromium of this worker: launched by the first journey that asks and kept for the next files
 * (each e2e worker runs its files one after another and is not torn down between them; two
 * workers run side by side, each with its own Chromium), launched again if it went away. The
 * worker's journeys share it and nothing else: each works in browser contexts of its own
 * (`newPage`, `newContext`: a fresh profile each) and closeContexts() closes them after its tests.
 */
let workerChromium: Promise<Browser> | null = null

export async function sharedChromium(): Promise<Browser> {
  const running = await workerChromium?.catch(() => null)
  if (running?.isConnected()) return running
  workerChromium = launchChromium()
  return workerChromium
}

/** Closes every browser context of `browser` (the pages of the journey that ends). */
export async function closeContexts(browser: Browser | undefined): Promise<void> {
  if (!browser?.isConnected()) return
  await Promise.all(browser.contexts().map((context) => context.close()))
}

/** What a journey on the demo service works with (set once its `beforeAll` has run). */
export interface DemoJourney {
  app: BrowserMode
  browser: Browser
  page: Page
  /** Console errors and failed requests of the page (watchPage). */
  problems: string[]
}

/**
 * Browser mode with the demo signed in, in Chromium (the worker's, in a context of its own), for
 * the enclosing describe block: started in `beforeAll` (the dashboard's upcoming scans shown),
 * stopped in `afterAll`. `beforeOpen` runs
 * on the new page before the app opens (to watch its requests).
 */
export function useDemoJourney(
  options: { env?: Record<string, string>; beforeOpen?: (page: Page) => void } = {},
): DemoJourney {
  const j = {} as DemoJourney
  beforeAll(async () => {
    j.app = await startBrowserMode([], options.env ? { env: options.env } : {})
    j.browser = await sharedChromium()
    j.page = await j.browser.newPage()
    j.problems = watchPage(j.page)
    options.beforeOpen?.(j.page)
    await j.app.open(j.page)
    await j.page.getByTestId('welcome-demo-button').click()
    await j.page.getByTestId('upcoming-scan-row').first().waitFor({ timeout: 30_000 })
  })
  afterAll(async () => {
    await closeContexts(j.browser)
    await j.app?.stop()
  })
  return j
}

/**
 * A new empty folder for the enclosing describe block, by its real path (the one the app
 * reports): made in `beforeAll`, removed with its contents in `afterAll`. Read `.path` inside
 * tests and hooks.
 */
export function useTempFolder(prefix: string): { readonly path: string } {
  let folder = ''
  beforeAll(() => {
    folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))
  })
  afterAll(() => {
    if (folder) fs.rmSync(folder, { recursive: true, force: true })
  })
  return {
    get path() {
      if (!folder) throw new Error('the folder is made in beforeAll: read it inside tests')
      return folder
    },
  }
}
