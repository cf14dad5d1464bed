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
