// Issue 10 through the core against the real sandbox over HTTP, with a TCP relay in between that
// can cut the line (connections reset and refused) or hold it (accepted, never answered): reads
// served from the encrypted offline copy with their age, connectivity decided from real outcomes
// and probes, "Work offline" sending nothing at all, the outbox replayed in order with a refusal
// kept, a restart with no service, a damaged copy set aside with drafts kept, and the copy gone
// with its account.
import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AccountView } from '@contract/accounts'
import type { ApiCallOutput } from '@contract/channels'
import type { CacheStatus, Connectivity, OutboxItem } from '@contract/offline'
import { MemoryVault } from '../../electron/core/accounts/memory-vault'
import { CACHE_DB_FILE } from '../../electron/core/offline/cache-db'
import type { ExportJob } from '@contract/files'
import { startRelay, type Relay } from '../support/relay'
import { FAST_POLL, recordingHost, tempFolder, waitForJob } from './exports-helpers'
import {
  addAnalyst,
  bytesOf,
  startRecordedSandbox,
  startTestCore,
  type RecordedSandbox,
  type TestCore,
} from './core-helpers'

interface Note {
  id: string
  attributes: { read: boolean; title?: string }
}

let sandbox: RecordedSandbox
let relay: Relay
let t: TestCore
let vault: MemoryVault
let account: AccountView

const FAST = {
  probeBackoff: { baseMs: 50, maxMs: 200 },
  httpLimits: { backoffBaseMs: 10, backoffMaxMs: 20, retries: 1, deadlineMs: 2_000, idleMs: 1_000 },
}

async function start(dataDir?: string): Promise<TestCore> {
  return startTestCore({ ...FAST, vault, ...(dataDir ? { dataDir } : {}) })
}

const read = (op: string, input?: unknown) =>
  t.ok<ApiCallOutput>('api.call', { accountId: account.id, op, input })
const readErr = (op: string, input?: unknown) =>
  t.err('api.call', { accountId: account.id, op, input })
const state = async () =>
  (await t.ok<Connectivity>('connectivity.check', { accountId: account.id })).state
const requests = () => sandbox.requests.length

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`timed out waiting for ${what}`)
}

function lastConnectivity(): Connectivity | undefined {
  return t.events
    .filter((e) => e.name === 'connectivity')
    .map((e) => e.payload as Connectivity)
    .filter((c) => c.accountId === account.id)
    .at(-1)
}

beforeAll(async () => {
  sandbox = await startRecordedSandbox()
  relay = await startRelay(sandbox.port)
})
afterAll(async () => {
  await relay.close()
  await sandbox.close()
})
beforeEach(async () => {
  sandbox.reset()
  relay.restore()
  vault = new MemoryVault()
  t = await start()
  account = await addAnalyst(t, { baseUrl: relay.url, apiKey: sandbox.apiKey })
})
afterEach(async () => {
  await t.close()
  fs.rmSync(t.dataDir, { recursive: true, force: true })
})

describe('reads when the service goes away', () => {
  it('serves what was opened from the copy with its fetch time, and says what never was', async () => {
    expect((await t.ok<{ workOffline: boolean }>('connectivity.get')).workOffline).toBe(false)
    const online = await read('targets.list')
    expect(online.fromCache).toBe(false)
    expect(lastConnectivity()?.state).toBe('online')

    relay.cut()
    const offline = await read('targets.list')
    expect(offline).toEqual({ ...online, fromCache: true })
    expect(lastConnectivity()).toMatchObject({ state: 'unreachable', online: false })
    expect(lastConnectivity()?.message).toMatch(/cannot be reached|connection/i)

    const never = await readErr('scans.list')
    expect(never.code).toBe('OFFLINE')
    expect(never.message).toMatch(/has not been opened on this computer while online/)
  })

  it('answers from the copy at once while the service is known to be down, then catches up', async () => {
    const first = await read('targets.list')
    relay.hold()
    // The first read after the line drops waits for the deadline, then serves the copy…
    expect((await read('targets.list')).fromCache).toBe(true)
    // …later reads do not wait for it again.
    const began = Date.now()
    expect((await read('targets.list')).fromCache).toBe(true)
    expect(Date.now() - began).toBeLessThan(500)

    relay.restore()
    await until(() => lastConnectivity()?.state === 'online', 'the probe to find the service')
    const fresh = await read('targets.list')
    expect(fresh.fromCache).toBe(false)
    expect(Date.parse(fresh.fetchedAt)).toBeGreaterThan(Date.parse(first.fetchedAt))
  })

  it('asks with the copy’s ETag and keeps the copy when the service says 304', async () => {
    const first = await read('targets.list')
    const from = sandbox.lines.length
    const again = await read('targets.list')
    const lines = sandbox.lines.slice(from).map((l) => l.line)
    expect(lines.some((l) => l.startsWith('GET /v2/targets → 304'))).toBe(true)
    expect(again.data).toEqual(first.data)
    expect(again.fromCache).toBe(false)
    expect(Date.parse(again.fetchedAt)).toBeGreaterThanOrEqual(Date.parse(first.fetchedAt))
  })

  it('serves no copy once signed out, and the same copy again after signing in', async () => {
    const online = await read('targets.list')
    await t.ok('accounts.signOut', { accountId: account.id })
    expect((await readErr('targets.list')).code).toBe('NOT_SIGNED_IN')
    expect(lastConnectivity()?.state).toBe('signed-out')
    // Kept on this computer (sealed) unless asked otherwise: the same user finds it again.
    expect((await t.ok<CacheStatus>('cache.status', { accountId: account.id })).entries).toBe(1)
    await t.ok('accounts.signIn', { accountId: account.id, password: 'sandbox-password' })
    relay.cut()
    expect(await read('targets.list')).toEqual({ ...online, fromCache: true })
  })

  it('removes the offline copy and the run snapshots at sign-out when asked to', async () => {
    await read('targets.list')
    await read('scans.list')
    const snapshots = async () =>
      (
        await t.ok<{ snapshots: unknown[] }>('changes.snapshots', {
          accountId: account.id,
          scanId: 'scn-002',
        })
      ).snapshots
    // Opening a completed scan's Changes keeps its latest run.
    expect(await snapshots()).toHaveLength(1)
    await t.ok('accounts.signOut', { accountId: account.id, clearOfflineCopy: true })
    expect((await t.ok<CacheStatus>('cache.status', { accountId: account.id })).entries).toBe(0)
    await t.ok('accounts.signIn', { accountId: account.id, password: 'sandbox-password' })
    relay.cut()
    expect((await readErr('targets.list')).code).toBe('OFFLINE')
    // Out of reach, none is taken again: the one kept before is gone.
    expect(await snapshots()).toEqual([])
  })

  it('never keeps an answer that carries credentials', async () => {
    await read('webhooks.list')
    relay.cut()
    expect((await readErr('webhooks.list')).code).toBe('OFFLINE')
    expect((await t.ok<CacheStatus>('cache.status', { accountId: account.id })).entries).toBe(0)
  })
})

describe('"Work offline"', () => {
  it('sends nothing at all, serves the copy, fails other writes fast and queues safe ones', async () => {
    const notes = (await read('notifications.list')).data as { data: Note[] }
    const unread = notes.data.filter((n) => !n.attributes.read)
    expect(unread.length).toBeGreaterThanOrEqual(2)
    await read('targets.list')

    await t.ok('connectivity.setWorkOffline', { on: true })
    const before = requests()
    expect((await read('targets.list')).fromCache).toBe(true)
    const write = await readErr('targets.create', {
      body: { name: 'Offline target', address: '10.9.9.9' },
    })
    expect(write).toMatchObject({ code: 'OFFLINE' })
    expect(write.message).toMatch(/Work offline.*Nothing was sent/)
    const queued = await read('notifications.mark_read', { path: { id: unread[0].id } })
    expect(queued).toMatchObject({ data: null, queued: { id: expect.any(String) } })
    expect(await state()).toBe('work-offline')
    // Checking the account is blocked too, and says why: not one request reached the service.
    const test = await t.ok<{ message: string }>('accounts.test', { accountId: account.id })
    expect(test.message).toMatch(/Work offline/)
    expect(requests()).toBe(before)

    const items = await t.ok<OutboxItem[]>('outbox.list', { accountId: account.id })
    expect(items).toMatchObject([
      { op: 'notifications.mark_read', target: unread[0].id, state: 'queued' },
    ])

    // A new core keeps the switch: still nothing sent.
    await t.close()
    t = await start(t.dataDir)
    expect((await t.ok<{ workOffline: boolean }>('connectivity.get')).workOffline).toBe(true)
    expect((await read('targets.list')).fromCache).toBe(true)
    expect(requests()).toBe(before)

    await t.ok('connectivity.setWorkOffline', { on: false })
    await until(
      async () => (await t.ok<OutboxItem[]>('outbox.list', { accountId: account.id })).length === 0,
      'the outbox to be sent',
    )
    const shown = (await read('notifications.show', { path: { id: unread[0].id } })).data as {
      data: Note
    }
    expect(shown.data.attributes.read).toBe(true)
  })
})

describe('the outbox', () => {
  it('replays in order when the service is back, keeping a refused item with the reason', async () => {
    const notes = ((await read('notifications.list')).data as { data: Note[] }).data
    const [gone, kept] = notes.filter((n) => !n.attributes.read)
    const from = sandbox.requests.length
    relay.cut()
    for (const id of [gone.id, kept.id]) {
      const out = await read('notifications.mark_read', { path: { id } })
      expect(out.queued).toBeDefined()
    }
    // Meanwhile the first notification is deleted on the service (another device).
    const other = await startTestCore({ vault: new MemoryVault() })
    try {
      const direct = await addAnalyst(other, sandbox)
      await other.ok('api.call', {
        accountId: direct.id,
        op: 'notifications.delete',
        input: { path: { id: gone.id } },
      })
    } finally {
      await other.close()
    }

    relay.restore()
    await until(async () => {
      const items = await t.ok<OutboxItem[]>('outbox.list', { accountId: account.id })
      return items.length === 1 && items[0].state === 'failed'
    }, 'the replay to end')
    const [refused] = await t.ok<OutboxItem[]>('outbox.list', { accountId: account.id })
    expect(refused).toMatchObject({ target: gone.id, error: { code: 'NOT_FOUND' }, attempts: 1 })
    const shown = (await read('notifications.show', { path: { id: kept.id } })).data as {
      data: Note
    }
    expect(shown.data.attributes.read).toBe(true)
    const marks = sandbox.requests.slice(from).filter((l) => l.includes('/mark_read'))
    expect(marks.map((l) => l.split(' ')[1])).toEqual([
      `/v2/notifications/${gone.id}/mark_read`,
      `/v2/notifications/${kept.id}/mark_read`,
    ])

    // The user decides: discard it.
    expect(await t.ok('outbox.discard', { id: refused.id })).toEqual({ discarded: true })
    expect(await t.ok('outbox.list', { accountId: account.id })).toEqual([])
  })
})

describe('across restarts and damage', () => {
  it('shows the same screens with their ages after a restart with no service', async () => {
    const opened = {
      targets: await read('targets.list'),
      scans: await read('scans.list'),
      target: await read('targets.show', { path: { id: 'tgt-001' } }),
    }
    await t.close()
    relay.cut()
    t = await start(t.dataDir)
    expect((await t.ok<Connectivity>('connectivity.check', { accountId: account.id })).state).toBe(
      'unreachable',
    )
    for (const [name, before] of Object.entries(opened)) {
      const input = name === 'target' ? { path: { id: 'tgt-001' } } : undefined
      const op = name === 'target' ? 'targets.show' : `${name}.list`
      expect(await read(op, input), name).toEqual({ ...before, fromCache: true })
    }
    // The stored copy does not hold the answers in clear.
    const host = (opened.target.data as { data: { attributes: { address: string } } }).data
      .attributes.address
    expect(bytesOf(t.dataDir).includes(Buffer.from(host))).toBe(false)
  })

  it('sets a damaged copy aside at start and keeps the drafts and the outbox', async () => {
    await read('targets.list')
    await t.ok('drafts.save', {
      accountId: account.id,
      kind: 'scan-wizard',
      data: { step: 'where', hosts: '10.0.0.1' },
    })
    relay.cut()
    await read('notifications.mark_all_seen')
    await t.close()
    fs.writeFileSync(path.join(t.dataDir, CACHE_DB_FILE), Buffer.alloc(8192, 0x5a))
    t = await start(t.dataDir)
    const status = await t.ok<CacheStatus>('cache.status', { accountId: account.id })
    expect(status).toMatchObject({ entries: 0, persisted: true })
    expect(status.message).toMatch(/damaged .* set aside/)
    expect(await t.ok('drafts.get', { accountId: account.id, kind: 'scan-wizard' })).toMatchObject({
      data: { step: 'where', hosts: '10.0.0.1' },
    })
    expect(await t.ok<OutboxItem[]>('outbox.list', { accountId: account.id })).toHaveLength(1)
    // It fills again as the user works online.
    relay.restore()
    await read('targets.list')
    expect((await t.ok<CacheStatus>('cache.status', { accountId: account.id })).entries).toBe(1)
  })

  it('clears one account’s copy on request, and drops it with its key when the account goes', async () => {
    await read('targets.list')
    await read('scans.list')
    expect((await t.ok<CacheStatus>('cache.status', { accountId: account.id })).entries).toBe(2)
    expect(await t.ok<CacheStatus>('cache.clear', { accountId: account.id })).toMatchObject({
      entries: 0,
      bytes: 0,
    })
    await read('targets.list')
    expect(await vault.get(account.id, 'cache_key')).not.toBeNull()
    await t.ok('accounts.remove', { accountId: account.id })
    expect(await vault.get(account.id, 'cache_key')).toBeNull()
    const db = new Database(path.join(t.dataDir, CACHE_DB_FILE), { readonly: true })
    try {
      expect(db.prepare('SELECT COUNT(*) AS n FROM cache_entries').get()).toEqual({ n: 0 })
    } finally {
      db.close()
    }
  })
})

describe('export jobs', () => {
  it('wait for the service instead of failing, and carry on by themselves when it is back', async () => {
    await t.close()
    t = await startTestCore({
      ...FAST,
      vault,
      dataDir: t.dataDir,
      host: recordingHost(),
      exportBackoff: FAST_POLL,
    })
    const folder = tempFolder()
    await t.ok('files.setFolder', { accountId: account.id, folder })
    await read('targets.list')
    relay.cut()
    const job = await t.ok<ExportJob>('exports.generate', {
      accountId: account.id,
      kind: 'report',
      resourceId: 'rpt-001',
      format: 'pdf',
    })
    const waiting = await waitForJob(t, account.id, job.id, ['failed'])
    expect(waiting.error?.code).toBe('OFFLINE')
    expect(waiting.error?.message).toMatch(/^Waiting for the service — will continue when online/)
    relay.restore()
    // Back online it is named, generated and ready to download, as if nothing had happened.
    const ready = await waitForJob(t, account.id, job.id, ['ready'])
    expect(ready.resourceName).not.toBe('rpt-001')
    await t.ok('exports.download', { jobId: job.id })
    const done = await waitForJob(t, account.id, job.id, ['verified'])
    expect(fs.existsSync(done.path!)).toBe(true)
    fs.rmSync(folder, { recursive: true, force: true })
  })
})
