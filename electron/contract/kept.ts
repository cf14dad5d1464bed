/**
 * Where ScanDesk keeps something of an account: `disk`, sealed with the account's key (it
 * survives a restart), or `memory`, for this run only, when the account has no key because the
 * system keychain is missing or does not answer (nothing of it is written to disk).
 */
export type Kept = 'disk' | 'memory'

/** What the screens say of something kept in memory, at the moment it is saved. */
export const KEPT_IN_MEMORY = 'kept until ScanDesk closes: no keychain'

/** The longer reason, where there is room for it. */
export const KEPT_IN_MEMORY_WHY =
  'The system keychain is not available, so ScanDesk has no key to seal this with on this computer: it is kept in memory until ScanDesk closes, and nothing of it is written to disk.'
