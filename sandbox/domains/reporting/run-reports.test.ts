// The report a completed scan run leaves (run-reports.ts), over HTTP against the whole sandbox.
import { createHash } from 'node:crypto'
import Papa from 'papaparse'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createDb } from '../../engine/db'
import { call } from '../../engine/testing'
import { startSandbox, type RunningSandbox } from '../../server'
import type { Row, SandboxContext } from '../../types'
import { reportRun } from './run-reports'
import { download } from './test-harness'

type Item = { id: string; attributes: Record<string, unknown> }
const RUN_MS = 60_000

/** The reports of one scan, as the list filtered by scan_id answers. */
async function reportsOf(sb: RunningSandbox, scanId: string, token: string): Promise<Item[]> {
  const res = await call(sb, 'GET', `/v2/reports?scan_id=${scanId}&per_page=100`, { token })
  expect(res.status).toBe(200)
  return res.json.data as Item[]
}

/** Starts a scan and moves the sandbox clock past its run; answers the scan as it ended. */
async function runToCompletion(sb: RunningSandbox, scanId: string, token: string) {
  expect((await call(sb, 'PUT', `/v2/scans/${scanId}/start`, { token })).status).toBe(200)
  sb.advanceClock(RUN_MS + 1_000)
  const scan = await call(sb, 'GET', `/v2/scans/${scanId}`, { token })
  expect(scan.json.data.attributes.status).toBe('completed')
  return scan.json.data as Item
}

describe('a scan run that completes', () => {
  let sb: RunningSandbox
  let analyst: string
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, testMode: true, scanDurationMs: RUN_MS, log: () => {} })
  })
  afterAll(() => sb?.close())
  beforeEach(() => {
    sb.reset()
    analyst = sb.sessionFor('analyst@sandbox.test')
  })

  it('leaves one report of the run: pending, named for the scan and run, with its findings', async () => {
    const before = await reportsOf(sb, 'scn-001', analyst)
    const scan = await runToCompletion(sb, 'scn-001', analyst)
    const after = await reportsOf(sb, 'scn-001', analyst)
    expect(after).toHaveLength(before.length + 1)
    const made = after.find((r) => !before.some((b) => b.id === r.id))!
    const finished = String(scan.attributes.finished_at)
    expect(made.attributes).toMatchObject({
      name: `${String(scan.attributes.name)} - technical report, ${finished.slice(0, 10)} ${finished.slice(11, 16)} UTC`,
      report_type: 'technical',
      scan_id: 'scn-001',
      status: 'pending',
      files: {},
      findings_count: scan.attributes.vulnerabilities_count,
      created_at: finished,
    })
    expect(scan.attributes.target_ids).toContain(made.attributes.target_id)

    // Generated, its CSV lists exactly the run's findings.
    const gen = await call(sb, 'PUT', `/v2/reports/${made.id}/generate`, {
      token: analyst,
      body: { format: 'csv' },
    })
    expect(gen.status).toBe(202)
    sb.advanceClock(5_000)
    const csv = await download(sb, `/v2/reports/${made.id}/download?format=csv`, analyst)
    expect(csv.status).toBe(200)
    const rows = Papa.parse<{ finding: string }>(csv.bytes.toString('utf8'), {
      header: true,
      skipEmptyLines: true,
    }).data
    const vulns = await call(sb, 'GET', '/v2/scans/scn-001/vulnerabilities?per_page=100', {
      token: analyst,
    })
    // The list keeps findings earlier runs saw and this one fixed (their last_seen_at is older).
    const titles = (vulns.json.data as Item[])
      .filter((v) => v.attributes.last_seen_at === finished)
      .map((v) => String(v.attributes.title))
      .sort()
    expect(titles).toHaveLength(Number(scan.attributes.vulnerabilities_count))
    expect(rows.map((r) => r.finding).sort()).toEqual(titles)
  })

  it('makes it once: later ticks, reads and clock moves add no second report for that run', async () => {
    const before = await reportsOf(sb, 'scn-001', analyst)
    await runToCompletion(sb, 'scn-001', analyst)
    const once = await reportsOf(sb, 'scn-001', analyst)
    expect(once).toHaveLength(before.length + 1)
    sb.advanceClock(10 * RUN_MS)
    await call(sb, 'GET', '/v2/scans/scn-001', { token: analyst })
    expect(await reportsOf(sb, 'scn-001', analyst)).toEqual(once)
  })

  it('makes one per run: a second run leaves a second report', async () => {
    const before = (await reportsOf(sb, 'scn-001', analyst)).length
    await runToCompletion(sb, 'scn-001', analyst)
    await runToCompletion(sb, 'scn-001', analyst)
    const reports = await reportsOf(sb, 'scn-001', analyst)
    expect(reports).toHaveLength(before + 2)
    expect(new Set(reports.map((r) => r.attributes.name)).size).toBe(reports.length)
  })

  it('leaves none for a stopped run', async () => {
    const before = await reportsOf(sb, 'scn-001', analyst)
    await call(sb, 'PUT', '/v2/scans/scn-001/start', { token: analyst })
    sb.advanceClock(RUN_MS / 2)
    expect((await call(sb, 'PUT', '/v2/scans/scn-001/stop', { token: analyst })).status).toBe(200)
    sb.advanceClock(RUN_MS)
    expect(await reportsOf(sb, 'scn-001', analyst)).toEqual(before)
  })

  it('keeps the seeded reports as they were', async () => {
    const all = await call(sb, 'GET', '/v2/reports?per_page=100&sort=created_at', {
      token: sb.sessionFor('admin@sandbox.test'),
    })
    expect((all.json.data as Item[]).map((r) => r.id)).toContain('rpt-019')
    expect(all.json.meta.pagination.total_count).toBe(19)
  })
})

describe('the report of a run is deterministic', () => {
  afterEach(() => vi.useRealTimers())

  /** One fresh sandbox at a fixed time: runs scn-001 and answers its new report and PDF digest. */
  async function runOnce(): Promise<{ report: Item; pdf: string }> {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2030-05-06T07:08:09Z') })
    const sb = await startSandbox({
      port: 0,
      testMode: true,
      scanDurationMs: RUN_MS,
      log: () => {},
    })
    try {
      const token = sb.sessionFor('analyst@sandbox.test')
      const before = await reportsOf(sb, 'scn-001', token)
      await runToCompletion(sb, 'scn-001', token)
      const report = (await reportsOf(sb, 'scn-001', token)).find(
        (r) => !before.some((b) => b.id === r.id),
      )!
      await call(sb, 'PUT', `/v2/reports/${report.id}/generate`, { token, body: { format: 'pdf' } })
      sb.advanceClock(5_000)
      const file = await download(sb, `/v2/reports/${report.id}/download?format=pdf`, token)
      expect(file.status).toBe(200)
      return { report, pdf: createHash('sha256').update(file.bytes).digest('hex') }
    } finally {
      await sb.close()
    }
  }

  it('is the same report, and the same PDF, for the same run of the same seed', async () => {
    const first = await runOnce()
    const second = await runOnce()
    expect(second.report).toEqual(first.report)
    expect(second.pdf).toBe(first.pdf)
    expect(first.report.attributes.name).toMatch(/ - technical report, 2030-05-06 07:09 UTC$/)
  })
})

describe('reportRun', () => {
  const at = new Date('2030-01-02T03:04:05Z')
  function world() {
    const db = createDb()
    const ctx = { db, now: () => at } as unknown as SandboxContext
    const scan = db.insert('scans', {
      id: 'scn-001',
      type: 'scan',
      attributes: { name: 'Perimeter', target_ids: ['tgt-002'] },
      internal: { organization_id: 'org-001', started_by: 'usr-002' },
    })
    const run = (id: string, status: string): Row =>
      db.insert('scan_runs', {
        id,
        type: 'scan_run',
        attributes: { scan_id: 'scn-001', status, finished_at: '2030-01-02T03:00:00.000Z' },
        internal: { organization_id: 'org-001' },
      })
    return { db, ctx, scan, run }
  }

  it('answers the report it made for a run when asked again, making no second one', () => {
    const { db, ctx, scan, run } = world()
    const completed = run('run-001', 'completed')
    const first = reportRun(ctx, scan, completed)!
    expect(reportRun(ctx, scan, completed)).toBe(first)
    expect(db.list('reports')).toHaveLength(1)
    expect(first.attributes).toMatchObject({
      name: 'Perimeter - technical report, 2030-01-02 03:00 UTC',
      scan_id: 'scn-001',
      target_id: 'tgt-002',
      status: 'pending',
    })
    expect(first.internal).toMatchObject({
      organization_id: 'org-001',
      run_id: 'run-001',
      requested_by: 'usr-002',
    })
    expect(reportRun(ctx, scan, run('run-002', 'completed'))!.id).not.toBe(first.id)
  })

  it('makes none for a run that failed or was stopped', () => {
    const { db, ctx, scan, run } = world()
    expect(reportRun(ctx, scan, run('run-001', 'failed'))).toBeNull()
    expect(reportRun(ctx, scan, run('run-002', 'stopped'))).toBeNull()
    expect(db.list('reports')).toEqual([])
  })
})
