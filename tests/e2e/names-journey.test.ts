import type { Locator, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { openGroupList, useDemoJourney, waitForList } from './harness'

const WAIT = { timeout: 30_000 }

/**
 * Opens the page's "All attributes" disclosure from the keyboard (its summary focused, Enter): the
 * panels above it grow as their reads come in, and a click aimed at where the summary was landed
 * beside it on a loaded machine (names-journey failed so once, the details left closed).
 */
async function openAllAttributes(page: Page) {
  await page.locator('summary', { hasText: 'All attributes' }).press('Enter')
}

// The sandbox's id prefixes of records other records refer to (sandbox/domains/*/collections).
const FOREIGN_ID = /\b(?:org|usr|scn|tgt|hst|vul|scr|ntf|rpt|adr|exc|sch|prt|crd|whk|saq)-\d{3}\b/g

/**
 * The ids shown as plain text, as if they were names: every id the page shows must be followed by
 * why its name could not be had, "tgt-061 (name not available offline)".
 */
function bareIds(text: string): string[] {
  return [...text.matchAll(FOREIGN_ID)]
    .filter((m) => !text.startsWith(' (', m.index + m[0].length))
    .map((m) => m[0])
}

/** The page's content once every name it reads has come (or was found missing). */
async function namedText(page: Page, area: Locator = page.locator('main')): Promise<string> {
  await expect.poll(() => area.locator('[data-name-state="loading"]').count(), WAIT).toBe(0)
  return area.innerText()
}

/** The text of a record's attribute on its page (AttributeList's `data-attr`). */
const attribute = (page: Page, key: string) =>
  page.locator(`[data-testid="attribute-list"] [data-attr="${key}"]`).first().innerText()

describe('names where people expect names, on the demo service', () => {
  const j = useDemoJourney()
  let page: Page
  let problems: string[]
  beforeAll(() => void ({ page, problems } = j))

  it('lists users with their organization’s name, linked to its page', async () => {
    const list = await openGroupList(page, 'users')
    const text = await namedText(page, list)
    expect(bareIds(text)).toEqual([])
    const demo = list.locator('tbody tr', { hasText: 'demo@sandbox.test' })
    const org = demo.locator('[data-name-state="named"]')
    expect((await org.innerText()).trim()).toBe('Acme Payments')
    // a linked name is one element, the link itself
    expect(await org.getAttribute('href')).toBe('#/organizations/org-001')
    expect(text).toContain('Globex Retail')
  })

  it('shows My account’s organization by name', async () => {
    await page.locator('[data-testid="nav-group"][data-group="user"]').click()
    const organization = page.getByTestId('user-profile-organization')
    await organization.waitFor(WAIT)
    const text = await namedText(page)
    expect((await organization.innerText()).trim()).toBe('Acme Payments')
    expect(bareIds(text)).toEqual([])
  })

  it('names each audit event’s resource, or says why it cannot', async () => {
    const list = await openGroupList(page, 'audit')
    const text = await namedText(page, list)
    expect(bareIds(text)).toEqual([])
    // a scan an event concerns is named after the scan, and links to its page
    const scanRow = list.locator('tbody tr', { hasText: 'scan.start' }).first()
    const scan = scanRow.locator('[data-name-state="named"]').last()
    expect(await scan.getAttribute('href')).toMatch(/^#\/scans\/scn-\d{3}$/)
    expect((await scan.innerText()).trim()).not.toMatch(FOREIGN_ID)
  })

  it('says "deleted" beside a record gone since, and records the demo’s own sign-in', async () => {
    // the newest event is this ScanDesk signing in as the demo user (a write the log records)
    const all = await openGroupList(page, 'audit')
    const newest = all.locator('tbody tr').first()
    await expect.poll(() => newest.innerText(), WAIT).toMatch(/user\.sign_in\s+demo@sandbox\.test/)
    // the seeded history names a webhook deleted since: its own read answers 404
    await j.app.goto(page, 'audit?resource_type=webhook')
    const list = await waitForList(page, 'audit')
    const gone = list.locator('[data-record-id="whk-004"]').first()
    await expect.poll(() => gone.innerText(), WAIT).toBe('whk-004 (deleted)')
    // a webhook that exists is named, linked
    const named = list.locator('[data-record-id="whk-001"][data-name-state="named"]').first()
    expect((await named.innerText()).trim()).toBe('SIEM forwarder')
    expect(bareIds(await namedText(page, list))).toEqual([])
  })

  it('shows a scan’s targets, scanner, schedule and findings as names and counts', async () => {
    const list = await openGroupList(page, 'scans')
    await list
      .getByTestId('resource-open')
      .filter({ hasText: /^\s*Weekly internal baseline\s*$/ })
      .click()
    await expect
      .poll(() => page.getByTestId('resource-title').textContent(), WAIT)
      .toBe('Weekly internal baseline')
    await openAllAttributes(page)
    await page.locator('[data-testid="attribute-list"]').waitFor(WAIT)
    const text = await namedText(page)
    expect(bareIds(text)).toEqual([])
    expect(await attribute(page, 'target_ids')).not.toMatch(FOREIGN_ID)
    expect((await attribute(page, 'scanner_id')).trim()).toMatch(/^(?!—$).+/)
    expect(await attribute(page, 'severity_counts')).not.toContain('{')
    expect(text).not.toContain('"critical"')
  })

  it('shows a vulnerability’s host once and its scan by name', async () => {
    await page.locator('[data-testid="nav-group"][data-group="vulnerabilities"]').click()
    const list = await waitForList(page, 'vulnerabilities')
    const first = list.getByTestId('resource-open').first()
    const title = (await first.innerText()).trim()
    await first.click()
    await expect.poll(() => page.getByTestId('resource-title').textContent(), WAIT).toBe(title)
    await openAllAttributes(page)
    await page.locator('[data-testid="attribute-list"]').waitFor(WAIT)
    const text = await namedText(page)
    expect(bareIds(text)).toEqual([])
    const labels = await page
      .locator('[data-testid="attribute-list"] .el-descriptions__label')
      .allInnerTexts()
    expect(labels.filter((l) => l.trim() === 'Host')).toHaveLength(1)
    expect(await attribute(page, 'scan_id')).not.toMatch(FOREIGN_ID)
    expect(problems).toEqual([])
  })
})
