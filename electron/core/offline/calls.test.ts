// A cached answer is checked against the operation's schema when it is read, not only when it was
// written: offlineCall over a real offline copy (SQLite in a temp folder, sealed with a key from a
// memory vault) and a real client, against a loopback service or none at all.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { findOperation } from '@contract/catalog/index'
import type { OperationDef } from '@contract/catalog/types'
import { AppFailure } from '@contract/errors'
import { AccountKeys } from '../accounts/account-keys'
import { MemoryVault } from '../accounts/memory-vault'
import { createAccountClient, type AccountClient } from '../http/client'
import { toJsonText } from '../json-text'
import { json, startTestServer, type TestServer } from '../http/test-server'
import type { AccountRow } from '../store/accounts-repo'
import { openCacheDatabase } from './cache-db'
import { CacheStore, type CachedAnswer, type CacheOwner } from './cache-store'
import { offlineCall, requestText, type OfflineCallDeps } from './calls'

const op = findOperation('targets.list') as OperationDef
const row = { id: 'acc-1' } as AccountRow
const OWNER: CacheOwner = { accountId: row.id, identity: 'usr-1' }
const REQUEST = requestText(op, {})
const FETCHED = '2026-11-20T10:00:00.000Z'

const target = (attributes: Record<string, unknown>) => ({
  id: 't1',
  type: 'target',
  attributes: { name: 'Web', address: '10.0.0.1', ...attributes },
})
const FITS = { data: [target({})], meta: { pagination: { current_page: 1 } } }
/** What an earlier, looser ScanDesk could have kept (or an altered row): not a list at all. */
const UNFIT = { data: 'not a list' }
/** Fits only tolerantly: a display field of another type. */
const TOLERABLE = { data: [target({ name: 42 })] }

let server: TestServer
let dir: string
let cache: CacheStore
let logged: string[]
let blocked: string | null

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-calls-'))
  const opened = openCacheDatabase(dir)
  cache = new CacheStore(opened.db, {
    keys: new AccountKeys(new MemoryVault()),
    maxBytes: () => 64 * 1024 ** 2,
  })
  logged = []
  blocked = null
  server.seen.length = 0
})
afterEach(() => {
  vi.restoreAllMocks()
  cache.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

function client(baseUrl: string): AccountClient {
  return createAccountClient({
    baseUrl,
    apiKey: 'k',
    getAuth: () => ({ scheme: 'Bearer', token: 't' }),
    release: 'latest',
    limits: { retries: 0, deadlineMs: 5_000, idleMs: 2_000 },
  })
}

/** offlineCall with the service at `baseUrl` (port 9: nothing listens). */
function call(baseUrl = 'http://127.0.0.1:9') {
  const c = client(baseUrl)
  const deps: OfflineCallDeps = {
    cache,
    connectivity: {
      blockedReason: () => blocked,
      knownUnreachable: () => false,
      nudge: () => undefined,
    } as unknown as OfflineCallDeps['connectivity'],
    outbox: {} as OfflineCallDeps['outbox'],
    client: async () => c,
    owner: async () => OWNER,
    log: (_level, message) => void logged.push(message),
  }
  return offlineCall(deps, row, op, {}, undefined).finally(() => c.close())
}

async function keep(data: unknown, etag: string | null = null): Promise<void> {
  const answer: CachedAnswer = { data, fetchedAt: FETCHED, etag, lastModified: null }
  expect(await cache.put(OWNER, REQUEST, answer)).toBe(true)
}

async function failure(promise: Promise<unknown>): Promise<AppFailure> {
  const err = await promise.catch((e: unknown) => e)
  expect(err).toBeInstanceOf(AppFailure)
  return err as AppFailure
}

describe('a cached answer read while the service cannot be reached', () => {
  it('is served when it fits the operation’s schema', async () => {
    await keep(FITS)
    expect(await call()).toEqual({ data: FITS, fetchedAt: FETCHED, fromCache: true })
  })

  it('is not served when it no longer fits: OFFLINE saying there is no copy, and a log line', async () => {
    await keep(UNFIT)
    const err = await failure(call())
    expect(err.error.code).toBe('OFFLINE')
    expect(err.error.message).toMatch(/there is no offline copy of it yet/)
    expect(logged).toEqual(['targets.list: the offline copy does not fit its answer; not used'])
  })

  it('is not served while working offline either', async () => {
    await keep(UNFIT)
    blocked = 'Work offline is on.'
    expect((await failure(call())).error.code).toBe('OFFLINE')
  })

  it('is served as a tolerant reading, with its warning, when it fits only so', async () => {
    await keep(TOLERABLE)
    const out = await call()
    expect(out.fromCache).toBe(true)
    expect(out.data).toEqual({
      data: [
        {
          ...target({ name: '42' }),
          __scandesk: { asText: ['attributes.name'] },
        },
      ],
    })
    expect(out.warnings).toEqual([
      '1 row had a field of another type than expected (attributes.name): shown as text.',
    ])
  })
})

describe('a cached answer the service calls current (304)', () => {
  it('is used when it fits', async () => {
    await keep(FITS, '"v1"')
    server.handle((req, res) =>
      req.headers['if-none-match'] === '"v1"' ? res.writeHead(304).end() : json(res, 200, FITS),
    )
    const out = await call(server.baseUrl)
    expect(out).toMatchObject({ data: FITS, fromCache: false })
    expect(server.seen).toHaveLength(1)
  })

  it('is not used when it no longer fits: the answer itself is asked for and kept', async () => {
    await keep(UNFIT, '"v1"')
    server.handle((req, res) =>
      req.headers['if-none-match'] === '"v1"'
        ? res.writeHead(304).end()
        : json(res, 200, FITS, { etag: '"v2"' }),
    )
    const out = await call(server.baseUrl)
    expect(out).toMatchObject({ data: FITS, fromCache: false })
    expect(server.seen.map((r) => r.headers['if-none-match'] ?? null)).toEqual(['"v1"', null])
    expect(await cache.get(OWNER, REQUEST)).toMatchObject({ data: FITS, etag: '"v2"' })
  })

  it('is sent over the bridge as the text written when it was first served', async () => {
    await keep(FITS, '"v1"')
    server.handle((req, res) =>
      req.headers['if-none-match'] === '"v1"' ? res.writeHead(304).end() : json(res, 200, FITS),
    )
    const first = await call(server.baseUrl)
    const second = await call(server.baseUrl)
    expect(second.data).toBe(first.data)
    const stringify = vi.spyOn(JSON, 'stringify')
    const sent = [first, second].map((out) => toJsonText({ ok: true, data: out }))
    expect(stringify.mock.calls.filter(([value]) => value === first.data)).toHaveLength(1)
    expect(sent.map((text) => JSON.parse(text!))).toEqual([
      { ok: true, data: { data: FITS, fetchedAt: first.fetchedAt, fromCache: false } },
      { ok: true, data: { data: FITS, fetchedAt: second.fetchedAt, fromCache: false } },
    ])
  })
})

describe('a fresh answer', () => {
  it('is written once: the text its entry keeps is the text the bridge sends', async () => {
    server.handle((_req, res) => json(res, 200, FITS, { etag: '"v2"' }))
    const stringify = vi.spyOn(JSON, 'stringify')
    const out = await call(server.baseUrl)
    const sent = toJsonText({ ok: true, data: out })
    expect(stringify.mock.calls.filter(([value]) => value === out.data)).toHaveLength(1)
    expect(JSON.parse(sent!)).toEqual({
      ok: true,
      data: { data: FITS, fetchedAt: out.fetchedAt, fromCache: false },
    })
    expect(await cache.get(OWNER, REQUEST)).toMatchObject({ data: FITS, etag: '"v2"' })
  })
})
