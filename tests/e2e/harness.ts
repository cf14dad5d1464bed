// Shared pieces of the end-to-end journeys: browser mode started as a user starts it (a child
// process printing its URL) and Debian's Chromium driven by playwright-core.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'

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

/** A running browser-mode app. */
export interface BrowserMode {
  url: string
  dataDir: string
  output: () => string
  stop(): Promise<void>
}

/**
 * Starts `npm run browser` equivalent with --no-open on a free port; resolves with its printed URL.
 * With `dataDir` the local store is kept there (and kept after stop, for restart journeys).
 */
export async function startBrowserMode(
  extraArgs: string[] = [],
  options: { dataDir?: string } = {},
): Promise<BrowserMode> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'scandesk-e2e-'))
  const child: ChildProcess = spawn(
    process.execPath,
    [
      join('node_modules', 'tsx', 'dist', 'cli.mjs'),
      'electron/core/browser/cli.ts',
      '--no-open',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      ...extraArgs,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env } },
  )
  let out = ''
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`browser mode did not start:\n${out}`)), 60_000)
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve(m[1])
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`browser mode exited with ${code}:\n${out}`))
    })
  })
  return {
    url,
    dataDir,
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
  await page.getByTestId('add-account-button').first().click()
  await page.getByTestId('add-account-dialog').waitFor()
  await field(page, 'field-label').fill(account.label)
  await field(page, 'field-base-url').fill(account.baseUrl)
  await field(page, 'field-api-key').fill(account.apiKey)
  await field(page, 'field-username').fill(account.username)
  await field(page, 'field-password').fill(account.password)
  await page.getByTestId('add-account-submit').click()
  await page.getByTestId('add-account-dialog').waitFor({ state: 'hidden', timeout: 30_000 })
}
