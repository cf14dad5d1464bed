import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openCacheDatabase } from '../offline/cache-db'
import { CacheStore, type CachedAnswer } from '../offline/cache-store'
import { AccountKeys, NO_KEY_REASON } from './account-keys'
import { KeychainError } from './keychain-vault'
import { MemoryVault } from './memory-vault'
import { ResilientVault } from './resilient-vault'
import type { Vault } from './vault'

/** The OS keychain (in memory) whose reads or writes fail while their count is not 0 (-1: always). */
function faultyKeychain() {
  const inner = new MemoryVault()
  const faults = { get: 0, set: 0 }
  const gate = (which: 'get' | 'set') => {
    if (faults[which] === 0) return
    if (faults[which] > 0) faults[which]--
    throw new KeychainError('the keychain is locked')
  }
  const read = async (a: string, k: Parameters<Vault['get']>[1]) => (gate('get'), inner.get(a, k))
  const write = async (a: string, k: Parameters<Vault['get']>[1], v: string) => (
    gate('set'),
    inner.set(a, k, v)
  )
  const vault: Vault = {
    status: async () => ({ available: true, message: null }),
    get: read,
    lookup: read,
    set: write,
    persist: write,
    delete: (a, k) => inner.delete(a, k),
    deleteAll: (a) => inner.deleteAll(a),
  }
  return { inner, faults, vault }
}

/** The vault as core builds it, over that keychain: a new one is a new start of ScanDesk. */
const resilient = (keychain: Vault) =>
  new ResilientVault({ keychain: async () => keychain, retryDelayMs: 0, recheckMs: 0 })

const A1 = { accountId: 'acc-1', identity: 'user analyst@example.com' }
const answer = (data: unknown): CachedAnswer => ({
  data,
  fetchedAt: '2026-11-20T10:00:00.000Z',
  etag: null,
  lastModified: null,
})

let dir: string
const stores: CacheStore[] = []

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-keys-'))
})
afterEach(() => {
  for (const s of stores.splice(0)) s.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

/** The offline copy in `dir` with the account keys of `vault` (one start of ScanDesk). */
function cacheWith(vault: Vault) {
  const opened = openCacheDatabase(dir)
  const store = new CacheStore(opened.db, {
    keys: new AccountKeys(vault),
    maxBytes: () => 64 * 1024 ** 2,
  })
  stores.push(store)
  const rows = () =>
    (opened.db.prepare('SELECT COUNT(*) AS n FROM cache_entries').get() as { n: number }).n
  return { store, rows }
}

describe('the account key when the keychain does not answer', () => {
  it('makes no new key over the old one: the copy stays, nothing is written, and it opens again', async () => {
    const k = faultyKeychain()
    const first = cacheWith(resilient(k.vault))
    await first.store.put(A1, 'targets', answer('kept from before'))
    first.store.close()
    const original = await k.inner.get('acc-1', 'cache_key')
    expect(original).not.toBeNull()

    // The next start: the keychain answers its probe, then fails the read of the key.
    const vault = resilient(k.vault)
    await vault.status()
    k.faults.get = -1
    const next = cacheWith(vault)
    expect(await next.store.get(A1, 'targets')).toBeNull()
    // What is opened now is held for this run only: not one row more on disk, none removed.
    expect(await next.store.put(A1, 'scans', answer('this run only'))).toBe(true)
    expect(await next.store.get(A1, 'scans')).toEqual(answer('this run only'))
    expect(next.rows()).toBe(1)
    const status = await next.store.status('acc-1')
    expect(status).toMatchObject({ persisted: false, entries: 2, message: NO_KEY_REASON })
    expect(status.message).toMatch(/stays as it is.*nothing new is written to it until/)
    expect(await k.inner.get('acc-1', 'cache_key')).toBe(original)

    // The keychain answers again: the same key, the old copy opens, new answers go to disk.
    k.faults.get = 0
    expect(await next.store.get(A1, 'targets')).toEqual(answer('kept from before'))
    expect(await next.store.put(A1, 'hosts', answer('on disk again'))).toBe(true)
    expect(next.rows()).toBe(2)
    expect(await k.inner.get('acc-1', 'cache_key')).toBe(original)
  })

  it('makes a key only when the keychain says it has none, and uses it only once the keychain holds it', async () => {
    const k = faultyKeychain()
    const vault = resilient(k.vault)
    const keys = new AccountKeys(vault)
    const told: boolean[] = []
    keys.onKey((_id, _key, fresh) => told.push(fresh))

    k.faults.set = -1
    expect(await keys.keyFor('acc-1')).toEqual({ key: null, reason: NO_KEY_REASON })
    // Not stored anywhere: neither in the keychain nor in the vault's memory for this run.
    expect(await k.inner.get('acc-1', 'cache_key')).toBeNull()
    k.faults.set = 0
    expect(await vault.get('acc-1', 'cache_key')).toBeNull()
    expect(told).toEqual([])

    const made = await keys.keyFor('acc-1')
    expect(made.key).not.toBeNull()
    const stored = await k.inner.get('acc-1', 'cache_key')
    expect(Buffer.from(stored!, 'base64')).toHaveLength(32)
    expect(told).toEqual([true])

    // Another start finds that key: not fresh, the same derived keys.
    const again = new AccountKeys(resilient(k.vault))
    again.onKey((_id, _key, fresh) => told.push(fresh))
    expect((await again.keyFor('acc-1')).key).toEqual(made.key)
    expect(told).toEqual([true, false])
  })

  it('gives no key at all where there is no keychain', async () => {
    const keys = new AccountKeys(new ResilientVault({ keychain: async () => ({ reason: 'none' }) }))
    expect(await keys.keyFor('acc-1')).toEqual({ key: null, reason: NO_KEY_REASON })
  })
})
