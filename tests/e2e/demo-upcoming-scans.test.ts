import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  accountAction,
  accountIdByLabel,
  chooseOption,
  closeContexts,
  sharedChromium,
  startBrowserMode,
  watchPage,
  type BrowserMode,
} from './harness'

describe('trying the demo service', () => {
  let app: BrowserMode
  let browser: Browser

  beforeAll(async () => {
    app = await startBrowserMode()
    browser = await sharedChromium()
  })

  afterAll(async () => {
    await closeContexts(browser)
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
    await chooseOption(page.getByTestId('upcoming-scans-limit'), /^5$/)
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBeLessThanOrEqual(5)
    expect(await rows.count()).toBeGreaterThan(0)

    // the token left the address bar; the session is an HttpOnly cookie named for this run,
    // never in script-readable storage; the page key is in this tab's sessionStorage only
    const cookies = await page.context().cookies()
    expect(
      cookies.map((c) => [c.name.split('-').slice(0, 2).join('-'), c.httpOnly, c.sameSite]),
    ).toEqual([[`scandesk-${new URL(app.origin).port}`, true, 'Strict']])
    expect(cookies[0].value).not.toBe(new URL(launch).searchParams.get('token'))
    const storage = String(
      await page.evaluate(
        'JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie',
      ),
    )
    expect(storage).not.toContain(new URL(launch).searchParams.get('token'))
    expect(storage).not.toContain(cookies[0].name)
    expect(storage).not.toContain(cookies[0].value)
    const pageKey = String(await page.evaluate("sessionStorage.getItem('scandesk-bridge-key')"))
    expect(pageKey).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(String(await page.evaluate('JSON.stringify({ ...localStorage })'))).not.toContain(
      pageKey,
    )
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

  it('opens the bridge to the page’s key, not to its cookie alone; a reload and the account tab keep it', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const problems = watchPage(page)
    await app.open(page)
    // the demo account the first journey added: its dashboard
    await page.getByTestId('upcoming-scan-row').first().waitFor({ timeout: 30_000 })

    // what another server on 127.0.0.1 receives from this browser: the cookie. Replayed with
    // no Origin or the page's own, it opens nothing.
    const [cookie] = await context.cookies()
    const jar = `${cookie.name}=${cookie.value}`
    const call = (headers: Record<string, string> = {}) =>
      fetch(new URL('/bridge/call/accounts.list', app.origin), {
        method: 'POST',
        headers: { cookie: jar, 'content-type': 'application/json', ...headers },
        body: '{}',
      })
    const stream = (headers: Record<string, string> = {}) =>
      fetch(new URL('/bridge/events', app.origin), { headers: { cookie: jar, ...headers } })
    const origin = app.origin.replace(/\/$/, '')
    for (const headers of [{}, { origin }] as Record<string, string>[]) {
      const refused = await call(headers)
      expect(refused.status).toBe(401)
      expect(await refused.text()).toMatch(/no key/)
      const noStream = await stream(headers)
      expect(noStream.status).toBe(401)
      await noStream.body?.cancel()
    }
    // the page's script holds the key that opens it
    const pageKey = String(await page.evaluate("sessionStorage.getItem('scandesk-bridge-key')"))
    const keyed = await call({ 'x-scandesk-key': pageKey })
    expect(keyed.status).toBe(200)
    expect(((await keyed.json()) as { ok: boolean }).ok).toBe(true)

    // a reload keeps the key (sessionStorage lives as long as the tab)
    await page.reload()
    await page.getByTestId('upcoming-scan-row').first().waitFor({ timeout: 30_000 })

    // the account's own tab, opened by ScanDesk, gets a copy of this tab's storage
    const demoId = await accountIdByLabel(page, 'Demo service')
    const popup = context.waitForEvent('page')
    await accountAction(page, demoId, 'account-window-open')
    const accountTab = await popup
    await accountTab.getByTestId('upcoming-scan-row').first().waitFor({ timeout: 30_000 })
    expect(new URL(accountTab.url()).searchParams.get('account')).toBe(demoId)

    // a tab the user opens by hand has the cookie but no key: it says what to do
    const typed = await context.newPage()
    await typed.goto(app.origin)
    const unreachable = typed.getByTestId('app-unreachable')
    await unreachable.waitFor({ timeout: 30_000 })
    expect(await unreachable.textContent()).toMatch(/This tab has no key.*new launch address/)

    expect(problems).toEqual([])
    await context.close()
  })
})
