import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { migrate, type Db } from '../store/database'
import type { Migration } from '../store/migrations'

/** The offline copy's own SQLite file: apart from scandesk.db, so it can be set aside alone. */
export const CACHE_DB_FILE = 'cache.db'

/** Where a damaged offline copy is moved (one kept, the newest). */
export const CACHE_SET_ASIDE_FILE = 'cache.db.damaged'

/** The offline copy's schema. Append only. */
export const CACHE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'cache entries',
    up(db) {
      // One stored answer per account and request. `id` is an HMAC of the request under the
      // account's key (what was asked stays private too); `blob` is nonce + tag + AES-256-GCM of
      // the compressed answer. Times are in clear: they say how old a copy is, nothing more.
      db.exec(`
        CREATE TABLE cache_entries (
          account_id TEXT NOT NULL,
          id BLOB NOT NULL,
          blob BLOB NOT NULL,
          size INTEGER NOT NULL CHECK (size >= 0),
          fetched_at TEXT NOT NULL,
          used_at INTEGER NOT NULL,
          PRIMARY KEY (account_id, id)
        ) STRICT;
        CREATE INDEX cache_lru ON cache_entries (account_id, used_at);
      `)
    },
  },
  {
    version: 2,
    name: 'fetch time sealed, entries named per identity',
    up(db) {
      // The fetch time was in clear (anyone could make a copy look fresh) and entries were named
      // per account only (an impersonated user's answers mixed with the administrator's). Rows of
      // version 1 cannot prove their age, and are named without the identity: they are dropped,
      // and the copy fills again as the account is used online. `id` is now an HMAC of identity
      // and request; `stamp` is the fetch time sealed with the account's key, bound to the row's
      // name and to its answer; only the time of last use (the eviction order) is in clear.
      db.exec(`
        DROP TABLE cache_entries;
        CREATE TABLE cache_entries (
          account_id TEXT NOT NULL,
          id BLOB NOT NULL,
          blob BLOB NOT NULL,
          stamp BLOB NOT NULL,
          size INTEGER NOT NULL CHECK (size >= 0),
          used_at INTEGER NOT NULL,
          PRIMARY KEY (account_id, id)
        ) STRICT;
        CREATE INDEX cache_lru ON cache_entries (account_id, used_at);
      `)
    },
  },
]

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1')

/** Why an existing cache file cannot be used, or null when it looks whole. */
function damage(file: string): string | null {
  let fd: number | undefined
  try {
    fd = fs.openSync(file, 'r')
    const size = fs.fstatSync(fd).size
    if (size === 0) return null
    const head = Buffer.alloc(SQLITE_HEADER.length)
    fs.readSync(fd, head, 0, head.length, 0)
    if (!head.equals(SQLITE_HEADER)) return 'not a database'
    // A file cut short: SQLite's own page count (header offset 28) says how long it must be.
    const header = Buffer.alloc(100)
    fs.readSync(fd, header, 0, 100, 0)
    const pageSize = header.readUInt16BE(16) === 1 ? 65536 : header.readUInt16BE(16)
    const pages = header.readUInt32BE(28)
    // The count is valid only when "version-valid-for" (offset 92) equals the change counter (24).
    const valid = header.readUInt32BE(92) === header.readUInt32BE(24)
    if (valid && pages > 0 && size < pageSize * pages) return 'truncated'
    return null
  } catch {
    return 'unreadable'
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

function openAndCheck(file: string): Db {
  const db = new Database(file)
  try {
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('busy_timeout = 5000')
    const check = db.pragma('quick_check', { simple: true })
    if (check !== 'ok') throw new Error(`quick_check: ${String(check).slice(0, 80)}`)
    migrate(db, CACHE_MIGRATIONS)
    return db
  } catch (err) {
    db.close()
    throw err
  }
}

function setAside(file: string): void {
  fs.rmSync(path.join(path.dirname(file), CACHE_SET_ASIDE_FILE), { force: true })
  fs.renameSync(file, path.join(path.dirname(file), CACHE_SET_ASIDE_FILE))
  for (const suffix of ['-wal', '-shm']) fs.rmSync(file + suffix, { force: true })
}

/** An opened offline copy, and whether a damaged one was set aside to open it. */
export interface OpenedCache {
  db: Db
  /** Why the previous file was set aside (and the copy starts empty), or null. */
  setAside: string | null
}

/**
 * Opens `<dataDir>/cache.db`, checking it first: a file that is not a database, is cut short,
 * fails SQLite's quick check or was written by a newer ScanDesk is moved to `cache.db.damaged`
 * (replacing an older one) and a new, empty copy is created. Nothing else in the data folder is
 * touched: drafts, the outbox and the file ledger live in scandesk.db.
 */
export function openCacheDatabase(dataDir: string): OpenedCache {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const file = path.join(dataDir, CACHE_DB_FILE)
  let reason = fs.existsSync(file) ? damage(file) : null
  if (!reason) {
    try {
      return { db: openAndCheck(file), setAside: null }
    } catch (err) {
      reason = err instanceof Error ? err.message.split('\n')[0].slice(0, 120) : 'unreadable'
    }
  }
  setAside(file)
  return { db: openAndCheck(file), setAside: reason }
}
