// The setup the benchmarks in Chromium share: the sandbox (large seed unless smoke), browser mode,
// Debian's Chromium with a page holding the benchmark's own script, and an account on the sandbox.
import type { Browser, Page } from 'playwright-core'
import { startSandbox } from '../sandbox/server'
import {
  addAccountThroughUi,
  launchChromium,
  startBrowserMode,
  watchPage,
  type BrowserMode,
} from '../tests/e2e/browser-mode'
import { SMOKE } from './proc'

export interface BenchApp {
  seed: 'default' | 'large'
  app: BrowserMode
  browser: Browser
  page: Page
  /** Console errors and failed requests of the page. */
  problems: string[]
  /** Closes Chromium, browser mode and the sandbox. */
  close(): Promise<void>
}

/** Starts everything and signs the page in as the analyst; `script` runs before the app's. */
export async function openBenchApp(script: string): Promise<BenchApp> {
  const seed = SMOKE ? 'default' : 'large'
  const sandbox = await startSandbox({ port: 0, seedScale: seed, log: () => undefined })
  const app = await startBrowserMode()
  const browser = await launchChromium()
  const close = async () => {
    await browser.close()
    await app.stop()
    await sandbox.close()
  }
  try {
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } })
    const problems = watchPage(page)
    await page.addInitScript(script)
    await app.open(page)
    await addAccountThroughUi(page, {
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      username: 'analyst@sandbox.test',
      password: 'sandbox-password',
      label: 'Bench',
    })
    return { seed, app, browser, page, problems, close }
  } catch (err) {
    await close()
    throw err
  }
}
