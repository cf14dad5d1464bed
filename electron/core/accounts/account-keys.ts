import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto'
import type { Vault } from './vault'

/**
 * The keys derived from an account's own key (vault kind `cache_key`): the offline copy's
 * encryption and entry names, and the sealing of the rest kept about the account (drafts, outbox).
 */
export interface AccountKey {
  encrypt: Buffer
  name: Buffer
  local: Buffer
}

/** The account's key, or why there is none now (nothing new is sealed, nothing old is touched). */
export type KeyOutcome = { key: AccountKey } | { key: null; reason: string }

/** Where sealing keys come from: the accounts' own keys (keychain), or this run's (memory). */
export interface KeySource {
  keyFor(accountId: string): Promise<KeyOutcome>
}

/** Told once per run and account when its key is at hand; `fresh` when it was just made. */
export type KeyListener = (accountId: string, key: AccountKey, fresh: boolean) => void

/** Why an account has no key now (the offline copy's status and the drafts' refusals say it). */
export const NO_KEY_REASON =
  'The system keychain is not available, so what ScanDesk keeps sealed for this account on this computer (offline copy, drafts, queued changes) stays as it is, unopened, and nothing new is written to it until the keychain answers again: what you open now stays readable only until ScanDesk quits.'

const NONCE = 12
const TAG = 16

function derive(master: Buffer): AccountKey {
  const sub = (info: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, 32))
  return {
    encrypt: sub('scandesk cache encryption v1'),
    name: sub('scandesk cache names v1'),
    local: sub('scandesk local data v1'),
  }
}

/**
 * Per-account AES-256 keys, held in the OS keychain (vault kind `cache_key`) and in memory once
 * read. A new key is made only when the keychain positively answers that there is none, and only
 * kept once the keychain itself has stored it: a keychain that fails, hangs or is missing gives no
 * key (never a new one over an old copy, never one held in memory that a restart would lose), and
 * it is asked again at the next use.
 */
export class AccountKeys implements KeySource {
  private readonly keys = new Map<string, AccountKey>()
  private readonly pending = new Map<string, Promise<KeyOutcome>>()
  private readonly listeners: KeyListener[] = []

  constructor(private readonly vault: Vault) {}

  /** Calls `listener` whenever an account's key is first at hand in this run. */
  onKey(listener: KeyListener): void {
    this.listeners.push(listener)
  }

  /** The account's key (created when the keychain has none), or the reason there is none now. */
  keyFor(accountId: string): Promise<KeyOutcome> {
    const known = this.keys.get(accountId)
    if (known) return Promise.resolve({ key: known })
    let pending = this.pending.get(accountId)
    if (!pending) {
      pending = this.load(accountId).finally(() => this.pending.delete(accountId))
      this.pending.set(accountId, pending)
    }
    return pending
  }

  private async load(accountId: string): Promise<KeyOutcome> {
    let master: Buffer
    let fresh = false
    try {
      const stored = await this.vault.lookup(accountId, 'cache_key')
      const held = stored === null ? null : Buffer.from(stored, 'base64')
      if (held && held.length === 32) master = held
      else {
        // The keychain answered: there is no key (or not one of 256 bits), so nothing sealed
        // before can be opened. Only now is a new one made, and used once the keychain holds it.
        master = randomBytes(32)
        await this.vault.persist(accountId, 'cache_key', master.toString('base64'))
        fresh = true
      }
    } catch {
      return { key: null, reason: NO_KEY_REASON }
    }
    const key = derive(master)
    this.keys.set(accountId, key)
    for (const listener of this.listeners)
      try {
        listener(accountId, key, fresh)
      } catch {
        // A listener's failure (its own to report) does not take the key away from the caller.
      }
    return { key }
  }

  /** Forgets the account's key in memory (the vault entry goes with the account's secrets). */
  forget(accountId: string): void {
    this.keys.delete(accountId)
  }
}

/**
 * Keys for this run only, one per account, made at first use and never stored anywhere: they seal
 * what is kept in memory while an account has no key of its own (the session store's bulk runs
 * and outbox), so the same code serves both. Nothing they sealed outlives the process.
 */
export class SessionKeys implements KeySource {
  private readonly keys = new Map<string, AccountKey>()

  /** This run's key of the account (always at hand). */
  async keyFor(accountId: string): Promise<KeyOutcome> {
    let key = this.keys.get(accountId)
    if (!key) this.keys.set(accountId, (key = derive(randomBytes(32))))
    return { key }
  }

  /** Forgets the account's key (the account was removed). */
  forget(accountId: string): void {
    this.keys.delete(accountId)
  }
}

/** The entry name of a request: HMAC-SHA-256 of its canonical text under the account's name key. */
export function entryName(key: AccountKey, request: string): Buffer {
  return createHmac('sha256', key.name).update(request).digest()
}

/** nonce ‖ tag ‖ AES-256-GCM(plain) under `key`, bound to `aad`. */
export function seal(key: Buffer, aad: Buffer, plain: Buffer): Buffer {
  const nonce = randomBytes(NONCE)
  const cipher = createCipheriv('aes-256-gcm', key, nonce)
  cipher.setAAD(aad)
  const body = Buffer.concat([cipher.update(plain), cipher.final()])
  return Buffer.concat([nonce, cipher.getAuthTag(), body])
}

/** The plain bytes of a sealed blob, or null when it was altered, moved or sealed under another key. */
export function open(key: Buffer, aad: Buffer, blob: Buffer): Buffer | null {
  if (blob.length < NONCE + TAG) return null
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, blob.subarray(0, NONCE))
    decipher.setAAD(aad)
    decipher.setAuthTag(blob.subarray(NONCE, NONCE + TAG))
    return Buffer.concat([decipher.update(blob.subarray(NONCE + TAG)), decipher.final()])
  } catch {
    return null
  }
}

/** The authentication tag of a sealed blob (binds another seal to this exact blob). */
export function tagOf(blob: Buffer): Buffer {
  return blob.subarray(NONCE, NONCE + TAG)
}

/** Seals a JSON value with the account's local-data key, bound to `aad` (what the row is). */
export function sealJson(key: AccountKey, aad: string, value: unknown): Buffer {
  return seal(key.local, Buffer.from(aad, 'utf8'), Buffer.from(JSON.stringify(value), 'utf8'))
}

/** The JSON value of a blob sealed by sealJson, or undefined when it does not open. */
export function openJson(key: AccountKey, aad: string, blob: Buffer): unknown {
  const plain = open(key.local, Buffer.from(aad, 'utf8'), blob)
  if (!plain) return undefined
  try {
    return JSON.parse(plain.toString('utf8')) as unknown
  } catch {
    return undefined
  }
}
