import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppFailure } from '@contract/errors'
import { json, startTestServer, type TestServer } from '../http/test-server'
import type { AccountRow } from '../store/accounts-repo'
import { accountRow } from '../store/test-account'
import { ClientPool } from './client-pool'
import { MemoryVault } from './memory-vault'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
  server.handle((req, res) =>
    json(res, 200, { data: [], meta: {}, seen: req.headers.authorization }),
  )
})
afterAll(() => server.close())

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'

const row = (over: Partial<AccountRow> = {}): AccountRow =>
  accountRow({ baseUrl: server.baseUrl, username: 'a@example.test', ...over })

describe('the client pool', () => {
  it('keeps one client per account and rebuilds it when the CA bundle or auth method changes', async () => {
    const vault = new MemoryVault()
    await vault.set('acc-00000001', 'api_key', 'key-1')
    const pool = new ClientPool({ vault })
    const first = await pool.client(row())
    expect(await pool.client(row())).toBe(first)
    const withCa = await pool.client(row({ caBundle: PEM }))
    expect(withCa).not.toBe(first)
    expect(await pool.client(row({ caBundle: PEM }))).toBe(withCa)
    expect(await pool.client(row({ caBundle: PEM, authMethod: 'access_token' }))).not.toBe(withCa)
    pool.closeAll()
  })

  it('sends the credential it holds, and a one-off client sends the one it was given', async () => {
    const vault = new MemoryVault()
    await vault.set('acc-00000001', 'api_key', 'key-1')
    await vault.set('acc-00000001', 'session_token', 'session-1')
    const pool = new ClientPool({ vault })
    const gated = await pool.client(row())
    expect(await gated.call('targets.list')).toMatchObject({ seen: 'Bearer session-1' })
    const once = await pool.oneOff(row(), { scheme: 'Bearer', token: 'admin-1' })
    expect(await once.call('targets.list')).toMatchObject({ seen: 'Bearer admin-1' })
    once.close()
    pool.closeAll()
  })

  it('says when the API key is not stored on this computer', async () => {
    const pool = new ClientPool({ vault: new MemoryVault() })
    const err = await pool.client(row()).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AppFailure)
    expect((err as AppFailure).error.code).toBe('KEYCHAIN_UNAVAILABLE')
  })
})

describe('the pool per account (issue 12, weakness 7)', () => {
  let storm: TestServer
  beforeAll(async () => {
    storm = await startTestServer()
  })
  afterAll(() => storm.close())

  async function twoAccounts(limits = {}) {
    const vault = new MemoryVault()
    await vault.set('acc-a', 'api_key', 'key-a')
    await vault.set('acc-a', 'session_token', 'session-a')
    await vault.set('acc-b', 'api_key', 'key-b')
    await vault.set('acc-b', 'session_token', 'session-b')
    const pool = new ClientPool({
      vault,
      limits: { backoffBaseMs: 5, backoffMaxMs: 10, deadlineMs: 5_000, ...limits },
    })
    const a = row({ id: 'acc-a', baseUrl: storm.baseUrl })
    const b = row({ id: 'acc-b', baseUrl: storm.baseUrl })
    return { pool, a, b }
  }

  const seenBy = (key: string) => storm.seen.filter((s) => s.headers['x-api-key'] === key).length

  it('one account’s retry storm spends its own budget, not another’s', async () => {
    storm.seen.length = 0
    let bFailed = false
    storm.handle((req, res) => {
      if (req.headers['x-api-key'] === 'key-a') return json(res, 503, {})
      if (!bFailed) {
        bFailed = true
        return json(res, 503, {})
      }
      json(res, 200, { data: [], meta: {} })
    })
    const { pool, a, b } = await twoAccounts({ retries: 2, retryBudgetPerMinute: 2 })
    const clientA = await pool.client(a)
    for (let i = 0; i < 3; i++) await clientA.call('targets.list').catch(() => undefined)
    expect(seenBy('key-a')).toBe(5) // 3 first attempts + the 2 retries of the budget
    // A client rebuilt for the same account keeps the spent budget.
    const rebuilt = await pool.client({ ...a, caBundle: PEM })
    await rebuilt.call('targets.list').catch(() => undefined)
    expect(seenBy('key-a')).toBe(6)
    expect(await (await pool.client(b)).call('targets.list')).toMatchObject({ data: [] })
    expect(seenBy('key-b')).toBe(2)
    pool.closeAll()
  })

  it('abortCalls cancels the running calls of that account only; later calls run', async () => {
    let slow = true
    storm.handle((_req, res) => {
      if (slow) return // never answers
      json(res, 200, { data: [], meta: {} })
    })
    const { pool, a, b } = await twoAccounts()
    const clientA = await pool.client(a)
    const clientB = await pool.client(b)
    const runningA = clientA.call('targets.list').catch((e: unknown) => e)
    const runningB = clientB.call('targets.list', {}, { deadlineMs: 400 }).catch((e: unknown) => e)
    await new Promise((r) => setTimeout(r, 50))
    pool.abortCalls('acc-a')
    expect(((await runningA) as AppFailure).error.code).toBe('CANCELLED')
    expect(((await runningB) as AppFailure).error.code).toBe('TIMEOUT')
    slow = false
    expect(await clientA.call('targets.list')).toMatchObject({ data: [] })
    pool.closeAll()
  })

  it('a one-off client (ending a session) is not aborted with the account’s calls', async () => {
    storm.handle((req, res) => {
      setTimeout(() => json(res, 200, { data: [], meta: {} }), 100)
    })
    const { pool, a } = await twoAccounts()
    const once = await pool.oneOff(a, { scheme: 'Bearer', token: 'x' })
    const p = once.call('targets.list')
    pool.abortCalls('acc-a')
    expect(await p).toMatchObject({ data: [] })
    once.close()
    pool.closeAll()
  })
})
