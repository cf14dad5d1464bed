// Issue 37 §2 on the demo: a rule added on the Asset context screen (reached from the sidebar)
// gives a target its context, and the target's page says so ("by rule 1"); the context is then
// exported as a file (browser mode: a typed path in the temp folder) and imported back.
import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { closeSwitcher, useDemoJourney, useTempFolder } from './harness'

const WAIT = { timeout: 30_000 }
const field = (page: Page, id: string) =>
  page.locator(`input[data-testid="${id}"], [data-testid="${id}"] input`).first()

describe('asset context on the demo (issue 37 §2)', () => {
  const j = useDemoJourney()
  const folder = useTempFolder('scandesk-assets-e2e-')
  let page: Page
  beforeAll(() => void ({ page } = j))

  it('adds a rule, sees it on a target’s page, exports and imports the file', async () => {
    await closeSwitcher(page)
    await page.getByTestId('nav-asset-context').click()
    await page.getByTestId('asset-rules-none').waitFor(WAIT)
    await page.getByTestId('asset-rule-add').click()
    await page.getByTestId('asset-rule-kind-tag').click()
    await field(page, 'asset-rule-value').fill('PCI')
    await field(page, 'asset-owner').fill('Payments team')
    await field(page, 'asset-owner').press('Enter')
    await page.getByTestId('asset-rule').getByText('tag PCI').waitFor(WAIT)

    // tgt-001 of the demo is tagged pci (the seed's first tag)
    await page.evaluate(`location.hash = '#/targets/tgt-001'`)
    await page
      .getByTestId('asset-owner-value')
      .getByText('Payments team (by rule 1: tag PCI)')
      .waitFor(WAIT)
    expect((await page.getByTestId('asset-criticality-value').textContent())?.trim()).toBe(
      'unknown',
    )

    await page.getByTestId('nav-asset-context').click()
    await page.getByTestId('asset-export').click()
    const file = path.join(folder.path, 'asset-context.json')
    await field(page, 'asset-path').waitFor(WAIT)
    expect(await field(page, 'asset-path').inputValue()).toMatch(/Asset context - .+\.json$/)
    await field(page, 'asset-path').fill(file)
    await page.getByTestId('asset-path-go').click()
    await page.getByText(`Saved the asset context to ${file}.`).waitFor(WAIT)
    const written = JSON.parse(fs.readFileSync(file, 'utf8'))
    expect(written).toMatchObject({
      scandeskAssetContext: 1,
      rules: [{ match: { kind: 'tag', tag: 'PCI' }, owner: 'Payments team' }],
    })

    await page.getByTestId('asset-import').click()
    await field(page, 'asset-path').waitFor(WAIT)
    await field(page, 'asset-path').fill(file)
    await page.getByTestId('asset-path-go').click()
    await page
      .getByText('Imported 1 rule, 0 target settings and 0 host settings to 1 account.')
      .waitFor(WAIT)
    expect(await page.getByTestId('asset-rule').count()).toBe(1)
    expect(j.problems).toEqual([])
  })
})
