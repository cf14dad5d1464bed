// What the offline copy stores and how it is set up (cache-store.ts and its parts).
import type { AccountKeys } from '../accounts/account-keys'

/** One stored answer with the validators the service gave it. */
export interface CachedAnswer {
  data: unknown
  fetchedAt: string
  etag: string | null
  lastModified: string | null
  /** What a tolerant reading had to say about the answer (shown once by the view). */
  warnings?: string[]
}

/**
 * Whose copy: the account, and who is signed in to it (the user, or the user an administrator
 * acts as). Each identity has its own entries; a signed-out account has none to read or write.
 */
export interface CacheOwner {
  accountId: string
  identity: string
}

/** What the store needs besides its database. */
export interface CacheStoreOptions {
  keys: AccountKeys
  /** The cap per account, read at each write (Settings.cacheMaxBytes). */
  maxBytes: () => number
  /** Why the previous file was set aside at start (shown in the status), or null. */
  setAside?: string | null
  /** Bytes written after which the WAL is checkpointed once writes pause. */
  checkpointBytes?: number
  log?: (level: 'info' | 'warn' | 'error', message: string) => void
  now?: () => Date
}
