import type { KeychainStatus } from '@contract/channels'
import { fail } from '@contract/errors'
import { SECRET_KINDS, unavailableMessage, vaultKey, type SecretKind, type Vault } from './vault'

/** The part of keytar the vault uses (also what tests may substitute). */
export interface KeytarApi {
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  deletePassword(service: string, account: string): Promise<boolean>
}

/** The keychain service name every ScanDesk secret is filed under. */
export const KEYCHAIN_SERVICE = 'ScanDesk'

/** The most a keychain entry may hold: the Windows credential limit (CRED_MAX_CREDENTIAL_BLOB_SIZE). */
export const MAX_SECRET_BYTES = 2_560

const SECRET_NAMES: Record<SecretKind, { label: string; field: string }> = {
  api_key: { label: 'API key', field: 'apiKey' },
  session_token: { label: 'session token', field: 'sessionToken' },
  access_token: { label: 'access token', field: 'accessToken' },
  password: { label: 'password', field: 'password' },
  impersonator_token: { label: 'administrator session token', field: 'impersonatorToken' },
  cache_key: { label: 'offline copy key', field: 'cacheKey' },
}

/**
 * VALIDATION when a secret is longer (in UTF-8 bytes) than the keychain can hold on every system
 * ScanDesk runs on; the same limit everywhere, so an account that works on Linux works on Windows.
 */
export function refuseOversizedSecret(kind: SecretKind, value: string): void {
  const bytes = Buffer.byteLength(value, 'utf8')
  if (bytes <= MAX_SECRET_BYTES) return
  const { label, field } = SECRET_NAMES[kind]
  fail(
    'VALIDATION',
    `The ${label} is ${bytes.toLocaleString('en-US')} bytes long; the system keychain holds at most 2,560 bytes per secret (the Windows credential limit), so ScanDesk cannot store it.`,
    { fieldErrors: { [field]: ['is longer than 2,560 bytes (UTF-8)'] } },
  )
}

/**
 * VALIDATION for every value some vault could not keep exactly: empty (keytar refuses it, which
 * would read as a keychain failure), holding a NUL (the Secret Service keeps only the part before
 * it, silently) or over MAX_SECRET_BYTES. Every vault refuses the same values, so a secret that
 * is kept in memory now is one the keychain can take later (tests/support/vault-contract.ts).
 */
export function refuseUnstorableSecret(kind: SecretKind, value: string): void {
  const { label, field } = SECRET_NAMES[kind]
  if (value === '')
    fail('VALIDATION', `The ${label} is empty; ScanDesk cannot store an empty secret.`, {
      fieldErrors: { [field]: ['is empty'] },
    })
  if (value.includes('\0'))
    fail(
      'VALIDATION',
      `The ${label} contains a NUL character, which the system keychain cannot store (it would keep only the part before it), so ScanDesk cannot store it.`,
      { fieldErrors: { [field]: ['contains a NUL character'] } },
    )
  refuseOversizedSecret(kind, value)
}

/** Thrown when the keychain fails; its message is plain and names no secret. */
export class KeychainError extends Error {
  constructor(readonly reason: string) {
    super(`The system keychain failed: ${reason}.`)
    this.name = 'KeychainError'
  }
}

/**
 * Loads keytar (an optional dependency with a native part): null with the reason when it is
 * missing or does not load on this machine.
 */
export async function loadKeytar(): Promise<{ keytar: KeytarApi } | { reason: string }> {
  try {
    const mod = (await import('keytar')) as unknown as KeytarApi & { default?: KeytarApi }
    const api = mod.default ?? mod
    if (typeof api.getPassword !== 'function') return { reason: 'keytar did not load' }
    return { keytar: api }
  } catch {
    return { reason: 'keytar is not installed or does not load on this system' }
  }
}

function plainReason(err: unknown): string {
  if (err instanceof KeychainError) return err.reason
  const text = err instanceof Error ? err.message : String(err)
  let out = ''
  for (const ch of text) out += ch.charCodeAt(0) < 0x20 ? ' ' : ch
  return out.trim().slice(0, 160) || 'unknown error'
}

async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new KeychainError(`it did not answer within ${ms / 1000} s`)),
      ms,
    )
  })
  try {
    return await Promise.race([work, timeout])
  } catch (err) {
    if (err instanceof KeychainError) throw err
    throw new KeychainError(`${what}: ${plainReason(err)}`)
  } finally {
    clearTimeout(timer)
  }
}

/** Options of the keychain vault. */
export interface KeychainVaultOptions {
  keytar: KeytarApi
  service?: string
  timeoutMs?: number
}

/** The OS keychain through keytar; every call is bounded by a timeout and fails as KeychainError. */
export class KeychainVault implements Vault {
  private readonly service: string
  private readonly timeoutMs: number
  private readonly keytar: KeytarApi

  constructor(options: KeychainVaultOptions) {
    this.keytar = options.keytar
    this.service = options.service ?? KEYCHAIN_SERVICE
    this.timeoutMs = options.timeoutMs ?? 5_000
  }

  /** Probes the keychain with a harmless read. */
  async status(): Promise<KeychainStatus> {
    try {
      await this.run(this.keytar.getPassword(this.service, '__probe__'), 'reading')
      return { available: true, message: null }
    } catch (err) {
      return { available: false, message: unavailableMessage(plainReason(err)) }
    }
  }

  /** The secret, or null when none is stored. */
  get(accountId: string, kind: SecretKind): Promise<string | null> {
    return this.run(this.keytar.getPassword(this.service, vaultKey(accountId, kind)), 'reading')
  }

  /** The same as get: the keychain itself answers, or the call fails as KeychainError. */
  lookup(accountId: string, kind: SecretKind): Promise<string | null> {
    return this.get(accountId, kind)
  }

  /** The same as set: only the keychain holds what this vault stores. */
  persist(accountId: string, kind: SecretKind, value: string): Promise<void> {
    return this.set(accountId, kind, value)
  }

  /** Stores or replaces a secret (VALIDATION when empty, with a NUL, above MAX_SECRET_BYTES). */
  async set(accountId: string, kind: SecretKind, value: string): Promise<void> {
    refuseUnstorableSecret(kind, value)
    await this.run(
      this.keytar.setPassword(this.service, vaultKey(accountId, kind), value),
      'storing',
    )
  }

  /** Deletes a secret (nothing happens when none is stored). */
  async delete(accountId: string, kind: SecretKind): Promise<void> {
    await this.run(this.keytar.deletePassword(this.service, vaultKey(accountId, kind)), 'deleting')
  }

  /** Deletes every secret of an account. */
  async deleteAll(accountId: string): Promise<void> {
    for (const kind of SECRET_KINDS) await this.delete(accountId, kind)
  }

  private run<T>(work: Promise<T>, what: string): Promise<T> {
    return withTimeout(work, this.timeoutMs, what)
  }
}

/** Creates the keychain vault, or returns the reason the keychain cannot be used at all. */
export async function createKeychainVault(
  options: Omit<KeychainVaultOptions, 'keytar'> & { keytar?: KeytarApi } = {},
): Promise<KeychainVault | { reason: string }> {
  if (options.keytar) return new KeychainVault({ ...options, keytar: options.keytar })
  const loaded = await loadKeytar()
  if ('reason' in loaded) return loaded
  return new KeychainVault({ ...options, keytar: loaded.keytar })
}
