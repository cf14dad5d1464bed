// Without a keychain (issue 36 §4): an account has no key to seal what ScanDesk keeps of it, so
// saved views, drafts, bulk runs and queued changes are kept in memory for the run, through the
// core against the real sandbox over HTTP. Each answer says so (`kept: 'memory'`), nothing of
// them reaches the data folder, a bulk run's writes are still each made once, and a restart
// keeps none of them.
import fs from 'node:fs'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { BulkRunDetails, BulkRunView } from '@contract/bulk'
import type { ApiCallOutput } from '@contract/channels'
import type { DraftView } from '@contract/drafts'
import type { OutboxCounts, OutboxItem } from '@contract/offline'
import { KeychainError } from '../../electron/core/accounts/keychain-vault'
import { MemoryVault } from '../../electron/core/accounts/memory-vault'
import type { SecretKind } from '../../electron/core/accounts/vault'
import {
  addAnalyst,
  bytesOf,
  startRecordedSandbox,
  startTestCore,
  type RecordedSandbox,
  type TestCore,
} from './core-helpers'
import { startFaultProxy, type FaultProxy } from './faults-helpers'

/** Secrets in memory, and a keychain that does not answer until `down` is false. */
class AbsentKeychain extends MemoryVault {
  down = true
  override async lookup(accountId: string, kind: SecretKind): Promise<string | null> {
    if (this.down) throw new KeychainError('it is not available')
    return super.lookup(accountId, kind)
  }
  override async persist(accountId: string, kind: SecretKind, value: string): Promise<void> {
    if (this.down) throw new KeychainError('it is not available')
    return super.persist(accountId, kind, value)
  }
}

interface Row {
  id: string
  attributes: Record<string, unknown>
}

let sandbox: RecordedSandbox
let proxy: FaultProxy
let vault: AbsentKeychain
let t: TestCore
let account: AccountView
let MARK = ''
let tests = 0

const FAST = {
  probeBackoff: { baseMs: 20, maxMs: 100 },
  httpLimits: { backoffBaseMs: 5, backoffMaxMs: 20, retries: 1, deadlineMs: 5_000 },
}
const start = (dataDir?: string) =>
  startTestCore({ ...FAST, vault, ...(dataDir ? { dataDir } : {}) })

async function list(op: string, query: Record<string, unknown>): Promise<Row[]> {
  const out = await t.ok<ApiCallOutput>('api.call', { accountId: account.id, op, input: { query } })
  return (out.data as { data: Row[] }).data
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 60_000) {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`timed out waiting for ${what}`)
}

async function finished(runId: string): Promise<BulkRunDetails> {
  let run: BulkRunDetails | null = null
  await until(async () => {
    run = await t.ok<BulkRunDetails>('bulk.get', { runId })
    return run.state === 'finished'
  }, 'the run to finish')
  return run!
}

/** `n` findings of the analyst without an open exception. */
async function freeFindings(n: number): Promise<Row[]> {
  const open = new Set<string>()
  for (let page = 1; ; page++) {
    const batch = await list('exceptions.list', { page, per_page: 500 })
    for (const e of batch)
      if (e.attributes.state !== 'expired') open.add(String(e.attributes.vulnerability_id))
    if (batch.length < 500) break
  }
  const free = (await list('vulnerabilities.list', { per_page: 500 })).filter(
    (v) => !open.has(v.id),
  )
  if (free.length < n) throw new Error(`the seed has ${free.length} free findings`)
  return free.slice(0, n)
}

/** True when `text` is anywhere in the data folder's files. */
const onDisk = (text: string) => bytesOf(t.dataDir).includes(Buffer.from(text))

const savedViews = (name: string) => ({
  accountId: account.id,
  kind: 'saved-views',
  key: '',
  data: {
    views: [{ id: 'view-1', name, resource: 'vulnerabilities', query: {}, isDefault: false }],
  },
})

beforeAll(async () => {
  sandbox = await startRecordedSandbox()
  proxy = await startFaultProxy(sandbox)
})
afterAll(async () => {
  await proxy.close()
  await sandbox.close()
})
beforeEach(async () => {
  MARK = `NOKC-${++tests}-${Date.now().toString(36)}`
  proxy.faults = { ...proxy.faults, unavailable: 0, dropped: 0, pass: 0, matching: null }
  vault = new AbsentKeychain()
  t = await start()
  account = await addAnalyst(t, { baseUrl: proxy.baseUrl, apiKey: sandbox.apiKey })
})
afterEach(async () => {
  await t.close()
  fs.rmSync(t.dataDir, { recursive: true, force: true })
})

describe('saved views and drafts without a keychain', () => {
  it('are kept in memory for the run, say so, and none of them reaches the disk', async () => {
    const view = await t.ok<{ kept: string }>('drafts.save', savedViews(`${MARK} view`))
    expect(view).toMatchObject({ kept: 'memory', savedAt: expect.any(String) })
    const saq = { accountId: account.id, kind: 'saq', key: 'draft-1' }
    await t.ok('drafts.save', { ...saq, data: { explanation: `${MARK} explanation` } })

    // A reload asks again: the same run of ScanDesk answers from memory, saying where it is.
    expect(
      await t.ok<DraftView>('drafts.get', { accountId: account.id, kind: 'saved-views' }),
    ).toMatchObject({ kept: 'memory', data: { views: [{ name: `${MARK} view` }] } })
    expect(await t.ok<DraftView>('drafts.get', saq)).toMatchObject({
      kept: 'memory',
      data: { explanation: `${MARK} explanation` },
    })
    expect(await t.ok('drafts.list', { accountId: account.id, kind: 'saq' })).toMatchObject([
      { key: 'draft-1', kept: 'memory' },
    ])
    // Removing the account would name them.
    const plan = await t.ok<{ savedViews: number; drafts: number }>('accounts.removalPlan', {
      accountId: account.id,
    })
    expect(plan).toMatchObject({ savedViews: 1, drafts: 1 })

    expect(onDisk(MARK)).toBe(false)
    // A restart keeps none of them (as the screens said when they were saved).
    await t.close()
    t = await start(t.dataDir)
    expect(
      await t.ok('drafts.get', { accountId: account.id, kind: 'saved-views', key: '' }),
    ).toBeNull()
    expect(await t.ok('drafts.get', saq)).toBeNull()
  })

  it('go to disk, sealed, once the keychain answers: unless one there was never opened', async () => {
    await t.ok('drafts.save', savedViews(`${MARK} first`))
    vault.down = false
    // The key is at hand now: the view held in memory moves to disk with its next save.
    expect(await t.ok('drafts.save', savedViews(`${MARK} second`))).toMatchObject({ kept: 'disk' })
    expect(
      await t.ok<DraftView>('drafts.get', { accountId: account.id, kind: 'saved-views' }),
    ).toMatchObject({ kept: 'disk', data: { views: [{ name: `${MARK} second` }] } })
    expect(onDisk(MARK)).toBe(false) // sealed

    // The keychain goes away again (a new run): the views on disk cannot be opened, and a view
    // saved meanwhile is kept in memory, never over them.
    await t.close()
    vault.down = true
    t = await start(t.dataDir)
    expect((await t.err('drafts.get', { accountId: account.id, kind: 'saved-views' })).code).toBe(
      'KEYCHAIN_UNAVAILABLE',
    )
    expect(await t.ok('drafts.save', savedViews(`${MARK} third`))).toMatchObject({
      kept: 'memory',
    })
    vault.down = false
    expect(await t.ok('drafts.save', savedViews(`${MARK} fourth`))).toMatchObject({
      kept: 'memory',
    })
    await t.close()
    t = await start(t.dataDir)
    expect(
      await t.ok<DraftView>('drafts.get', { accountId: account.id, kind: 'saved-views' }),
    ).toMatchObject({ kept: 'disk', data: { views: [{ name: `${MARK} second` }] } })
  })
})

describe('a bulk run without a keychain', { timeout: 120_000 }, () => {
  it('is kept in memory, waits offline, and makes each write once through lost answers', async () => {
    const free = await freeFindings(12)
    const reason = `${MARK} compensating control`
    await t.ok('connectivity.setWorkOffline', { on: true })
    const run = await t.ok<BulkRunView>('bulk.start', {
      accountId: account.id,
      action: 'exceptions.create',
      body: { kind: 'accepted_risk', reason, expires_at: '2099-06-30T00:00:00Z' },
      items: free.map((v) => ({
        id: v.id,
        label: `${MARK} ${String(v.attributes.title)}`,
        host: { id: String(v.attributes.host_id), name: String(v.attributes.host_ip) },
      })),
    })
    expect(run).toMatchObject({ kept: 'memory', counts: { total: 12, queued: 12 } })
    const counts = t.events.filter((e) => e.name === 'outbox.changed').at(-1)?.payload
    expect(counts as OutboxCounts).toMatchObject({ accountId: account.id, queued: 12 })
    expect(await t.ok('bulk.list', { accountId: account.id })).toMatchObject([
      { id: run.id, kept: 'memory' },
    ])

    // The 4th and 5th creates are made by the sandbox but their answers are lost.
    Object.assign(proxy.faults, {
      matching: (method: string, p: string) => method === 'POST' && p === '/v2/exceptions',
      pass: 3,
      unavailable: 1,
      dropped: 1,
    })
    const from = sandbox.requests.length
    await t.ok('connectivity.setWorkOffline', { on: false })
    await t.ok('connectivity.check', { accountId: account.id })
    const done = await finished(run.id)
    expect(proxy.faults.unavailable + proxy.faults.dropped).toBe(0)
    expect(done.counts).toMatchObject({ done: 12, failed: 0, queued: 0 })
    expect(done.items.every((i) => i.attempts === 1)).toBe(true)
    expect(done.items.map((i) => i.host?.name)).toEqual(free.map((v) => v.attributes.host_ip))
    const creates = sandbox.requests.slice(from).filter((l) => l.startsWith('POST /v2/exceptions '))
    expect(creates).toHaveLength(12)
    const ours = (await list('exceptions.list', { per_page: 500 })).filter(
      (e) => e.attributes.reason === reason,
    )
    expect(ours.map((e) => e.attributes.vulnerability_id).sort()).toEqual(
      free.map((v) => v.id).sort(),
    )

    expect(onDisk(MARK)).toBe(false)
    expect(await t.ok('accounts.removalPlan', { accountId: account.id })).toMatchObject({
      bulkRuns: 1,
    })
    await t.close()
    t = await start(t.dataDir)
    expect((await t.err('bulk.get', { runId: run.id })).code).toBe('NOT_FOUND')
  })

  it('goes with its account, and a queued change is kept in memory too', async () => {
    const notes = (
      (
        await t.ok<ApiCallOutput>('api.call', {
          accountId: account.id,
          op: 'notifications.list',
        })
      ).data as { data: Row[] }
    ).data
    const unread = notes.find((n) => !n.attributes.read)!
    const [finding] = await freeFindings(1)
    await t.ok('connectivity.setWorkOffline', { on: true })
    const queued = await t.ok<ApiCallOutput>('api.call', {
      accountId: account.id,
      op: 'notifications.mark_read',
      input: { path: { id: unread.id } },
    })
    expect(queued.queued).toBeTruthy()
    expect(await t.ok<OutboxItem[]>('outbox.list', { accountId: account.id })).toMatchObject([
      { op: 'notifications.mark_read', target: unread.id, state: 'queued', kept: 'memory' },
    ])
    const run = await t.ok<BulkRunView>('bulk.start', {
      accountId: account.id,
      action: 'exceptions.create',
      body: { kind: 'false_positive', reason: MARK, expires_at: '2099-06-30T00:00:00Z' },
      items: [{ id: finding.id }],
    })
    await t.ok('drafts.save', savedViews(MARK))

    await t.ok('accounts.remove', { accountId: account.id })
    expect((await t.err('bulk.get', { runId: run.id })).code).toBe('NOT_FOUND')
    // A new account of the same user starts with nothing of the removed one.
    await t.ok('connectivity.setWorkOffline', { on: false })
    account = await addAnalyst(t, { baseUrl: proxy.baseUrl, apiKey: sandbox.apiKey })
    expect(await t.ok('outbox.list', { accountId: account.id })).toEqual([])
    expect(await t.ok('bulk.list', { accountId: account.id })).toEqual([])
  })
})
