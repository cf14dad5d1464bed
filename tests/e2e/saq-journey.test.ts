// Issue 9 end to end in Chromium: pick SAQ A, answer it while the service is unreachable (a TCP
// relay between ScanDesk and the sandbox refuses every connection), reload and find every
// answer, reconnect, submit, approve, download the PDF into the account's SAQ folder, see it in
// the library as recorded at download, and clone it to next year with the answers carried.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { field, waitForFocus, watchPage } from './harness'
import { addRelayedAccount, useRelayedJourney } from './relayed'

const WAIT = { timeout: 30_000 }

const requirement = (page: Page, n: string) =>
  page.locator(`[data-testid="saq-requirement"][data-number="${n}"]`)

/** Answers every unanswered requirement of each section In Place, section by section. */
async function answerRestInPlace(page: Page): Promise<void> {
  const sections = page.getByTestId('saq-section')
  const count = await sections.count()
  for (let i = 0; i < count; i++) {
    await sections.nth(i).click()
    await page.getByTestId('saq-rest-in-place').click()
  }
}

/** The visible text of the first match, blanks collapsed ('' when there is none yet). */
async function text(locator: ReturnType<Page['locator']>): Promise<string> {
  if (!(await locator.count())) return ''
  return (await locator.first().innerText()).replace(/\s+/g, ' ').trim()
}

const progressText = (page: Page) =>
  page.locator('.saq-overall .muted').first().innerText({ timeout: 10_000 })

describe('an SAQ from type choice to archived PDF (issue 9)', () => {
  const root = mkdtempSync(join(tmpdir(), 'scandesk-e2e-saq-'))
  const dataDir = join(root, 'data')
  const downloads = join(root, 'downloads')
  mkdirSync(dataDir)
  mkdirSync(downloads)
  const j = useRelayedJourney(dataDir)
  afterAll(() => rmSync(root, { recursive: true, force: true }))

  it('fills SAQ A offline, submits, approves, archives the PDF and clones it', async () => {
    const page = await j.browser.newPage()
    const errors = watchPage(page)
    await addRelayedAccount(page, j, 'Acme compliance', 'manager@sandbox.test')

    // 1. choose SAQ A and start from its template
    await j.app.goto(page, 'saq')
    await page.getByTestId('saq-new').click()
    const card = page.locator('[data-testid="saq-type-card"][data-code="A"]')
    await card.waitFor(WAIT)
    await card.getByTestId('saq-type-radio').click()
    await page.getByTestId('saq-method-blank').click()
    await field(page, 'saq-start-name').fill('Web shop SAQ A 2030')
    await page.getByTestId('saq-start').click()
    await expect.poll(() => new URL(page.url()).hash, WAIT).toMatch(/^#\/saq\/draft\/local-/)
    const draftUrl = page.url()
    await expect.poll(() => progressText(page), WAIT).toMatch(/^0 of 30 required answered/)

    // 2. the service becomes unreachable; answering goes on (drafts are local)
    j.relay.cut()
    const first = page.getByTestId('saq-requirement').first()
    const firstNumber = (await first.getAttribute('data-number'))!
    await first.focus()
    // The fourth choice of a 4.0.1 template is Not Applicable.
    await page.keyboard.press('4')
    await expect
      .poll(() => text(first.getByTestId('saq-problems')), WAIT)
      .toContain('Not Applicable needs an explanation')
    await first.locator('textarea').first().fill('Payments are fully outsourced to the PSP.')
    await answerRestInPlace(page)
    await expect.poll(() => progressText(page), WAIT).toMatch(/^30 of 30 required answered/)
    expect(await text(page.getByTestId('saq-saved'))).toContain('Saved on this computer')
    // The section list stays in view while the requirements scroll under it (issue 36).
    await page.locator('main').evaluate((m) => m.scrollTo(0, m.scrollHeight))
    const listTop = await page.getByTestId('saq-sections').evaluate((n) => {
      const main = n.closest('main')!.getBoundingClientRect().top
      return n.getBoundingClientRect().top - main
    })
    expect(listTop).toBeGreaterThanOrEqual(0)

    // 3. a reload while still offline loses nothing
    await page.goto(draftUrl)
    await page.reload()
    await expect.poll(() => progressText(page), WAIT).toMatch(/^30 of 30 required answered/)
    await page.getByTestId('saq-filter-needs-more').click()
    await page.getByTestId('saq-empty').waitFor(WAIT)
    await page.getByTestId('saq-section').first().click()
    expect(await requirement(page, firstNumber).locator('textarea').first().inputValue()).toBe(
      'Payments are fully outsourced to the PSP.',
    )

    // 4. back online: submit, then approve with the attestation
    j.relay.restore()
    await page.getByTestId('saq-submit').click()
    await expect.poll(() => new URL(page.url()).hash, WAIT).toMatch(/^#\/saq\/saq-\d+$/)
    const saqId = new URL(page.url()).hash.split('/').pop()!
    await expect.poll(() => text(page.getByTestId('saq-state')), WAIT).toBe('Submitted draft')
    await page.getByTestId('saq-to-approve').click()
    expect(await text(page.getByTestId('saq-approve-reason'))).toContain("signer's name")
    await field(page, 'saq-signer-name').fill('Morgan Manager')
    await field(page, 'saq-signer-title').fill('Head of Compliance')
    await page.getByTestId('saq-attest-date').fill('2030-01-15')
    await expect
      .poll(() => text(page.getByTestId('saq-approve-reason')), WAIT)
      .toBe('Ready to approve.')
    // Everything was answered In Place with "the rest of this section", and the executive summary
    // never filled: the approval names the answers the service's data contradicts (the demo's
    // external runs fail PCI, its findings are older than a month) and the empty parts first.
    await page.getByTestId('saq-approve').click()
    await expect
      .poll(() => text(page.getByTestId('confirm-where')), WAIT)
      .toContain('Acme compliance')
    const named = () => page.locator('[data-testid="saq-approve-confirm-items"] li').allInnerTexts()
    await expect
      .poll(named, WAIT)
      .toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^6\.3\.3 In Place: the service lists [\d,]+ critical and high/),
          expect.stringMatching(/^11\.3\.2 In Place: no passing external scan run in \d{4} Q\d/),
          'Executive summary: Payment channels in scope is empty.',
          'Executive summary: Cardholder data environment is empty.',
          'Executive summary: Third-party service providers is empty.',
        ]),
      )
    expect((await named())[0]).toMatch(/^6\.3\.3 In Place/)
    // Go back to them: the requirements, the caret on the first one named.
    await page.getByTestId('saq-approve-confirm-cancel').click()
    await waitForFocus(requirement(page, '6.3.3'))
    await page.locator('#tab-summary').click()
    await page.locator('[data-testid="saq-channels"] label', { hasText: 'E-commerce' }).click()
    await page.locator('#saq-environment').fill('A hosted payment page; no card data on our side.')
    await page.locator('#tab-approve').click()
    await page.getByTestId('saq-approve').click()
    await expect
      .poll(async () => (await named()).filter((t) => t.startsWith('Executive summary')), WAIT)
      .toEqual(['Executive summary: Third-party service providers is empty.'])
    expect(await text(page.getByTestId('saq-approve-confirm'))).toBe('Approve anyway')
    await page.getByTestId('saq-approve-confirm').click()
    await expect.poll(() => text(page.getByTestId('saq-state')), WAIT).toBe('Approved')

    // 5. download the PDF: browser mode asks for the account's folder once
    await page.getByTestId('saq-download').click()
    await page.getByTestId('folder-dialog').waitFor(WAIT)
    await field(page, 'folder-input').fill(downloads)
    await page.getByTestId('folder-save').click()
    const saqFolder = join(downloads, 'SAQ')
    await expect
      .poll(() => (existsSync(saqFolder) ? readdirSync(saqFolder) : []), WAIT)
      .toEqual([
        expect.stringMatching(/^SAQ A - Web shop SAQ A 2030( - .+)? - \d{4}-\d{2}-\d{2}\.pdf$/),
      ])
    const pdf = join(saqFolder, readdirSync(saqFolder)[0])
    expect(readFileSync(pdf).subarray(0, 5).toString('latin1')).toBe('%PDF-')

    // 6. the library lists it as recorded at download, and it re-verifies offline
    await j.app.goto(page, 'library')
    const recorded = page.locator('[data-testid="library-row"][data-verdict="recorded"]')
    await expect.poll(() => recorded.count(), WAIT).toBe(1)
    expect(await text(page.getByTestId('library-table'))).toContain('Recorded at download')
    expect(await text(page.getByTestId('library-saq'))).toBe('SAQ · type A · approved')
    j.relay.cut()
    await recorded.getByTestId('library-reverify-offline').click()
    await expect
      .poll(
        () => page.locator('[data-testid="library-row"][data-verdict="recorded"]').count(),
        WAIT,
      )
      .toBe(1)
    await expect
      .poll(() => text(page.getByTestId('library-table')), WAIT)
      .toContain('Unchanged since')
    j.relay.restore()

    // 7. clone to next year: a new draft on the service with every answer carried
    await j.app.goto(page, `saq/${saqId}`)
    await page.getByTestId('saq-clone').click()
    const prompt = page.locator('.el-message-box')
    await prompt.waitFor(WAIT)
    expect(await prompt.locator('input').inputValue()).toBe('Web shop SAQ A 2031')
    await prompt.getByRole('button', { name: 'OK' }).click()
    await expect.poll(() => new URL(page.url()).hash !== `#/saq/${saqId}`, WAIT).toBe(true)
    expect(new URL(page.url()).hash).toMatch(/^#\/saq\/saq-\d+$/)
    await expect.poll(() => text(page.getByTestId('saq-name')), WAIT).toBe('Web shop SAQ A 2031')
    expect(await text(page.getByTestId('saq-state'))).toBe('Submitted draft')
    await expect.poll(() => progressText(page), WAIT).toMatch(/^30 of 30 required answered/)
    expect(errors).toEqual([])
  }, 240_000)
})
