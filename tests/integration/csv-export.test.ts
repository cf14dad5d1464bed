// CSV exports of the organizations and users lists through the core's dispatch, against the
// sandbox over HTTP: the save dialog (Electron) or a typed path (browser mode), the file written
// atomically, formula cells escaped exactly once (also when the service did not escape them, seen
// through a rewriting proxy), nothing left behind when the dialog is cancelled or the answer is
// not CSV.
import fs from 'node:fs'
import path from 'node:path'
import Papa from 'papaparse'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { ApiCallOutput } from '@contract/channels'
import type { CsvExportOutcome } from '@contract/csv'
import { analystAccount, signedIn, startTestCore, type TestCore } from './core-helpers'
import { filesIn, recordingHost, tempFolder, type RecordingHost } from './exports-helpers'
import { startHttpProxy, type HttpProxy } from '../support/http-proxy'
import { useSandboxAndCore } from './fixture'

const s = useSandboxAndCore({ each: 'none' })
const PLANTED = '=HYPERLINK("http://x")'

/** What the proxy in front of the sandbox does to GET /v2/organizations/export. */
let proxyMode: 'pass' | 'json' | 'html' | 'unescaped' | 'stall' = 'pass'
/** 'stall': called once the head and a first row are sent (the rest never comes). */
let stalled: () => void = () => {}
let proxy: HttpProxy
let proxyUrl = ''

let root: string
let home: string
let t: TestCore
let host: RecordingHost
let account: AccountView
let offered: string[]

beforeAll(async () => {
  proxy = await startHttpProxy(s.sandbox.baseUrl, {
    intercept(req, res) {
      const exporting = req.method === 'GET' && req.url?.startsWith('/v2/organizations/export')
      if (!exporting || proxyMode === 'pass') return false
      if (proxyMode === 'json') {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end('{"data":[{"id":"org-001"}]}')
      } else if (proxyMode === 'stall') {
        res.writeHead(200, { 'content-type': 'text/csv', 'content-length': '1000' })
        res.write('id,name\r\n')
        stalled()
        setTimeout(() => res.destroy(), 10_000).unref()
      } else if (proxyMode === 'html') {
        res.writeHead(200, { 'content-type': 'text/csv' })
        res.end('<!doctype html><title>Gateway</title><p>Sign in to the proxy</p>')
      } else {
        res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' })
        res.end(`id,name\r\norg-001,"${PLANTED.replace(/"/g, '""')}"\r\norg-002,@SUM(1+1)\r\n`)
      }
      return true
    },
  })
  proxyUrl = proxy.baseUrl
})
afterAll(() => proxy.close())

beforeEach(() => {
  s.sandbox.reset()
  proxyMode = 'pass'
  root = tempFolder('scandesk-csv-')
  home = path.join(root, 'home')
  fs.mkdirSync(home)
  offered = []
})
afterEach(async () => {
  await t?.close()
  fs.rmSync(root, { recursive: true, force: true })
})

/** A core in `mode` with the demo administrator (no second factor) through the proxy. */
async function start(mode: 'electron' | 'browser'): Promise<void> {
  host = recordingHost()
  host.userFolders = () => [home]
  const pick = host.pickSaveAs
  host.pickSaveAs = async (defaultPath) => (offered.push(defaultPath), pick(defaultPath))
  t = await startTestCore({ mode, host })
  const admin = analystAccount(
    { baseUrl: proxyUrl, apiKey: s.sandbox.apiKey },
    { label: 'Sandbox admin', username: 'demo@sandbox.test' },
  )
  account = signedIn(await t.ok('accounts.add', admin))
}

async function call<T>(op: string, input: object = {}): Promise<T> {
  const out = await t.ok<ApiCallOutput>('api.call', { accountId: account.id, op, input })
  return out.data as T
}

const rowsOf = (file: string) =>
  Papa.parse<Record<string, string>>(fs.readFileSync(file, 'utf8'), {
    header: true,
    skipEmptyLines: true,
  }).data

const today = () => new Date().toISOString().slice(0, 10)

describe('exporting a list to CSV through the save dialog', () => {
  it('writes the organizations where chosen, a planted formula escaped exactly once', async () => {
    await start('electron')
    await call('organizations.create', { body: { name: PLANTED } })
    const all = await call<{ data: { id: string }[] }>('organizations.list', {
      query: { per_page: 500 },
    })
    const target = path.join(home, 'orgs.csv')
    fs.writeFileSync(target, 'the file the user chose to replace')
    host.answers.saveAs = target

    const out = await t.ok<CsvExportOutcome>('csv.export', {
      accountId: account.id,
      op: 'organizations.export',
    })
    expect(out).toEqual({ saved: true, path: target, rows: all.data.length, escapedCells: 0 })
    expect(offered).toEqual([path.join(home, `Organizations - Sandbox admin - ${today()}.csv`)])
    const rows = rowsOf(target)
    expect(rows.map((r) => r.id).sort()).toEqual(all.data.map((o) => o.id).sort())
    // the sandbox escaped it; ScanDesk did not escape it again
    expect(rows.filter((r) => r.name.includes('HYPERLINK')).map((r) => r.name)).toEqual([
      `'${PLANTED}`,
    ])
    // replaced in place, no temp file left beside it
    expect(filesIn(home)).toEqual(['orgs.csv'])
  })

  it('exports the users with the list filters, adding .csv to a name without it', async () => {
    await start('electron')
    const admins = await call<{ data: { id: string }[] }>('users.list', {
      query: { role: 'administrator', per_page: 500 },
    })
    host.answers.saveAs = path.join(home, 'admins')
    const out = await t.ok<CsvExportOutcome>('csv.export', {
      accountId: account.id,
      op: 'users.export',
      query: { role: 'administrator', sort: 'email' },
    })
    expect(out).toMatchObject({ saved: true, path: path.join(home, 'admins.csv') })
    const rows = rowsOf(path.join(home, 'admins.csv'))
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.map((r) => r.id).sort()).toEqual(admins.data.map((u) => u.id).sort())
    expect(new Set(rows.map((r) => r.role))).toEqual(new Set(['administrator']))
    const emails = rows.map((r) => r.email)
    expect(emails).toEqual([...emails].sort())
  })

  it('escapes formula cells the service left as they were', async () => {
    await start('electron')
    proxyMode = 'unescaped'
    host.answers.saveAs = path.join(home, 'raw.csv')
    const out = await t.ok<CsvExportOutcome>('csv.export', {
      accountId: account.id,
      op: 'organizations.export',
    })
    expect(out).toMatchObject({ saved: true, rows: 2, escapedCells: 2 })
    expect(rowsOf(path.join(home, 'raw.csv')).map((r) => r.name)).toEqual([
      `'${PLANTED}`,
      "'@SUM(1+1)",
    ])
  })

  it('writes nothing when the dialog is cancelled', async () => {
    await start('electron')
    host.answers.saveAs = null
    const exports = () => s.sandbox.requests.filter((r) => r.includes('/export')).length
    const before = exports()
    const out = await t.ok<CsvExportOutcome>('csv.export', {
      accountId: account.id,
      op: 'organizations.export',
    })
    expect(out).toEqual({ saved: false })
    expect(filesIn(home)).toEqual([])
    expect(exports()).toBe(before)
  })

  it('refuses an answer that is not CSV and leaves nothing behind (the old file intact)', async () => {
    await start('electron')
    const target = path.join(home, 'orgs.csv')
    fs.writeFileSync(target, 'yesterday')
    host.answers.saveAs = target
    for (const mode of ['json', 'html'] as const) {
      proxyMode = mode
      const error = await t.err('csv.export', { accountId: account.id, op: 'organizations.export' })
      expect(error.code).toBe('BAD_RESPONSE')
      expect(error.message).toMatch(/did not send a CSV file .*nothing was saved/)
      expect(filesIn(home)).toEqual(['orgs.csv'])
      expect(fs.readFileSync(target, 'utf8')).toBe('yesterday')
    }
  })

  it('stops a CSV download the service is still sending when cancelled, writing nothing', async () => {
    await start('electron')
    proxyMode = 'stall'
    host.answers.saveAs = path.join(home, 'orgs.csv')
    stalled = () => void t.ok('api.cancel', { requestId: 'export-stalled-1' })
    const error = await t.err('csv.export', {
      accountId: account.id,
      op: 'organizations.export',
      requestId: 'export-stalled-1',
    })
    expect(error.code).toBe('CANCELLED')
    expect(filesIn(home)).toEqual([])
  })

  it('refuses a path sent by the renderer: main opens the dialog itself', async () => {
    await start('electron')
    const error = await t.err('csv.export', {
      accountId: account.id,
      op: 'users.export',
      path: path.join(home, 'users.csv'),
    })
    expect(error.code).toBe('FORBIDDEN')
    expect(filesIn(home)).toEqual([])
  })

  it('shows a saved file in its folder, and no other path', async () => {
    await start('electron')
    host.answers.saveAs = path.join(home, 'users.csv')
    const out = await t.ok<CsvExportOutcome>('csv.export', {
      accountId: account.id,
      op: 'users.export',
    })
    expect(out.saved).toBe(true)
    expect(await t.ok('csv.reveal', { path: path.join(home, 'users.csv') })).toEqual({
      revealed: true,
    })
    expect(host.revealed).toEqual([path.join(home, 'users.csv')])
    expect((await t.err('csv.reveal', { path: '/etc/passwd' })).code).toBe('FORBIDDEN')
  })
})

describe('exporting to CSV in browser mode (no save dialog)', () => {
  it('suggests a path in the user folder, then saves where the user typed', async () => {
    await start('browser')
    const first = await t.ok<CsvExportOutcome>('csv.export', {
      accountId: account.id,
      op: 'organizations.export',
    })
    expect(first).toEqual({
      saved: false,
      suggestedPath: path.join(home, `Organizations - Sandbox admin - ${today()}.csv`),
    })
    expect(offered).toEqual([])
    const typed = path.join(home, 'typed.csv')
    const out = await t.ok<CsvExportOutcome>('csv.export', {
      accountId: account.id,
      op: 'organizations.export',
      path: typed,
    })
    expect(out).toMatchObject({ saved: true, path: typed })
    expect(rowsOf(typed).some((r) => r.id === 'org-001')).toBe(true)
  })

  it('replaces an existing file only when asked, and never outside the user folders', async () => {
    await start('browser')
    const typed = path.join(home, 'keep.csv')
    fs.writeFileSync(typed, 'mine')
    const input = { accountId: account.id, op: 'users.export', path: typed }
    const conflict = await t.err('csv.export', input)
    expect(conflict.code).toBe('CONFLICT')
    expect(fs.readFileSync(typed, 'utf8')).toBe('mine')
    await t.ok('csv.export', { ...input, replace: true })
    expect(rowsOf(typed).length).toBeGreaterThan(0)
    expect(filesIn(home)).toEqual(['keep.csv'])

    const outside = path.join(root, 'elsewhere.csv')
    const refused = await t.err('csv.export', { ...input, path: outside })
    expect(refused.code).toBe('FORBIDDEN')
    expect(fs.existsSync(outside)).toBe(false)
  })
})

describe('the vulnerabilities, which the service answers as JSON, written as CSV by ScanDesk', () => {
  type Vuln = { id: string; attributes: { title: string; severity: string; cvss_score: number } }

  it('writes every page of the filter in its sort, and the chosen rows by their ids', async () => {
    await start('electron')
    const high = await call<{ data: Vuln[] }>('vulnerabilities.list', {
      query: { severity: 'high', per_page: 500 },
    })
    expect(high.data.length).toBeGreaterThan(0)
    host.answers.saveAs = path.join(home, 'high.csv')
    const out = await t.ok<CsvExportOutcome>('csv.export', {
      accountId: account.id,
      op: 'vulnerabilities.list',
      query: { severity: 'high', sort: '-cvss_score' },
    })
    expect(out).toEqual({
      saved: true,
      path: path.join(home, 'high.csv'),
      rows: high.data.length,
      escapedCells: 0,
    })
    expect(offered).toEqual([path.join(home, `Vulnerabilities - Sandbox admin - ${today()}.csv`)])
    const rows = rowsOf(path.join(home, 'high.csv'))
    expect(rows.map((r) => r.id).sort()).toEqual(high.data.map((v) => v.id).sort())
    expect(new Set(rows.map((r) => r.severity))).toEqual(new Set(['high']))
    const scores = rows.map((r) => Number(r.cvss_score))
    expect(scores).toEqual([...scores].sort((a, b) => b - a))
    const first = high.data.find((v) => v.id === rows[0].id)!
    expect(rows[0].title).toBe(first.attributes.title)

    const chosen = high.data.slice(0, 2).map((v) => v.id)
    host.answers.saveAs = path.join(home, 'chosen.csv')
    await t.ok('csv.export', {
      accountId: account.id,
      op: 'vulnerabilities.list',
      query: { ids: chosen.join(',') },
    })
    expect(
      rowsOf(path.join(home, 'chosen.csv'))
        .map((r) => r.id)
        .sort(),
    ).toEqual(chosen.sort())
  })
})
