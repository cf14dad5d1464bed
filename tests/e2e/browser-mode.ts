// Browser mode started as a user starts it (a child process printing its URL), Debian's Chromium
// driven by playwright-core, and the waits the journeys share. Free of Vitest, so the benchmarks
// use it too; tests/e2e/harness.ts re-exports it with the journeys' own helpers.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type Page, type Request } from 'playwright-core'

export const CHROMIUM = '/usr/bin/chromium'

/** Flags Chromium needs on our machines (closed network, root, no GPU). */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

// A launch address on a whole printed line (a chunk may end in the middle of its token).
const LAUNCH_URL = /http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+(?=\r?\n)/g

/** A running browser-mode app. */
export interface BrowserMode {
  /** http://127.0.0.1:<port>/ — for `new URL('#/…', app.origin)` once a page has a session. */
  origin: string
  /** A launch address nobody used yet (each works once): the printed one, then fresh ones. */
  launchUrl(): Promise<string>
  /** Opens the app in `page` through a fresh launch address and waits until it is at `/`. */
  open(page: Page): Promise<void>
  /** Loads `<origin>/#/<route>` in full in a page that has a session (not a hash-only change). */
  goto(page: Page, route: string): Promise<void>
  dataDir: string
  /** The browser-mode process (for its memory in the benchmarks). */
  pid: number
  output: () => string
  stop(): Promise<void>
}

let browserModeBundle: string | null = null

/**
 * Starts browser mode from `file`, scripts/browser-cli.ts bundled into one JavaScript module, from
 * now on (null: from its TypeScript sources through tsx again). The bundle spares each start
 * tsx's loader and the transform of every source file: about a second of a start's three.
 */
export function useBrowserModeBundle(file: string | null): void {
  browserModeBundle = file
}

/**
 * Starts `npm run browser` equivalent with --no-open on a free port; resolves once it printed its
 * launch address. Fresh addresses are asked for on its stdin (`launch-url`), as only the parent can.
 * With `dataDir` the local store is kept there (and kept after stop, for restart journeys).
 */
export async function startBrowserMode(
  extraArgs: string[] = [],
  options: { dataDir?: string; env?: Record<string, string> } = {},
): Promise<BrowserMode> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'scandesk-e2e-'))
  // The run's bundle of browser mode when there is one (the journeys' global setup makes it), else
  // tsx as Node's loader, as its command line runs it, without that command's relaying parent
  // process (one Node start less per journey).
  const entry =
    browserModeBundle && existsSync(browserModeBundle)
      ? [browserModeBundle]
      : ['--import', './node_modules/tsx/dist/loader.mjs', 'scripts/browser-cli.ts']
  const child: ChildProcess = spawn(
    process.execPath,
    [...entry, '--no-open', '--port', '0', '--data-dir', dataDir, ...extraArgs],
    { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...options.env } },
  )
  let out = ''
  let used = 0
  const launchUrls = () => [...out.matchAll(LAUNCH_URL)].map((m) => m[0])
  /** Resolves with the next launch address not handed out yet, waiting for it to be printed. */
  const nextLaunchUrl = (timeoutMs: number) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const urls = launchUrls()
        if (urls.length <= used) return false
        finish()
        resolve(urls[used++])
        return true
      }
      const onExit = (code: number | null) => {
        finish()
        reject(new Error(`browser mode exited with ${code}:\n${out}`))
      }
      const timer = setTimeout(() => {
        finish()
        reject(new Error(`browser mode printed no launch address:\n${out}`))
      }, timeoutMs)
      const finish = () => {
        clearTimeout(timer)
        child.stdout?.off('data', onData)
        child.off('exit', onExit)
      }
      const onData = () => void check()
      if (check()) return
      child.stdout?.on('data', onData)
      child.once('exit', onExit)
    })
  child.stdin?.on('error', () => undefined) // the child may be gone when we ask
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()))
  const first = await nextLaunchUrl(60_000)
  let pending: string | null = first
  const origin = `${new URL(first).origin}/`
  const launchUrl = async () => {
    if (pending !== null) {
      const url = pending
      pending = null
      return url
    }
    child.stdin?.write('launch-url\n')
    return nextLaunchUrl(10_000)
  }
  return {
    origin,
    launchUrl,
    async open(page) {
      await page.goto(await launchUrl())
      // the exchange page hops to `/` (the token leaves the address bar)
      await page.waitForURL((url) => url.pathname === '/' && url.search === '', { timeout: 30_000 })
    },
    async goto(page, route) {
      // From `/#/a`, going to `/#/b` only changes the hash; the journeys mean a fresh page load
      // (as when the token was in every address), so leave the document first.
      await page.goto('about:blank')
      await page.goto(new URL(`#/${route}`, origin).toString())
    },
    dataDir,
    pid: child.pid ?? 0,
    output: () => out,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
        await exited
        clearTimeout(timer)
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Launches headless Chromium; under CI a missing Chromium is a failure, not a skip. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium is not installed at ${CHROMIUM} (apt-get install chromium)`)
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS })
}

/** Collects console errors and failed requests of a page, for clearer failures. */
export function watchPage(page: Page): string[] {
  trackRequests(page)
  const problems: string[] = []
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`))
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`)
  })
  return problems
}

/** An input of an Element Plus field by its data-testid (on the input or its wrapper). */
export function field(page: Page, id: string) {
  return page.locator(`input[data-testid="${id}"], [data-testid="${id}"] input`).first()
}

/** Adds an account for `baseUrl` through the add-account dialog and waits for the dashboard. */
export async function addAccountThroughUi(
  page: Page,
  account: { baseUrl: string; apiKey: string; username: string; password: string; label: string },
): Promise<void> {
  // The welcome page's button, or the account switcher's (open it first) once there are accounts.
  await page.getByTestId('add-account-button').filter({ visible: true }).first().click()
  await page.getByTestId('add-account-dialog').waitFor()
  await field(page, 'field-label').fill(account.label)
  await field(page, 'field-base-url').fill(account.baseUrl)
  await field(page, 'field-api-key').fill(account.apiKey)
  await field(page, 'field-username').fill(account.username)
  await field(page, 'field-password').fill(account.password)
  await page.getByTestId('add-account-submit').click()
  await page.getByTestId('add-account-dialog').waitFor({ state: 'hidden', timeout: 30_000 })
}

/**
 * The generic list of `resource` once what it shows is final: its page of rows (or its refusal)
 * is in for the account and the writes it offers no longer wait for the user's permissions
 * (`data-state="ready"` on ResourceTable). With `account`, only that account's list counts (after
 * a switch the previous account's list may still be on screen). Never "any row": the previous
 * route's rows must not satisfy it.
 */
export async function waitForList(
  page: Page,
  resource: string,
  options: { account?: string; state?: 'ready' | 'error'; timeout?: number } = {},
) {
  const account = options.account ? `[data-account="${options.account}"]` : ''
  const table = page
    .locator(
      `.resource-table[data-resource="${resource}"]${account}[data-state="${options.state ?? 'ready'}"]`,
    )
    .filter({ visible: true })
  try {
    await table.waitFor({ timeout: options.timeout ?? 30_000 })
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${await listsOnScreen(page)}`, { cause: error })
  }
  return table
}

/** The search box of the list on screen (the test id lands on Element Plus' inner input). */
export const searchBox = (page: Page) =>
  page.locator('input[data-testid="resource-search"], [data-testid="resource-search"] input')

/**
 * Types `text` into the search of the list of `resource` on screen and returns that list once it
 * shows the service's answer to that search: the address carries the search (the list sends it
 * after the typing pause and keeps it there) and the list is final again. A row found next is
 * one of the answer's, never one of the unsearched rows about to be replaced under the pointer.
 */
export async function searchList(
  page: Page,
  resource: string,
  text: string,
  options: { account?: string } = {},
) {
  await searchBox(page).fill(text)
  const searched = (url: URL) =>
    new URLSearchParams(url.hash.split('?')[1] ?? '').get('search') === text.trim()
  await page.waitForURL(searched, { timeout: 30_000 })
  return waitForList(page, resource, options)
}

/** The page's requests still waiting for their answer, with what each asked and since when. */
const inFlight = new WeakMap<Page, Map<Request, { since: number; what: string }>>()

function trackRequests(page: Page): void {
  if (inFlight.has(page)) return
  const open = new Map<Request, { since: number; what: string }>()
  inFlight.set(page, open)
  page.on('request', (request) => {
    const body = request.postData() ?? ''
    const what = `${request.method()} ${new URL(request.url()).pathname} ${body.slice(0, 160)}`
    open.set(request, { since: Date.now(), what })
  })
  page.on('requestfinished', (request) => open.delete(request))
  page.on('requestfailed', (request) => open.delete(request))
}

/** What the page shows instead, for a wait that timed out: its address, lists and alerts. */
async function listsOnScreen(page: Page): Promise<string> {
  const lists = await page
    .locator('.resource-table')
    .evaluateAll((els) =>
      els.map((el) =>
        ['resource', 'account', 'state', 'waiting']
          .map((k) => `${k}=${el.getAttribute(`data-${k}`)}`)
          .join(' '),
      ),
    )
    .catch(() => [])
  const alerts = await page
    .locator('.el-alert, .el-message, .el-dialog__header')
    .allInnerTexts()
    .catch(() => [])
  const waiting = [...(inFlight.get(page)?.values() ?? [])].map(
    (r) => `  waiting ${Math.round((Date.now() - r.since) / 1000)} s for ${r.what}`,
  )
  return [
    `on screen at ${page.url()}:`,
    ...waiting,
    ...lists.map((l) => `  list ${l}`),
    ...alerts.map((a) => `  alert ${a.replace(/\s+/g, ' ')}`),
  ].join('\n')
}

/**
 * Opens a group from the sidebar and waits for its list of `resource` (the group's own by
 * default): the route is the group's and the list is final (waitForList).
 */
export async function openGroupList(
  page: Page,
  group: string,
  options: { resource?: string; account?: string } = {},
) {
  await page.locator(`[data-testid="nav-group"][data-group="${group}"]`).click()
  const path = `#/${group.replace(/_/g, '-')}`
  await page.waitForURL((url) => url.hash === path || url.hash.startsWith(`${path}?`), {
    timeout: 30_000,
  })
  return waitForList(page, options.resource ?? group, { account: options.account })
}
