import { describe, expect, it, vi } from 'vitest'
import { AppFailure } from '@contract/errors'
import {
  KEYCHAIN_SERVICE,
  KeychainError,
  KeychainVault,
  MAX_SECRET_BYTES,
  type KeytarApi,
} from './keychain-vault'
import { MemoryVault } from './memory-vault'
import { MemoryTombstones, ResilientVault } from './resilient-vault'
import { SECRET_KINDS, type Vault } from './vault'

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
      platform: 'linux',
    })
    await v.set('a', 'api_key', 'secret-1')
    expect(await v.get('a', 'api_key')).toBe('secret-1')
    expect(await v.status()).toEqual({
      available: false,
      message:
        'The system keychain is not available (keytar is missing); secrets are kept in memory until ScanDesk quits.',
      // No keychain module: no keychain helps until libsecret (and ScanDesk) are installed.
      advice: expect.stringMatching(/^ScanDesk’s keychain module did not load: install libsecret/),
    })
    expect(onStatus).toHaveBeenCalledTimes(1)
  })

  it('falls back to memory when the keychain fails in the middle of a run', async () => {
    const keychain = new MemoryVault()
    const broken: Vault = {
      status: () => keychain.status(),
      get: (a, k) => keychain.get(a, k),
      lookup: (a, k) => keychain.get(a, k),
      set: async () => {
        throw new KeychainError('the keychain is locked')
      },
      persist: async () => {
        throw new KeychainError('the keychain is locked')
      },
      delete: (a, k) => keychain.delete(a, k),
      deleteAll: (a) => keychain.deleteAll(a),
    }
    const onStatus = vi.fn()
    const v = new ResilientVault({ keychain: async () => broken, onStatus, platform: 'linux' })
    await v.set('a', 'session_token', 'tok')
    expect(await v.get('a', 'session_token')).toBe('tok')
    expect(keychain.size).toBe(0)
    expect((await v.status()).message).toContain('the keychain is locked')
    // The module loaded: the advice is about the keychain itself, and says it is tried again.
    expect((await v.status()).advice).toMatch(/gnome-keyring.*unlock.*again every 30 seconds/)
    expect(onStatus).toHaveBeenCalledWith(expect.objectContaining({ available: false }))
    await v.deleteAll('a')
    expect(await v.get('a', 'session_token')).toBeNull()
  })
})

/** A keychain (in memory) whose calls fail while `failing` > 0 (each failure counts down; -1 always). */
function flakyKeychain() {
  const inner = new MemoryVault()
  const state = { failing: 0, calls: 0, deletes: 0 }
  const gate = async () => {
    state.calls++
    if (state.failing === 0) return
    if (state.failing > 0) state.failing--
    throw new KeychainError('the keychain is locked')
  }
  const vault: Vault = {
    status: async () =>
      state.failing === 0
        ? { available: true, message: null }
        : { available: false, message: 'The system keychain is not available (locked).' },
    get: async (a, k) => (await gate(), inner.get(a, k)),
    lookup: async (a, k) => (await gate(), inner.get(a, k)),
    set: async (a, k, v) => (await gate(), inner.set(a, k, v)),
    persist: async (a, k, v) => (await gate(), inner.set(a, k, v)),
    delete: async (a, k) => {
      state.deletes++
      await gate()
      await inner.delete(a, k)
    },
    deleteAll: (a) => inner.deleteAll(a),
  }
  return { inner, state, vault }
}

function resilient(
  keychain: Vault,
  over: Partial<ConstructorParameters<typeof ResilientVault>[0]> = {},
): ResilientVault {
  return new ResilientVault({ keychain: async () => keychain, retryDelayMs: 0, ...over })
}

describe('the resilient vault when the keychain fails for a while', () => {
  it('retries a failed call instead of switching to memory for the run', async () => {
    const k = flakyKeychain()
    const v = resilient(k.vault)
    await v.status()
    k.state.failing = 2
    await v.set('a', 'session_token', 'tok')
    expect(await k.inner.get('a', 'session_token')).toBe('tok')
    expect(await v.status()).toEqual({ available: true, message: null })
    k.state.failing = 1
    expect(await v.get('a', 'session_token')).toBe('tok')
  })

  it('says so while it fails, and uses the keychain again once it answers', async () => {
    const k = flakyKeychain()
    const onStatus = vi.fn()
    let clock = 0
    const v = resilient(k.vault, { onStatus, recheckMs: 1_000, now: () => clock })
    await v.status()
    k.state.failing = -1
    await v.set('a', 'session_token', 'held-in-memory')
    expect(v.inMemoryOnly).toBe(true)
    expect((await v.status()).message).toContain('the keychain is locked')
    expect(await v.get('a', 'session_token')).toBe('held-in-memory')
    k.state.failing = 0
    const calls = k.state.calls
    await v.set('a', 'api_key', 'still-in-memory') // within the recheck time: not tried
    expect(k.state.calls).toBe(calls)
    clock += 1_000
    await v.set('a', 'api_key', 'in-the-keychain')
    expect(await k.inner.get('a', 'api_key')).toBe('in-the-keychain')
    expect(await v.status()).toEqual({ available: true, message: null })
    expect(v.inMemoryOnly).toBe(false)
    expect(onStatus.mock.calls.map(([s]) => (s as { available: boolean }).available)).toEqual([
      false,
      true,
    ])
  })
})

describe('deleting while the keychain cannot be reached', () => {
  it('retries, then records a tombstone that hides the secret and is finished at the next start', async () => {
    const k = flakyKeychain()
    const tombstones = new MemoryTombstones()
    const v = resilient(k.vault, { tombstones, attempts: 3 })
    await v.set('a', 'session_token', 'old-session')
    k.state.failing = -1
    const deletes = k.state.deletes
    await v.delete('a', 'session_token')
    expect(k.state.deletes - deletes).toBe(3)
    expect(v.undeleted('a')).toEqual(['session_token'])
    expect(await k.inner.get('a', 'session_token')).toBe('old-session')
    k.state.failing = 0
    expect(await v.get('a', 'session_token')).toBeNull() // deleted here, whatever the keychain says
    // the next start
    const next = resilient(k.vault, { tombstones })
    expect(await next.status()).toEqual({ available: true, message: null })
    expect(await k.inner.get('a', 'session_token')).toBeNull()
    expect(tombstones.list()).toEqual([])
    expect(next.undeleted('a')).toEqual([])
  })

  it('finishes recorded deletes as soon as the keychain answers again in the same run', async () => {
    const k = flakyKeychain()
    const v = resilient(k.vault, { recheckMs: 0 })
    await v.set('a', 'password', 'pw')
    k.state.failing = -1
    await v.delete('a', 'password')
    k.state.failing = 0
    await v.get('b', 'api_key')
    expect(await k.inner.get('a', 'password')).toBeNull()
    expect(v.undeleted('a')).toEqual([])
  })

  it('records every kind of a removed account after the first failure, without waiting on each', async () => {
    const k = flakyKeychain()
    const v = resilient(k.vault, { attempts: 2 })
    await v.set('a', 'api_key', 'key')
    k.state.failing = -1
    const deletes = k.state.deletes
    await v.deleteAll('a')
    expect(k.state.deletes - deletes).toBe(2)
    expect(v.undeleted('a').sort()).toEqual([...SECRET_KINDS].sort())
    k.state.failing = 0
    expect(await v.get('a', 'api_key')).toBeNull()
  })

  it('forgets the tombstone when the same secret is stored again', async () => {
    const k = flakyKeychain()
    const v = resilient(k.vault, { recheckMs: 0 })
    await v.status()
    k.state.failing = -1
    await v.delete('a', 'session_token')
    k.state.failing = 0
    await v.set('a', 'session_token', 'new-session')
    expect(v.undeleted('a')).toEqual([])
    expect(await resilient(k.vault).get('a', 'session_token')).toBe('new-session')
  })
})

describe('secrets longer than the keychain holds', () => {
  it('are refused with VALIDATION naming the 2,560-byte limit, not kept in memory', async () => {
    const k = flakyKeychain()
    const v = resilient(k.vault)
    const tooLong = 'é'.repeat(1_281) // 1,281 characters, 2,562 bytes in UTF-8
    const err = await v.set('a', 'session_token', tooLong).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AppFailure)
    expect((err as AppFailure).error).toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('at most 2,560 bytes') as string,
    })
    expect((err as AppFailure).error.message).toContain('2,562 bytes')
    expect(await v.get('a', 'session_token')).toBeNull()
    expect(v.inMemoryOnly).toBe(false)
    await v.set('a', 'session_token', 'x'.repeat(MAX_SECRET_BYTES))
    expect(await k.inner.get('a', 'session_token')).toHaveLength(MAX_SECRET_BYTES)
  })

  it('are refused by the keychain vault itself before keytar is asked', async () => {
    const keytar = fakeKeytar()
    const v = new KeychainVault({ keytar })
    await expect(v.set('a', 'api_key', 'k'.repeat(2_561))).rejects.toThrow(/2,560 bytes/)
    expect(keytar.store.size).toBe(0)
  })
})
