import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto'
import type { Vault } from '../accounts/vault'

/** The two keys derived from an account's cache key: one encrypts, one names entries. */
export interface CacheKey {
  encrypt: Buffer
  name: Buffer
}

/** Why nothing is written to disk for an account, or null when its copy can be kept. */
export type KeyOutcome = { key: CacheKey; fresh: boolean } | { key: null; reason: string }

const NONCE = 12
const TAG = 16

function derive(master: Buffer): CacheKey {
  const sub = (info: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, 32))
  return { encrypt: sub('scandesk cache encryption v1'), name: sub('scandesk cache names v1') }
}

/**
 * Per-account AES-256 keys of the offline copy, held in the OS keychain (vault kind
 * `cache_key`) and in memory once read. When the keychain is not available (secrets are held in
 * memory only) there is no key: nothing is cached to disk.
 */
export class CacheKeys {
  private readonly keys = new Map<string, CacheKey>()
  private readonly pending = new Map<string, Promise<KeyOutcome>>()

  constructor(private readonly vault: Vault) {}

  /** The account's key, created on first use; `fresh` when it was just made (older rows are unreadable). */
  keyFor(accountId: string): Promise<KeyOutcome> {
    const known = this.keys.get(accountId)
    if (known) return Promise.resolve({ key: known, fresh: false })
    let pending = this.pending.get(accountId)
    if (!pending) {
      pending = this.load(accountId).finally(() => this.pending.delete(accountId))
      this.pending.set(accountId, pending)
    }
    return pending
  }

  private async load(accountId: string): Promise<KeyOutcome> {
    const status = await this.vault.status()
    if (!status.available)
      return {
        key: null,
        reason:
          'The system keychain is not available, so no offline copy is written to disk: what you open stays readable only until ScanDesk quits.',
      }
    try {
      const stored = await this.vault.get(accountId, 'cache_key')
      let fresh = false
      let master = stored ? Buffer.from(stored, 'base64') : null
      if (!master || master.length !== 32) {
        master = randomBytes(32)
        await this.vault.set(accountId, 'cache_key', master.toString('base64'))
        // The keychain may have failed over to memory during the set: then do not write.
        if (!(await this.vault.status()).available)
          return {
            key: null,
            reason: 'The system keychain stopped answering; nothing is cached to disk.',
          }
        fresh = true
      }
      const key = derive(master)
      this.keys.set(accountId, key)
      return { key, fresh }
    } catch {
      return { key: null, reason: 'The system keychain did not answer; nothing is cached to disk.' }
    }
  }

  /** Forgets the account's key in memory (the vault entry goes with the account's secrets). */
  forget(accountId: string): void {
    this.keys.delete(accountId)
  }
}

/** The entry name of a request: HMAC-SHA-256 of its canonical text under the account's name key. */
export function entryName(key: CacheKey, request: string): Buffer {
  return createHmac('sha256', key.name).update(request).digest()
}

/** nonce ‖ tag ‖ AES-256-GCM(plain), bound to the account and entry name. */
export function seal(key: CacheKey, aad: Buffer, plain: Buffer): Buffer {
  const nonce = randomBytes(NONCE)
  const cipher = createCipheriv('aes-256-gcm', key.encrypt, nonce)
  cipher.setAAD(aad)
  const body = Buffer.concat([cipher.update(plain), cipher.final()])
  return Buffer.concat([nonce, cipher.getAuthTag(), body])
}

/** The plain bytes of a sealed blob, or null when it was altered or sealed under another key. */
export function open(key: CacheKey, aad: Buffer, blob: Buffer): Buffer | null {
  if (blob.length < NONCE + TAG) return null
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.encrypt, blob.subarray(0, NONCE))
    decipher.setAAD(aad)
    decipher.setAuthTag(blob.subarray(NONCE, NONCE + TAG))
    return Buffer.concat([decipher.update(blob.subarray(NONCE + TAG)), decipher.final()])
  } catch {
    return null
  }
}
