// CSV in and out, in real Chromium on the demo (an administrator): Users → Import CSV… with a file
// of five rows of which two are bad (the preview names both, only the three good rows are sent,
// and exactly they are in the list afterwards); Organizations → Export CSV… saved where the user
// typed (browser mode has no save dialog), holding the organizations the list shows.
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { saveTypedCsv } from './csv-files'
import { openGroupList, searchBox, useDemoJourney, useTempFolder } from './harness'

const WAIT = { timeout: 30_000 }
const DOMAIN = 'csv-journey.test'
const GOOD = [`ana@${DOMAIN}`, `bo@${DOMAIN}`, `cy@${DOMAIN}`]
const FILE = [
  'email,first_name,last_name,role',
  `${GOOD[0]},Ana,Lima,analyst`,
  `not-an-email,Bad,Address,analyst`,
  `${GOOD[1]},"=HYPERLINK(""http://x"")",Formula,manager`,
  `dee@${DOMAIN},Dee,Role,overlord`,
  `${GOOD[2]},Cy,Doe,customer`,
].join('\r\n')

describe('CSV import and export, on the demo service', () => {
  const folder = useTempFolder('scandesk-csv-e2e-')
  const j = useDemoJourney()
  let page: Page
  let problems: string[]
  beforeAll(() => void ({ page, problems } = j))

  it('imports only the good rows of a CSV after a preview naming the bad ones', async () => {
    await openGroupList(page, 'users')

    await page.getByTestId('toolbar-users.import').click()
    const dialog = page.getByTestId('import-dialog')
    await dialog.waitFor(WAIT)
    // nothing can be sent before a file is read
    expect(await page.getByTestId('import-send').isDisabled()).toBe(true)
    await page.getByTestId('import-file').setInputFiles({
      name: 'new-users.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(FILE, 'utf8'),
    })
    await expect
      .poll(() => page.getByTestId('import-summary').textContent(), WAIT)
      .toContain('3 rows ready, 2 with errors — only the 3 will be sent.')
    const rowProblems = await page.getByTestId('import-problem').allTextContents()
    expect(rowProblems.map((t) => t.trim())).toEqual([
      'E-mail: must be an e-mail address',
      'Role: must be one of administrator, manager, analyst, customer',
    ])
    const badRows = await page
      .locator('[data-testid="import-row"][data-ok="false"]')
      .allTextContents()
    expect(badRows.map((t) => t.trim())).toEqual(['2', '4'])
    // the formula-looking cell is shown as the text it is
    await expect
      .poll(() => page.getByTestId('import-preview').textContent())
      .toContain('=HYPERLINK("http://x")')
    expect(await page.getByTestId('import-send').textContent()).toContain('Send 3 users')

    await page.getByTestId('import-send').click()
    await page.getByTestId('import-result').waitFor(WAIT)
    expect(await page.getByTestId('import-result-summary').textContent()).toContain(
      'Created 3 users.',
    )
    expect((await page.getByTestId('import-created').allTextContents()).sort()).toEqual(GOOD)
    await page.getByTestId('import-close').click()
    await dialog.waitFor({ state: 'hidden', ...WAIT })

    // exactly the three good users exist: the list, searched on the service
    await searchBox(page).fill(DOMAIN)
    await expect
      .poll(async () => {
        const rows = await page.getByTestId('resource-open').allTextContents()
        return rows.map((t) => t.trim()).sort()
      }, WAIT)
      .toEqual(GOOD)
    expect(problems).toEqual([])
  })

  it('exports the organizations to the CSV file the user typed', async () => {
    // the organizations' own list, final: never the users' rows still on screen
    const list = await openGroupList(page, 'organizations')
    const shown = (await list.getByTestId('resource-open').allTextContents()).map((t) => t.trim())
    expect(shown.length).toBeGreaterThan(0)

    await list.getByTestId('csv-export').click()
    // main suggests its own name: "Organizations - <account> - <date>.csv"
    const rows = await saveTypedCsv(page, {
      folder: folder.path,
      name: 'organizations.csv',
      suggested: /Organizations - .+ - \d{4}-\d{2}-\d{2}\.csv$/,
      noun: 'organization',
    })
    for (const name of shown) expect(rows.map((r) => r.name)).toContain(name)
    expect(rows.every((r) => /^org-/.test(r.id))).toBe(true)
    await page.getByTestId('csv-path-dialog').waitFor({ state: 'hidden', ...WAIT })
    expect(problems).toEqual([])
  })
})
