import { describe, expect, it, vi } from 'vitest'
import { KEYCHAIN_SERVICE, KeychainError, KeychainVault, type KeytarApi } from './keychain-vault'
import { MemoryVault } from './memory-vault'
import { ResilientVault } from './resilient-vault'
import type { Vault } from './vault'

function fakeKeytar(): KeytarApi & { store: Map<string, string> } {
  const store = new Map<string, string>()
  return {
    store,
    getPassword: async (s, a) => store.get(`${s}/${a}`) ?? null,
    setPassword: async (s, a, p) => void store.set(`${s}/${a}`, p),
    deletePassword: async (s, a) => store.delete(`${s}/${a}`),
  }
}

describe('the memory vault', () => {
  it('keeps each account’s secrets apart and deletes all of one account', async () => {
    const v = new MemoryVault()
    await v.set('a', 'api_key', 'ka')
    await v.set('a', 'session_token', 'ta')
    await v.set('b', 'api_key', 'kb')
    await v.deleteAll('a')
    expect(await v.get('a', 'api_key')).toBeNull()
    expect(await v.get('a', 'session_token')).toBeNull()
    expect(await v.get('b', 'api_key')).toBe('kb')
  })
})

describe('the keychain vault', () => {
  it('files secrets under the ScanDesk service as accountId:kind', async () => {
    const keytar = fakeKeytar()
    const v = new KeychainVault({ keytar })
    await v.set('acc-1', 'session_token', 'tok')
    expect([...keytar.store.keys()]).toEqual([`${KEYCHAIN_SERVICE}/acc-1:session_token`])
    expect(await v.get('acc-1', 'session_token')).toBe('tok')
    await v.deleteAll('acc-1')
    expect(keytar.store.size).toBe(0)
  })

  it('gives up on a keychain that does not answer, with a plain reason', async () => {
    const keytar = { ...fakeKeytar(), getPassword: () => new Promise<string | null>(() => {}) }
    const v = new KeychainVault({ keytar, timeoutMs: 50 })
    await expect(v.get('acc-1', 'api_key')).rejects.toThrow(KeychainError)
    const status = await v.status()
    expect(status.available).toBe(false)
    expect(status.message).toMatch(/^The system keychain is not available \(it did not answer/)
  })
})

describe('the resilient vault', () => {
  it('uses the keychain while it works', async () => {
    const keychain = new MemoryVault()
    const v = new ResilientVault({ keychain: async () => keychain })
    await v.set('a', 'api_key', 'secret-1')
    expect(await keychain.get('a', 'api_key')).toBe('secret-1')
    expect(await v.status()).toEqual({ available: true, message: null })
    expect(v.inMemoryOnly).toBe(false)
  })

  it('holds secrets in memory and says so when there is no keychain', async () => {
    const onStatus = vi.fn()
    const v = new ResilientVault({
      keychain: async () => ({ reason: 'keytar is missing' }),
      onStatus,
    })
    await v.set('a', 'api_key', 'secret-1')
    expect(await v.get('a', 'api_key')).toBe('secret-1')
    expect(await v.status()).toEqual({
      available: false,
      message:
        'The system keychain is not available (keytar is missing); secrets are kept in memory until ScanDesk quits.',
    })
    expect(onStatus).toHaveBeenCalledTimes(1)
  })

  it('falls back to memory when the keychain fails in the middle of a run', async () => {
    const keychain = new MemoryVault()
    const broken: Vault = {
      status: () => keychain.status(),
      get: (a, k) => keychain.get(a, k),
      set: async () => {
        throw new KeychainError('the keychain is locked')
      },
      delete: (a, k) => keychain.delete(a, k),
      deleteAll: (a) => keychain.deleteAll(a),
    }
    const onStatus = vi.fn()
    const v = new ResilientVault({ keychain: async () => broken, onStatus })
    await v.set('a', 'session_token', 'tok')
    expect(await v.get('a', 'session_token')).toBe('tok')
    expect(keychain.size).toBe(0)
    expect((await v.status()).message).toContain('the keychain is locked')
    expect(onStatus).toHaveBeenCalledWith(expect.objectContaining({ available: false }))
    await v.deleteAll('a')
    expect(await v.get('a', 'session_token')).toBeNull()
  })
})
