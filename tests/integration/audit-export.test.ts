// The audit log saved to a file through the core's dispatch, against the sandbox over HTTP (220
// seeded events, read in pages of 100): every page of the filter, as CSV or JSON Lines, equals the
// pages read one by one; progress is reported per page; a cancelled export leaves no file.
import fs from 'node:fs'
import path from 'node:path'
import Papa from 'papaparse'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { ApiCallOutput } from '@contract/channels'
import type { CsvExportOutcome } from '@contract/csv'
import { analystAccount, signedIn, startTestCore, type TestCore } from './core-helpers'
import { filesIn, recordingHost, tempFolder } from './exports-helpers'
import { useSandboxAndCore } from './fixture'

const s = useSandboxAndCore({ each: 'none' })

interface AuditEvent {
  id: string
  type: string
  attributes: Record<string, unknown>
}

let root: string
let t: TestCore
let account: AccountView

beforeEach(async () => {
  s.sandbox.reset()
  root = tempFolder('scandesk-audit-')
  const host = recordingHost()
  host.userFolders = () => [root]
  t = await startTestCore({ mode: 'browser', host })
  const admin = analystAccount(
    { baseUrl: s.sandbox.baseUrl, apiKey: s.sandbox.apiKey },
    { label: 'Sandbox admin', username: 'demo@sandbox.test' },
  )
  account = signedIn(await t.ok('accounts.add', admin))
})
afterEach(async () => {
  await t?.close()
  fs.rmSync(root, { recursive: true, force: true })
})

/** The audit log read one page at a time (pages of 30, unlike the export's 100). */
async function pagesOneByOne(query: Record<string, string>): Promise<AuditEvent[]> {
  const all: AuditEvent[] = []
  for (let page = 1; ; page++) {
    const out = await t.ok<ApiCallOutput>('api.call', {
      accountId: account.id,
      op: 'audit.list',
      input: { query: { ...query, page, per_page: 30 } },
    })
    const data = (out.data as { data: AuditEvent[] }).data
    all.push(...data)
    if (data.length < 30) return all
  }
}

const progressOf = (requestId: string) =>
  t.events
    .filter((e) => e.name === 'csv.progress')
    .map((e) => e.payload as { requestId: string; rows: number; total: number | null })
    .filter((p) => p.requestId === requestId)
    .map(({ rows, total }) => ({ rows, total }))

describe('exporting the audit log', () => {
  it('writes every page as JSON Lines, the records exactly as the pages read one by one', async () => {
    const query = { sort: '-occurred_at' }
    const expected = await pagesOneByOne(query)
    expect(expected.length).toBeGreaterThan(200)
    const target = path.join(root, 'audit.jsonl')
    const out = await t.ok<CsvExportOutcome>('csv.export', {
      accountId: account.id,
      op: 'audit.list',
      format: 'jsonl',
      query,
      path: target,
      requestId: 'export-jsonl-1',
    })
    expect(out).toEqual({ saved: true, path: target, rows: expected.length, escapedCells: 0 })
    const text = fs.readFileSync(target, 'utf8')
    const lines = text.split('\n')
    expect(lines.pop()).toBe('')
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual(expected)
    // one report per page of 100
    expect(progressOf('export-jsonl-1')).toEqual([
      { rows: 100, total: expected.length },
      { rows: 200, total: expected.length },
      { rows: expected.length, total: expected.length },
    ])
    expect(filesIn(root)).toEqual(['audit.jsonl'])
  })

  it('writes the current filter as CSV, each row the event of the pages read one by one', async () => {
    const first = (await pagesOneByOne({ sort: 'occurred_at' }))[0]
    const query = {
      sort: 'occurred_at',
      resource_type: String(first.attributes.resource_type),
      to: new Date().toISOString().slice(0, 10),
    }
    const expected = await pagesOneByOne(query)
    expect(expected.length).toBeGreaterThan(1)
    const target = path.join(root, 'audit')
    const out = await t.ok<CsvExportOutcome>('csv.export', {
      accountId: account.id,
      op: 'audit.list',
      query,
      path: target,
    })
    expect(out).toMatchObject({ saved: true, path: `${target}.csv`, rows: expected.length })
    const rows = Papa.parse<Record<string, string>>(fs.readFileSync(`${target}.csv`, 'utf8'), {
      header: true,
      skipEmptyLines: true,
    }).data
    const text = (v: unknown) =>
      v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)
    expect(rows).toEqual(
      expected.map((e) => ({
        id: e.id,
        ...Object.fromEntries(
          [
            'occurred_at',
            'action',
            'actor_id',
            'actor_email',
            'resource_type',
            'resource_id',
            'ip_address',
            'user_agent',
            'details',
          ].map((k) => [k, text(e.attributes[k])]),
        ),
      })),
    )
  })

  it('leaves no file when cancelled while reading the pages', async () => {
    const stop = t.core.events.on('csv.progress', (p) => {
      if (p.requestId === 'export-cancel-1') void t.ok('api.cancel', { requestId: p.requestId })
    })
    const target = path.join(root, 'cancelled.jsonl')
    const err = await t.err('csv.export', {
      accountId: account.id,
      op: 'audit.list',
      format: 'jsonl',
      path: target,
      requestId: 'export-cancel-1',
    })
    stop()
    expect(err.code).toBe('CANCELLED')
    expect(progressOf('export-cancel-1')).toEqual([{ rows: 100, total: expect.any(Number) }])
    expect(filesIn(root)).toEqual([])
  })

  it('saves only the audit log as JSON Lines, and never replaces a file unasked', async () => {
    const refused = await t.err('csv.export', {
      accountId: account.id,
      op: 'organizations.export',
      format: 'jsonl',
      path: path.join(root, 'orgs.jsonl'),
    })
    expect(refused.code).toBe('VALIDATION')
    const target = path.join(root, 'kept.jsonl')
    fs.writeFileSync(target, 'the user’s own file')
    const taken = await t.err('csv.export', {
      accountId: account.id,
      op: 'audit.list',
      format: 'jsonl',
      path: target,
    })
    expect(taken.code).toBe('CONFLICT')
    expect(fs.readFileSync(target, 'utf8')).toBe('the user’s own file')
    expect(filesIn(root)).toEqual(['kept.jsonl'])
  })
})
