import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchChromium, startBrowserMode, watchPage, type BrowserMode } from './harness'

describe('trying the demo service', () => {
  let app: BrowserMode
  let browser: Browser

  beforeAll(async () => {
    app = await startBrowserMode()
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
    await app?.stop()
  })

  it('signs in to the embedded sandbox and shows live upcoming scans, limited as chosen', async () => {
    const page = await browser.newPage()
    const problems = watchPage(page)
    await page.goto(app.url)
    await page.getByTestId('welcome-demo-button').click()

    const rows = page.getByTestId('upcoming-scan-row')
    await rows.first().waitFor({ timeout: 30_000 })
    expect(await rows.count()).toBeGreaterThan(5) // the demo organisation has more than five
    await expect.poll(() => page.getByTestId('account-switcher').textContent()).toContain('Demo')

    // choose 5 in the limit select (Element Plus renders options in a popper)
    await page.getByTestId('upcoming-scans-limit').click()
    await page.locator('.el-select-dropdown__item:visible', { hasText: /^5$/ }).click()
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBeLessThanOrEqual(5)
    expect(await rows.count()).toBeGreaterThan(0)

    // the token went into an HttpOnly cookie, never into script-readable storage
    const storage = await page.evaluate(
      'JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie',
    )
    expect(String(storage)).not.toContain(new URL(app.url).searchParams.get('token'))
    expect(problems).toEqual([])
  })

  it('refuses a page request that does not carry the per-run token', async () => {
    const bare = new URL(app.url)
    bare.search = ''
    const res = await fetch(new URL('/bridge/call/accounts.list', bare), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(res.status).toBe(401)
  })
})
