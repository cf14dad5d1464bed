// Issue 20 §3 end to end in Chromium on the demo: an SAQ's 11.3.2 shows the external scan runs of
// the last twelve months per quarter (the service's data beside the answer), a report's PDF is
// attached to it through the integrity pipeline, and once the SAQ is approved the audit bundle's
// manifest (read from disk) lists that file with its hash and origin.
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { lastTwelveMonthsQuarters } from '@contract/pci/quarters'
import { monthAgo } from '@contract/pci/requirements'
import { field, useDemoJourney } from './harness'

const WAIT = { timeout: 30_000 }

const requirement = (page: Page, n: string) =>
  page.locator(`[data-testid="saq-requirement"][data-number="${n}"]`)

/** The visible text of the first match, blanks collapsed ('' when there is none yet). */
async function text(locator: ReturnType<Page['locator']>): Promise<string> {
  if (!(await locator.count())) return ''
  return (await locator.first().innerText()).replace(/\s+/g, ' ').trim()
}

describe('PCI requirements backed by scan evidence (issue 20 §3)', () => {
  const downloads = mkdtempSync(join(tmpdir(), 'scandesk-e2e-pci-'))
  afterAll(() => rmSync(downloads, { recursive: true, force: true }))
  const j = useDemoJourney()

  it('shows 11.3.2’s quarterly runs and puts an attached verified report in the bundle’s manifest', async () => {
    const page = j.page

    // The account's download folder (the evidence and the audit folder go inside it). The dialog
    // reads the account's folder when it opens and puts it in the field, replacing anything typed
    // before that answer: type once it is in. Save is done once main's answer says so.
    const bridged = (channel: string) => (r: { url(): string }) =>
      new URL(r.url()).pathname === `/bridge/call/${channel}`
    const folderRead = page.waitForEvent('requestfinished', bridged('files.getFolder'))
    await page.getByTestId('download-settings-button').click()
    await folderRead
    await field(page, 'settings-folder-input').fill(downloads)
    const folderSet = page.waitForResponse(bridged('files.setFolder'))
    await page.getByTestId('settings-folder-save').click()
    expect(await (await folderSet).json()).toMatchObject({ ok: true })
    await expect
      .poll(() => page.getByTestId('settings-folder-input').inputValue(), WAIT)
      .toBe(downloads)
    await page.keyboard.press('Escape')

    // 1. The submitted draft "Web shop SAQ A 2026": section 11 holds 11.3.2.
    await j.app.goto(page, 'saq/saq-002')
    await expect.poll(() => text(page.getByTestId('saq-name')), WAIT).toBe('Web shop SAQ A 2026')
    // 6.3.3 gives the service's totals, and how many of them are older than a calendar month.
    await page.locator('[data-testid="saq-section"]', { hasText: '6. Secure systems' }).click()
    const findings = requirement(page, '6.3.3').getByTestId('saq-pci-findings')
    await expect
      .poll(() => text(findings), WAIT)
      .toMatch(
        /^The service lists [\d,]+ critical and [\d,]+ high findings\. [\d,]+ critical and high findings \(CVSS 7\.0 or more\) were first seen more than a month ago, before \w+ \d+, \d{4} \(UTC\)\.$/,
      )
    const numbers = (await text(findings))
      .match(/[\d,]+(?= (critical|high) )/g)!
      .map((n) => Number(n.replace(/,/g, '')))
    // The demo's findings were first seen over months: some are older, never more than all.
    expect(numbers[2]).toBeGreaterThan(0)
    expect(numbers[2]).toBeLessThanOrEqual(numbers[0] + numbers[1])
    expect(await findings.locator('time').getAttribute('datetime')).toBe(monthAgo(new Date()))
    await page.locator('[data-testid="saq-section"]', { hasText: '11. Regular' }).click()
    const row = requirement(page, '11.3.2')
    const data = row.getByTestId('saq-pci-data')
    await data.waitFor(WAIT)
    expect(await text(data.locator('header'))).toContain('External scan runs of the last twelve')
    // Other requirements of the section show no service data.
    expect(await requirement(page, '11.1.1').getByTestId('saq-pci-data').count()).toBe(0)

    // The five quarters the last twelve months touch, oldest first; the demo's scans ran in the
    // last weeks only.
    const labels = lastTwelveMonthsQuarters(new Date()).map((q) => q.label)
    const quarters = data.getByTestId('saq-pci-quarter')
    await expect
      .poll(
        () => quarters.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-quarter'))),
        WAIT,
      )
      .toEqual(labels)
    const current = data.locator(`[data-testid="saq-pci-quarter"][data-quarter="${labels[4]}"]`)
    await current.getByTestId('saq-pci-run').first().waitFor(WAIT)
    const run = await text(current.getByTestId('saq-pci-run'))
    expect(run).toMatch(/· .+ · PCI (pass|fail)$/)
    expect(await quarters.first().getAttribute('data-state')).toBe('gap')
    expect(await text(quarters.first())).toContain('Gap: no passing run')

    // 2. Attach a verified report to 11.3.2.
    await row.getByTestId('saq-pci-attach-report').click()
    const option = page.locator('[data-testid="saq-pci-report-option"][data-id="rpt-003"]')
    await option.waitFor(WAIT)
    await option.click()
    const item = row.getByTestId('saq-evidence-item')
    await item.waitFor(WAIT)
    const hashTitle = (await item.locator('.hash').getAttribute('title'))!
    const sha256 = hashTitle.replace('SHA-256 ', '')
    expect(sha256).toMatch(/^[0-9a-f]{64}$/)

    // 3. Approve the SAQ, then make the audit bundle of it.
    await page.getByTestId('saq-to-approve').click()
    await field(page, 'saq-signer-name').fill('Morgan Manager')
    await field(page, 'saq-signer-title').fill('Head of Compliance')
    await page.getByTestId('saq-attest-date').fill('2030-01-15')
    await page.getByTestId('saq-approve').click()
    // The question says the approved PDF will list the attached file (issue 36 §13).
    await expect
      .poll(() => text(page.getByTestId('confirm-dialog')), WAIT)
      .toContain('The approved PDF lists its 1 evidence file (name, SHA-256, origin).')
    await page.getByTestId('saq-approve-confirm').click()
    await expect.poll(() => text(page.getByTestId('saq-state')), WAIT).toBe('Approved')

    await j.app.goto(page, 'saq')
    await page.getByTestId('saq-audit').click()
    const choice = page.locator('[data-testid="saq-audit-item"][data-id="saq-002"]')
    await choice.waitFor(WAIT)
    await choice.click()
    await page.getByTestId('saq-audit-create').click()
    await expect.poll(() => text(page.getByTestId('saq-audit-manifest')), WAIT).toMatch(/\.json$/)
    const manifestPath = await text(page.getByTestId('saq-audit-manifest'))
    const folder = await text(page.getByTestId('saq-audit-folder'))

    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
    const saq = manifest.saqs.find((s: { id: string }) => s.id === 'saq-002')
    const evidence = saq.files.find(
      (f: { kind: string; requirement: string }) =>
        f.kind === 'saq_evidence' && f.requirement === '11.3.2',
    )
    expect(evidence).toMatchObject({
      sha256,
      origin: { operation: 'reports.download', resource_id: 'rpt-003', query: { format: 'pdf' } },
    })
    expect(evidence.origin.account).toBeTruthy()
    const copy = readFileSync(join(folder, ...String(evidence.path).split('/')))
    expect(copy.subarray(0, 5).toString('latin1')).toBe('%PDF-')
    expect(createHash('sha256').update(copy).digest('hex')).toBe(sha256)
    // The approved PDF in the bundle lists that file with its SHA-256 and origin.
    const pdf = saq.files.find((f: { kind: string }) => f.kind === 'saq')
    const printed = readFileSync(join(folder, ...String(pdf.path).split('/'))).toString('latin1')
    expect(printed).toContain('(Appendix C: Evidence files) Tj')
    expect(printed).toContain(`(SHA-256 ${sha256}) Tj`)
    expect(j.problems).toEqual([])
  }, 180_000)
})
