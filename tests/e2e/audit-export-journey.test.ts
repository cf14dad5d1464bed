// The audit log exported, in real Chromium on the demo (an administrator): the log searched on
// screen, then Export CSV… saved where the user typed (browser mode has no save dialog); the file
// holds the searched log, every page of it, row for row as the bridge reads it, the screen's
// rows first.
import type { Locator, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { saveTypedCsv } from './csv-files'
import { openGroupList, searchBox, useDemoJourney, useTempFolder } from './harness'

const WAIT = { timeout: 30_000 }
const SEARCH = 'sign_in'

type Event = { id: string; attributes: Record<string, unknown> }

/** One bridge call from the page itself (its page key and cookie), answering the Result's data. */
async function bridge<T>(page: Page, channel: string, payload: unknown): Promise<T> {
  const text = String(
    await page.evaluate(`(async () => {
      const res = await fetch('/bridge/call/${channel}', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-scandesk-key': sessionStorage.getItem('scandesk-bridge-key') ?? '',
        },
        body: ${JSON.stringify(JSON.stringify(payload))},
      })
      return res.text()
    })()`),
  )
  const result = JSON.parse(text) as { ok: boolean; data?: T; error?: unknown }
  if (!result.ok) throw new Error(`${channel} failed: ${JSON.stringify(result.error)}`)
  return result.data as T
}

/** The searched audit log as the bridge reads it, page by page (pages of 25). */
async function auditPages(page: Page, accountId: string): Promise<Event[]> {
  const all: Event[] = []
  for (let n = 1; ; n++) {
    const out = await bridge<{ data: { data: Event[] } }>(page, 'api.call', {
      accountId,
      op: 'audit.list',
      input: { query: { sort: '-occurred_at', search: SEARCH, page: n, per_page: 25 } },
    })
    all.push(...out.data.data)
    if (out.data.data.length < 25) return all
  }
}

/** The text of each row of the list on screen. */
async function tableRows(list: Locator): Promise<string[]> {
  return (await list.locator('tbody tr').allTextContents()).map((t) => t.trim())
}

describe('exporting the audit log, on the demo service', () => {
  const folder = useTempFolder('scandesk-audit-e2e-')
  const j = useDemoJourney()
  let page: Page
  let problems: string[]
  beforeAll(() => void ({ page, problems } = j))

  it('saves the searched audit log to the CSV file the user typed, every page of it', async () => {
    const list = await openGroupList(page, 'audit')
    await searchBox(page).fill(SEARCH)
    // the searched list on screen: every row's action is a sign-in one
    await expect
      .poll(async () => {
        const rows = await tableRows(list)
        return rows.length > 0 && rows.every((r) => r.includes(SEARCH))
      }, WAIT)
      .toBe(true)
    const shown = await tableRows(list)

    await list.getByTestId('csv-export').click()
    const rows = await saveTypedCsv(page, {
      folder: folder.path,
      name: 'audit.csv',
      suggested: /Audit log - .+ - \d{4}-\d{2}-\d{2}\.csv$/,
      noun: 'audit event',
    })

    const { activeId } = await bridge<{ activeId: string }>(page, 'accounts.list', {})
    const expected = await auditPages(page, activeId)
    // more than the screen's page of 25, more than one page of the bridge
    expect(shown).toHaveLength(25)
    expect(expected.length).toBeGreaterThan(25)
    expect(rows.map((r) => [r.id, r.action, r.actor_email, r.occurred_at])).toEqual(
      expected.map((e) => [
        e.id,
        e.attributes.action,
        e.attributes.actor_email ?? '',
        e.attributes.occurred_at,
      ]),
    )
    // the screen's rows are the file's first rows, in its order
    shown.forEach((text, i) => expect(text).toContain(rows[i].action))
    await page.getByTestId('csv-path-dialog').waitFor({ state: 'hidden', ...WAIT })
    expect(problems).toEqual([])
  })
})
