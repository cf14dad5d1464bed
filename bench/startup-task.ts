// What the start-up benchmark's parent and its two kinds of child exchange.

/** The name the bench's secrets are filed under in the OS keychain (never ScanDesk's own). */
export const BENCH_KEYCHAIN_SERVICE = 'ScanDesk start-up bench'

/** What the parent passes in SCANDESK_BENCH_STARTUP. */
export interface StartupTask {
  /** The data folder: scandesk.db and cache.db, filled by the parent. */
  dataDir: string
  /** Where the secrets live: the OS keychain (under BENCH_KEYCHAIN_SERVICE) or a memory vault. */
  vault: 'keychain' | 'memory'
  /** The memory vault's secrets (`${accountId}:${kind}` → value), when vault is 'memory'. */
  secretsFile: string
  /** The vault entries ScanDesk read before it answered (the bare script reads the same). */
  reads?: string[]
}

/** What a child prints (one JSON line on stdout) once it has answered. */
export interface StartupReport {
  /** ms since the process started (performance.now) when its main function began. */
  mainMs: number
  /** ms since the process started when the core was created (bare script: the stores opened). */
  coreMs: number
  /** ms since the process started when the first accounts.list answered (bare: all read). */
  readyMs: number
  accounts: number
  /** The vault entries read before the answer, in order. */
  reads: string[]
}
