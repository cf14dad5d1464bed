// Saving a list's CSV in browser mode, where main asks for the file's path in a form: the steps
// and checks every CSV journey shares.
import fs from 'node:fs'
import path from 'node:path'
import Papa from 'papaparse'
import type { Page } from 'playwright-core'
import { expect } from 'vitest'

const WAIT = { timeout: 30_000 }

/**
 * Saves the CSV export just asked for as `name` in `folder` through the typed-path form: main's
 * suggested name matches `suggested`, the saved message names the file and its row count of
 * `noun`s, and the folder then holds that file alone. Returns the file's rows by column name.
 */
export async function saveTypedCsv(
  page: Page,
  options: { folder: string; name: string; suggested: RegExp; noun: string },
): Promise<Record<string, string>[]> {
  const input = page.locator(
    'input[data-testid="csv-path-input"], [data-testid="csv-path-input"] input',
  )
  await input.waitFor(WAIT)
  expect(await input.inputValue()).toMatch(options.suggested)
  const target = path.join(options.folder, options.name)
  await input.fill(target)
  await page.getByTestId('csv-path-save').click()

  const saved = page.getByTestId('csv-saved')
  await saved.waitFor(WAIT)
  const message = (await saved.textContent()) ?? ''
  expect(message).toContain(target)
  expect(fs.readdirSync(options.folder)).toEqual([options.name])
  const rows = Papa.parse<Record<string, string>>(fs.readFileSync(target, 'utf8'), {
    header: true,
    skipEmptyLines: true,
  }).data
  expect(message).toMatch(new RegExp(`Saved ${rows.length} ${options.noun}s? to`))
  return rows
}
