import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type RunningSandbox } from '../../sandbox/server'
import {
  accountAction,
  accountIdByLabel,
  closeContexts,
  field,
  sharedChromium,
  startBrowserMode,
  waitForFocus,
  type BrowserMode,
} from './harness'

const WAIT = { timeout: 30_000 }

/** Everything the renderer can hold, as text: storages, IndexedDB, cookie, DOM, Pinia state. */
interface RendererDump {
  localStorage: string
  sessionStorage: string
  indexedDb: string
  indexedDbNames: string[]
  cookie: string
  dom: string
  pinia: string
}

/**
 * Page-side script (a string: the node-side type check has no DOM types): reads every store of
 * every IndexedDB database, both storages, the cookie, the DOM and the Pinia state.
 */
const DUMP_SCRIPT = `(async () => {
  const dbs = {}
  for (const info of await indexedDB.databases()) {
    if (!info.name) continue
    const db = await new Promise((resolve, reject) => {
      const req = indexedDB.open(info.name)
      req.onsuccess = () => resolve(req.result)
      req.onerror = () => reject(req.error)
    })
    const stores = {}
    for (const store of Array.from(db.objectStoreNames)) {
      stores[store] = await new Promise((resolve, reject) => {
        const tx = db.transaction(store, 'readonly')
        const keys = tx.objectStore(store).getAllKeys()
        const values = tx.objectStore(store).getAll()
        tx.oncomplete = () => resolve([keys.result, values.result])
        tx.onerror = () => reject(tx.error)
      })
    }
    db.close()
    dbs[info.name] = stores
  }
  const all = (storage) => {
    const out = {}
    for (let i = 0; i < storage.length; i++) out[storage.key(i)] = storage.getItem(storage.key(i))
    return JSON.stringify(out)
  }
  const pinia = document.querySelector('#app')?.__vue_app__?.config.globalProperties.$pinia
  return {
    localStorage: all(localStorage),
    sessionStorage: all(sessionStorage),
    indexedDb: JSON.stringify(dbs),
    indexedDbNames: Object.keys(dbs),
    cookie: document.cookie,
    dom: document.documentElement.outerHTML,
    pinia: pinia ? JSON.stringify(pinia.state.value) : '',
  }
})()`

/** Page-side script: stores `text` in a probe database, to prove the reader above sees it. */
const probeScript = (text: string) => `new Promise((resolve, reject) => {
  const req = indexedDB.open('canary-probe', 1)
  req.onupgradeneeded = () => req.result.createObjectStore('probe')
  req.onerror = () => reject(req.error)
  req.onsuccess = () => {
    const tx = req.result.transaction('probe', 'readwrite')
    tx.objectStore('probe').put({ text: ${JSON.stringify(text)} }, 'label')
    tx.oncomplete = () => { req.result.close(); resolve(true) }
    tx.onerror = () => reject(tx.error)
  }
})`

async function dumpRenderer(page: Page): Promise<RendererDump> {
  return (await page.evaluate(DUMP_SCRIPT)) as RendererDump
}

/** Every file under `dir`, recursively, as raw bytes read as latin1 text. */
function filesUnder(dir: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...filesUnder(path))
    else out.push({ path, text: readFileSync(path).toString('latin1') })
  }
  return out
}

describe('an API key never reaches the renderer', () => {
  const marker = `canary-${randomUUID()}`
  const label = `Canary ${randomUUID().slice(0, 8)}`
  let sandbox: RunningSandbox
  let app: BrowserMode
  let browser: Browser

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, apiKey: marker, log: () => undefined })
    app = await startBrowserMode()
    browser = await sharedChromium()
  })

  afterAll(async () => {
    await closeContexts(browser)
    await app?.stop()
    await sandbox?.close()
  })

  it('keeps the marked key out of storage, IndexedDB, the DOM, Pinia and every bridge answer', async () => {
    const page = await browser.newPage()
    const requests: string[] = []
    const responses: { url: string; body: string }[] = []
    const pending: Promise<void>[] = []
    page.on('request', (req) => {
      if (req.url().includes('/bridge/')) requests.push(req.postData() ?? '')
    })
    page.on('response', (res) => {
      const url = res.url()
      if (!url.includes('/bridge/call/')) return
      pending.push(
        res.text().then(
          (body) => void responses.push({ url, body }),
          (err: Error) => void responses.push({ url, body: `<unreadable: ${err.message}>` }),
        ),
      )
    })
    // The event stream never ends, so its body is read message by message over CDP.
    const events: string[] = []
    const cdp = await page.context().newCDPSession(page)
    cdp.on('Network.eventSourceMessageReceived', (e) => events.push(`${e.eventName}: ${e.data}`))
    await cdp.send('Network.enable')

    await app.open(page)
    await page.getByTestId('add-account-button').first().click()
    await page.getByTestId('add-account-dialog').waitFor(WAIT)
    await waitForFocus(field(page, 'field-label'))
    await field(page, 'field-label').fill(label)
    await field(page, 'field-base-url').fill(sandbox.baseUrl)
    await field(page, 'field-api-key').fill(marker)
    await field(page, 'field-username').fill('analyst@sandbox.test')
    await field(page, 'field-password').fill('sandbox-password')
    await expect.poll(() => field(page, 'field-label').inputValue()).toBe(label)
    await page.getByTestId('add-account-submit').click()
    await page.getByTestId('add-account-dialog').waitFor({ state: 'hidden', ...WAIT })

    // use the app a bit: the dashboard, My account, the settings dialog's connection test
    await page.getByTestId('upcoming-scan-row').first().waitFor(WAIT)
    await app.goto(page, 'user')
    await page.getByTestId('user-account').waitFor(WAIT)
    await page.getByTestId('user-tabs').waitFor(WAIT)
    const id = await accountIdByLabel(page, label)
    await accountAction(page, id, 'account-settings-open')
    await page.getByTestId('account-settings-dialog').waitFor(WAIT)
    await page.getByTestId('account-test').click()
    const result = page.getByTestId('account-test-result')
    await result.waitFor(WAIT)
    expect(await result.innerText()).toMatch(/API key accepted: yes/)
    await app.goto(page, 'dashboard')
    await page.getByTestId('upcoming-scan-row').first().waitFor(WAIT)

    // a probe database proves the IndexedDB reader reads what is stored
    await page.evaluate(probeScript(label))

    await Promise.all(pending)
    const dump = await dumpRenderer(page)
    await cdp.detach()

    // the checks can see: the key went out once (the add request), the label is everywhere
    expect(requests.some((body) => body.includes(marker))).toBe(true)
    expect(dump.pinia).toContain(label)
    expect(dump.dom).toContain(label)
    expect(dump.indexedDb).toContain(label)
    expect(responses.some((r) => r.url.endsWith('/accounts.list') && r.body.includes(label))).toBe(
      true,
    )
    expect(responses.length).toBeGreaterThan(5)
    expect(events.some((e) => e.startsWith('accounts.changed') && e.includes(label))).toBe(true)

    // ...and the key is nowhere the renderer can read
    expect(dump.localStorage).not.toContain(marker)
    expect(dump.sessionStorage).not.toContain(marker)
    expect(dump.indexedDb).not.toContain(marker)
    expect(dump.cookie).not.toContain(marker)
    expect(dump.dom).not.toContain(marker)
    expect(dump.pinia).not.toContain(marker)
    expect(responses.filter((r) => r.body.includes(marker)).map((r) => r.url)).toEqual([])
    expect(events.filter((e) => e.includes(marker))).toEqual([])
    // nor in browser mode's output or its data folder (SQLite, settings)
    expect(app.output()).not.toContain(marker)
    expect(
      filesUnder(app.dataDir)
        .filter((f) => f.text.includes(marker))
        .map((f) => f.path),
    ).toEqual([])
  })
})
