// Issue 20 §2: a target whose scans ran three times shows its open findings per severity over
// those runs, and the chart's hidden table has each run's counts as the service's history gives
// them (asked over the bridge here, not numbers written into the test).
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { accountIdByLabel, closeSwitcher, useDemoJourney } from './harness'

const WAIT = { timeout: 30_000 }
const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const

interface Run {
  id: string
  attributes: { scan_id: string; status: string; severity_counts: Record<string, number> }
}

/** One read through the page's own bridge (its session cookie and page key). */
async function call<T>(page: Page, accountId: string, op: string, input: unknown): Promise<T> {
  const body = JSON.stringify({ accountId, op, input })
  const answer = (await page.evaluate(`(async () => {
    const key = sessionStorage.getItem('scandesk-bridge-key')
    const res = await fetch('/bridge/call/api.call', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-scandesk-key': key },
      body: ${JSON.stringify(body)},
    })
    return res.json()
  })()`)) as { ok: boolean; data?: { data: T }; error?: unknown }
  if (!answer.ok) throw new Error(`${op}: ${JSON.stringify(answer.error)}`)
  return answer.data!.data
}

/** A target of the demo whose scans have at least three completed runs, with those runs. */
async function targetWithRuns(page: Page, accountId: string) {
  type Scan = { id: string; attributes: { target_ids: string[] } }
  const body = await call<{ data: Scan[] }>(page, accountId, 'scans.list', {
    query: { per_page: 100 },
  })
  const runsOf = new Map<string, Run[]>()
  for (const scan of body.data) {
    const history = await call<{ data: Run[] }>(page, accountId, 'scans.history', {
      path: { id: scan.id },
      query: { per_page: 100 },
    })
    runsOf.set(scan.id, history.data)
  }
  const byTarget = new Map<string, Run[]>()
  for (const scan of body.data)
    for (const t of scan.attributes.target_ids)
      byTarget.set(t, [...(byTarget.get(t) ?? []), ...runsOf.get(scan.id)!])
  for (const [target, runs] of byTarget) {
    const completed = runs.filter((r) => r.attributes.status === 'completed')
    if (completed.length >= 3) return { target, completed }
  }
  throw new Error('the demo has no target with three completed runs')
}

/** The hidden table's rows: run id → counts per severity. */
async function tableCounts(page: Page, testId: string): Promise<Record<string, number[]>> {
  const rows = page.getByTestId(`${testId}-table`).locator('tbody tr')
  const out: Record<string, number[]> = {}
  for (const row of await rows.all()) {
    const key = (await row.getAttribute('data-key')) ?? ''
    out[key] = await Promise.all(
      SEVERITIES.map(async (s) =>
        Number(await row.locator(`td[data-severity="${s}"]`).textContent()),
      ),
    )
  }
  return out
}

describe('trends over runs (issue 20 §2)', () => {
  const j = useDemoJourney()
  let page: Page
  beforeAll(() => void ({ page } = j))

  it('shows the account’s 90 days on the dashboard, today recorded by ScanDesk from the list totals', async () => {
    const accountId = await accountIdByLabel(page, 'Demo service')
    await closeSwitcher(page)
    const panel = page.getByTestId('account-trend-panel')
    const chart = panel.getByTestId('account-trend-chart')
    await chart.waitFor(WAIT)
    const today = chart.getByTestId('account-trend-chart-table').locator('tbody tr').last()
    await expect
      .poll(() => today.locator('td').first().textContent(), WAIT)
      .toBe('Recorded by ScanDesk on this computer')
    const totals: number[] = []
    for (const severity of SEVERITIES) {
      const list = await call<{ meta: { pagination: { total_count: number } } }>(
        page,
        accountId,
        'vulnerabilities.list',
        { query: { severity, per_page: 5 } },
      )
      totals.push(list.meta.pagination.total_count)
    }
    const row = await tableCounts(page, 'account-trend-chart')
    expect(Object.values(row).at(-1)).toEqual(totals)
    // The demo's scans ran over the past weeks: the earlier days come from their runs, drawn.
    expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThan(1)
    await chart.locator('.trend-chart__drawing').waitFor(WAIT)
    expect(await panel.getByTestId('account-trend-source').textContent()).toMatch(
      /recorded by ScanDesk on this computer/,
    )
  })

  it('shows a target’s trend over three runs, the hidden table with the history’s counts', async () => {
    const accountId = await accountIdByLabel(page, 'Demo service')
    await closeSwitcher(page)
    const { target, completed } = await targetWithRuns(page, accountId)
    const expected = Object.fromEntries(
      completed.map((r) => [r.id, SEVERITIES.map((s) => r.attributes.severity_counts[s])]),
    )

    await page.evaluate(`location.hash = ${JSON.stringify(`#/targets/${target}`)}`)
    const chart = page.getByTestId('target-trend-chart')
    await expect.poll(() => chart.getAttribute('data-points'), WAIT).toBe(String(completed.length))
    // Drawn, not said in words: three runs make a line.
    await chart.locator('.trend-chart__drawing').waitFor(WAIT)
    expect(await chart.getByTestId('target-trend-chart-one').count()).toBe(0)
    expect(await tableCounts(page, 'target-trend-chart')).toEqual(expected)

    // The scan's page shows its own runs the same way.
    const scanId = completed[0].attributes.scan_id
    const ofScan = completed.filter((r) => r.attributes.scan_id === scanId)
    await page.evaluate(`location.hash = ${JSON.stringify(`#/scans/${scanId}`)}`)
    const scanChart = page.getByTestId('scan-trend-chart')
    await expect.poll(() => scanChart.getAttribute('data-points'), WAIT).toBe(String(ofScan.length))
    expect(await tableCounts(page, 'scan-trend-chart')).toEqual(
      Object.fromEntries(ofScan.map((r) => [r.id, expected[r.id]])),
    )
    expect(j.problems).toEqual([])
  })
})
