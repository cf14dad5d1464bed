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
    const launch = await app.launchUrl()
    await page.goto(launch)
    await page.waitForURL((url) => url.pathname === '/' && url.search === '')
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

    // the token left the address bar; the session is an HttpOnly cookie named for this run,
    // never in script-readable storage
    const storage = await page.evaluate(
      'JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie',
    )
    expect(String(storage)).not.toContain(new URL(launch).searchParams.get('token'))
    expect(String(storage)).not.toContain('scandesk-')
    const cookies = await page.context().cookies()
    expect(
      cookies.map((c) => [c.name.split('-').slice(0, 2).join('-'), c.httpOnly, c.sameSite]),
    ).toEqual([[`scandesk-${new URL(app.origin).port}`, true, 'Strict']])
    expect(cookies[0].value).not.toBe(new URL(launch).searchParams.get('token'))
    expect(problems).toEqual([])

    // the launch address worked once: another browser context is refused with it
    const other = await browser.newPage()
    const again = await other.goto(launch)
    expect(again?.status()).toBe(401)
    expect(await other.context().cookies()).toEqual([])
    await other.close()
  })

  it('refuses a bridge call without the session cookie, and a token on the bridge', async () => {
    const res = await fetch(new URL('/bridge/call/accounts.list', app.origin), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(res.status).toBe(401)
    const token = new URL(await app.launchUrl()).searchParams.get('token')
    const withToken = await fetch(
      new URL(`/bridge/call/accounts.list?token=${token}`, app.origin),
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      },
    )
    expect(withToken.status).toBe(400)
  })
})
