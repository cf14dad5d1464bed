import fs from 'node:fs'
import path from 'node:path'
import tls from 'node:tls'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { AccountList, ApiCallOutput } from '@contract/channels'
import type { ExportJob } from '@contract/files'
import type {
  ConnectionTest,
  ReleaseDetection,
  RemovalPlan,
  SignInOutcome,
} from '@contract/sessions'
import { WRONG_API_KEY } from '../../electron/core/accounts/sign-in'
import { CACHE_DB_FILE } from '../../electron/core/offline/cache-db'
import { DB_FILE } from '../../electron/core/store/database'
import { headlessHost } from '../../electron/core/host'
import { addAnalyst, analystAccount, startRecordedSandbox, startTestCore } from './core-helpers'
import { FAST_POLL, tempFolder, waitForJob } from './exports-helpers'
import { useSandboxAndCore } from './fixture'

const s = useSandboxAndCore({ core: { exportBackoff: FAST_POLL } })
const beta = useSandboxAndCore({ sandbox: { release: '5.0.0-beta1' }, each: 'none' })

const PEM = tls.rootCertificates[0]

describe('editing an account', () => {
  it('changes label, colour and release and announces the change', async () => {
    const account = await addAnalyst(s.t, s.sandbox)
    const view = await s.t.ok<AccountView>('accounts.update', {
      accountId: account.id,
      label: 'Renamed',
      color: '#112233',
      release: '5.4.2',
    })
    expect(view).toMatchObject({ label: 'Renamed', color: '#112233', release: '5.4.2' })
    const listed = s.t.events.filter((e) => e.name === 'accounts.changed').at(-1)
      ?.payload as AccountList
    expect(listed.accounts.find((a) => a.id === account.id)?.label).toBe('Renamed')
    // The client follows the release: operations of later releases are refused.
    const refused = await s.t.err('api.call', { accountId: account.id, op: 'scans.scan_profiles' })
    expect(refused.code).toBe('NOT_IN_RELEASE')
  })

  it('replaces the API key in the keychain and uses it from the next call', async () => {
    const account = await addAnalyst(s.t, s.sandbox)
    await s.t.ok('accounts.update', { accountId: account.id, apiKey: 'not-the-key' })
    expect(await s.t.vault!.get(account.id, 'api_key')).toBe('not-the-key')
    const test = await s.t.ok<ConnectionTest>('accounts.test', { accountId: account.id })
    expect(test).toMatchObject({ reachable: true, apiKeyAccepted: false, message: WRONG_API_KEY })
    await s.t.ok('accounts.update', { accountId: account.id, apiKey: s.sandbox.apiKey })
    const fixed = await s.t.ok<ConnectionTest>('accounts.test', { accountId: account.id })
    expect(fixed).toMatchObject({ apiKeyAccepted: true, session: 'valid' })
    expect(JSON.stringify(s.t.results)).not.toContain('not-the-key')
  })

  it('sets a CA bundle only once the user typed the confirmation, and removes it', async () => {
    const account = await addAnalyst(s.t, s.sandbox)
    const host = new URL(s.sandbox.baseUrl).host
    const asked = await s.t.err('accounts.update', { accountId: account.id, caBundle: PEM })
    expect(asked).toMatchObject({
      code: 'CONFIRMATION_REQUIRED',
      confirmation: { phrase: `trust ${host}` },
    })
    expect(asked.confirmation?.lines[0]).toMatch(
      /^Trust this certificate authority for .*SHA-256 ([0-9A-F]{2}:){31}[0-9A-F]{2}/,
    )
    const wrong = await s.t.err('accounts.update', {
      accountId: account.id,
      caBundle: PEM,
      trustConfirmation: 'yes',
    })
    expect(wrong.code).toBe('CONFIRMATION_REQUIRED')
    const unchanged = s.t.events.filter((e) => e.name === 'accounts.changed').at(-1)
      ?.payload as AccountList
    expect(unchanged.accounts.find((a) => a.id === account.id)?.hasCaBundle).toBe(false)
    const set = await s.t.ok<AccountView>('accounts.update', {
      accountId: account.id,
      caBundle: PEM,
      trustConfirmation: `Trust ${host}`,
    })
    expect(set.hasCaBundle).toBe(true)
    // The same bundle again changes nothing, so nothing is asked.
    await s.t.ok('accounts.update', { accountId: account.id, caBundle: PEM })
    const removed = await s.t.ok<AccountView>('accounts.update', {
      accountId: account.id,
      caBundle: null,
    })
    expect(removed.hasCaBundle).toBe(false)
    const bad = await s.t.err('accounts.update', { accountId: account.id, caBundle: 'not a cert' })
    expect(bad.fieldErrors?.caBundle).toBeDefined()
  })

  it('refuses an unknown account', async () => {
    const error = await s.t.err('accounts.update', { accountId: 'acct-missing', label: 'x' })
    expect(error.code).toBe('UNKNOWN_ACCOUNT')
  })
})

describe('trusting more than the system does (CA bundle, plain http)', () => {
  it('adds with a CA bundle only once confirmed: typed in browser mode, main’s dialog in Electron', async () => {
    const input = { ...analystAccount(s.sandbox), caBundle: PEM }
    const host = new URL(s.sandbox.baseUrl).host
    const before = s.sandbox.requests.length
    const asked = await s.t.err('accounts.add', input)
    expect(asked).toMatchObject({
      code: 'CONFIRMATION_REQUIRED',
      confirmation: { phrase: `trust ${host}` },
    })
    const probe = await s.t.err('accounts.detectRelease', {
      baseUrl: s.sandbox.baseUrl,
      apiKey: s.sandbox.apiKey,
      caBundle: PEM,
    })
    expect(probe.code).toBe('CONFIRMATION_REQUIRED')
    expect(s.sandbox.requests.length).toBe(before)
    expect((await s.t.ok<AccountList>('accounts.list')).accounts).toEqual([])
    const added = await s.t.ok<SignInOutcome>('accounts.add', {
      ...input,
      trustConfirmation: `trust ${host}`,
    })
    expect(added.status).toBe('signedIn')

    const asks: string[][] = []
    let answer = false
    const electron = await startTestCore({
      mode: 'electron',
      host: { ...headlessHost, confirmTrust: async (r) => (asks.push(r.lines), answer) },
    })
    try {
      const sent = s.sandbox.requests.length
      const declined = await electron.err('accounts.add', {
        ...input,
        trustConfirmation: `trust ${host}`,
      })
      expect(declined.code).toBe('CANCELLED')
      expect(asks).toHaveLength(1)
      expect(s.sandbox.requests.length).toBe(sent)
      answer = true
      expect((await electron.ok<SignInOutcome>('accounts.add', input)).status).toBe('signedIn')
    } finally {
      await electron.close()
    }
  })
})

describe('testing the connection', () => {
  it('reports reachability, latency, the API key, the session and the release', async () => {
    const account = await addAnalyst(s.t, s.sandbox)
    const test = await s.t.ok<ConnectionTest>('accounts.test', { accountId: account.id })
    expect(test).toMatchObject({
      reachable: true,
      apiKeyAccepted: true,
      session: 'valid',
      detectedRelease: 'latest',
    })
    expect(test.latencyMs).toBeGreaterThanOrEqual(0)
    expect(test.message).toContain('The session is valid.')
    expect(s.sandbox.requests).toContainEqual(
      expect.stringMatching(/^GET \/v2\/user\/token_validity → 200/),
    )
    await s.t.ok('accounts.signOut', { accountId: account.id })
    const out = await s.t.ok<ConnectionTest>('accounts.test', { accountId: account.id })
    expect(out).toMatchObject({ reachable: true, apiKeyAccepted: true, session: 'none' })
  })

  it('says when the session has ended without pausing the account', async () => {
    const account = await addAnalyst(s.t, s.sandbox)
    s.sandbox.advanceClock(9 * 60 * 60 * 1000)
    const test = await s.t.ok<ConnectionTest>('accounts.test', { accountId: account.id })
    expect(test).toMatchObject({ reachable: true, apiKeyAccepted: true, session: 'expired' })
    expect(s.t.events.filter((e) => e.name === 'accounts.reauthRequired')).toEqual([])
  })

  it('says when the service cannot be reached', async () => {
    const gone = await startRecordedSandbox()
    const account = await addAnalyst(s.t, gone)
    await gone.close()
    const test = await s.t.ok<ConnectionTest>('accounts.test', { accountId: account.id })
    expect(test).toMatchObject({ reachable: false, latencyMs: null, detectedRelease: null })
    expect(test.message).toContain('could not reach')
  })
})

describe('detecting the release', () => {
  it('recognises an older release before the account is added', async () => {
    const found = await s.t.ok<ReleaseDetection>('accounts.detectRelease', {
      baseUrl: beta.sandbox.baseUrl,
      apiKey: beta.sandbox.apiKey,
    })
    expect(found.release).toBe('5.0.0-beta1')
    expect(found.evidence.at(-1)).toContain('5.0.0-beta1')
    expect(found.evidence.some((l) => l.includes('not there (404)'))).toBe(true)
  })

  it('recognises the release of a stored, signed-in account', async () => {
    const account = await addAnalyst(s.t, beta.sandbox, { release: '5.0.0-beta1' })
    const found = await s.t.ok<ReleaseDetection>('accounts.detectRelease', {
      accountId: account.id,
    })
    expect(found.release).toBe('5.0.0-beta1')
    const latest = await addAnalyst(s.t, s.sandbox, { label: 'Latest' })
    const again = await s.t.ok<ReleaseDetection>('accounts.detectRelease', { accountId: latest.id })
    expect(again.release).toBe('latest')
  })

  it('refuses a bad address and a wrong API key with a clear message', async () => {
    const before = s.sandbox.requests.length
    const bad = await s.t.err('accounts.detectRelease', { baseUrl: 'ftp://x', apiKey: 'k' })
    expect(bad.code).toBe('VALIDATION')
    expect(bad.fieldErrors?.baseUrl).toEqual(['must start with https:// or http://'])
    expect(s.sandbox.requests.length).toBe(before)
    const wrong = await s.t.err('accounts.detectRelease', {
      baseUrl: s.sandbox.baseUrl,
      apiKey: 'not-the-key',
    })
    expect(wrong).toMatchObject({ code: 'UNAUTHORIZED', message: WRONG_API_KEY })
  })
})

describe('what removing an account deletes', () => {
  it('counts keychain entries, export jobs, ledger entries and the files that stay', async () => {
    const account = await addAnalyst(s.t, s.sandbox)
    const folder = tempFolder()
    await s.t.ok('files.setFolder', { accountId: account.id, folder })
    const empty = await s.t.ok<RemovalPlan>('accounts.removalPlan', { accountId: account.id })
    expect(empty).toEqual({
      accountId: account.id,
      label: 'Sandbox analyst',
      keychainEntries: 2,
      exportJobs: 0,
      ledgerEntries: 0,
      cachedRecords: 0,
      drafts: 0,
      draftsByKind: { saq: 0, 'scan-wizard': 0, 'saved-views': 0, dialog: 0 },
      outboxItems: 0,
      runSnapshots: 0,
      savedViews: 0,
      bulkRuns: 0,
      dailyTotals: 0,
      filesKept: 0,
    })

    const job = await s.t.ok<ExportJob>('exports.generate', {
      accountId: account.id,
      kind: 'report',
      resourceId: 'rpt-001',
      format: 'csv',
    })
    await waitForJob(s.t, account.id, job.id, ['ready'])
    await s.t.ok('exports.download', { jobId: job.id })
    const done = await waitForJob(s.t, account.id, job.id, ['verified', 'failed', 'mismatch'])
    expect(done.state).toBe('verified')
    await s.t.ok('accounts.setRemember', {
      accountId: account.id,
      remember: true,
      password: 'sandbox-password',
    })

    const plan = await s.t.ok<RemovalPlan>('accounts.removalPlan', { accountId: account.id })
    expect(plan).toMatchObject({
      keychainEntries: 3,
      exportJobs: 1,
      ledgerEntries: 1,
      filesKept: 1,
    })
    fs.rmSync(done.path!)
    const after = await s.t.ok<RemovalPlan>('accounts.removalPlan', { accountId: account.id })
    expect(after.filesKept).toBe(0)
  })
})

describe('what removing an account deletes on this computer', () => {
  it('counts its offline copy, drafts and queued changes, and they go with it', async () => {
    const account = await addAnalyst(s.t, s.sandbox)
    const other = await addAnalyst(s.t, s.sandbox, {
      label: 'Other',
      username: 'manager@sandbox.test',
    })
    const call = (accountId: string, op: string, input?: unknown) =>
      s.t.ok<ApiCallOutput>('api.call', { accountId, op, input })
    for (const id of [account.id, other.id]) {
      await call(id, 'targets.list')
      await s.t.ok('drafts.save', { accountId: id, kind: 'saq', key: 'saq-a', data: { a: 1 } })
    }
    const notes = await call(account.id, 'notifications.list')
    await s.t.ok('drafts.save', { accountId: account.id, kind: 'saq', key: 'saq-b', data: {} })
    await s.t.ok('drafts.save', { accountId: account.id, kind: 'scan-wizard', data: { step: 1 } })
    const view = (id: string) => ({
      id,
      name: id,
      resource: 'targets',
      query: {},
      isDefault: false,
    })
    await s.t.ok('drafts.save', {
      accountId: account.id,
      kind: 'saved-views',
      data: { views: [view('view-a'), view('view-b')] },
    })
    // A completed scan's Changes keep its latest run (and the offline copy its history's runs).
    await s.t.ok('changes.snapshots', { accountId: account.id, scanId: 'scn-002' })
    // Working offline, a mark waits in the outbox.
    await s.t.ok('connectivity.setWorkOffline', { on: true })
    const [note] = (notes.data as { data: { id: string }[] }).data
    const queued = await call(account.id, 'notifications.mark_read', { path: { id: note.id } })
    expect(queued.queued).toBeDefined()
    // A bulk run started offline: kept with its result per item, its write in the outbox.
    await s.t.ok('bulk.start', {
      accountId: account.id,
      action: 'exceptions.create',
      body: { kind: 'accepted_risk', reason: 'Counted', expires_at: '2099-01-01T00:00:00Z' },
      items: [{ id: 'vul-001', label: 'A finding' }],
    })

    const plan = await s.t.ok<RemovalPlan>('accounts.removalPlan', { accountId: account.id })
    expect(plan).toMatchObject({
      cachedRecords: 3,
      drafts: 3,
      draftsByKind: { saq: 2, 'scan-wizard': 1, 'saved-views': 1 },
      outboxItems: 2,
      runSnapshots: 1,
      savedViews: 2,
      bulkRuns: 1,
    })

    await s.t.ok('accounts.remove', { accountId: account.id })
    const db = new Database(path.join(s.t.dataDir, DB_FILE), { readonly: true })
    const cache = new Database(path.join(s.t.dataDir, CACHE_DB_FILE), { readonly: true })
    try {
      const count = (d: Database.Database, table: string, id: string) =>
        (
          d.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE account_id = ?`).get(id) as {
            n: number
          }
        ).n
      for (const [d, table] of [
        [db, 'drafts'],
        [db, 'outbox'],
        [db, 'run_snapshots'],
        [db, 'bulk_runs'],
        [cache, 'cache_entries'],
      ] as const) {
        expect(count(d, table, account.id), table).toBe(0)
        // The other account keeps its own.
        if (['drafts', 'cache_entries'].includes(table))
          expect(count(d, table, other.id), table).toBe(1)
      }
    } finally {
      db.close()
      cache.close()
    }
  })
})

describe('opening an account in its own window', () => {
  it('asks the host for a window of that account, and refuses an unknown one', async () => {
    const account = await addAnalyst(s.t, s.sandbox)
    const opened = await s.t.ok('accounts.openWindow', { accountId: account.id })
    expect(opened).toEqual({
      opened: 'url',
      url: `/?account=${encodeURIComponent(account.id)}#/`,
    })
    const error = await s.t.err('accounts.openWindow', { accountId: 'acct-missing' })
    expect(error.code).toBe('UNKNOWN_ACCOUNT')
  })
})
