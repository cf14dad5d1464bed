// Journeys that lose the service: the sandbox behind a TCP relay that can be cut, browser mode on
// a data folder of the test's, and the worker's Chromium — started before the file's tests, stopped after.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { startSandbox, type RunningSandbox } from '../../sandbox/server'
import { startRelay, type Relay } from '../support/relay'
import {
  addAccountThroughUi,
  closeContexts,
  sharedChromium,
  startBrowserMode,
  type BrowserMode,
} from './harness'

/** What a relayed journey runs on (filled in before its tests; `app` may be restarted). */
export interface RelayedJourney {
  sandbox: RunningSandbox
  relay: Relay
  app: BrowserMode
  browser: Browser
}

/** Registers the start and stop of a relayed journey whose store lives in `dataDir`. */
export function useRelayedJourney(dataDir: string): RelayedJourney {
  const j = {} as RelayedJourney
  beforeAll(async () => {
    j.sandbox = await startSandbox({ port: 0, testMode: true, log: () => undefined })
    j.relay = await startRelay(j.sandbox.port)
    j.app = await startBrowserMode([], { dataDir })
    j.browser = await sharedChromium()
  })
  afterAll(async () => {
    await closeContexts(j.browser)
    await j.app?.stop()
    await j.relay?.close()
    await j.sandbox?.close()
  })
  return j
}

/** Opens the app and adds a sandbox user's account through the relay, as a user would. */
export async function addRelayedAccount(
  page: Page,
  j: RelayedJourney,
  label: string,
  username: string,
): Promise<void> {
  await j.app.open(page)
  await addAccountThroughUi(page, {
    label,
    baseUrl: j.relay.url,
    apiKey: j.sandbox.apiKey,
    username,
    password: 'sandbox-password',
  })
}
