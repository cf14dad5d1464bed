import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { MIGRATIONS, type Migration } from './migrations'

/** The SQLite file's name inside the data folder. */
export const DB_FILE = 'scandesk.db'

/** An open local store. */
export type Db = Database.Database

/**
 * Opens (creating if needed) `<dataDir>/scandesk.db` in WAL mode with foreign keys on, and
 * applies the migrations it lacks. Refuses a database written by a newer ScanDesk.
 */
export function openDatabase(dataDir: string, migrations: readonly Migration[] = MIGRATIONS): Db {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const db = new Database(path.join(dataDir, DB_FILE))
  try {
    db.pragma('journal_mode = WAL')
    db.pragma('foreign_keys = ON')
    db.pragma('busy_timeout = 5000')
    db.pragma('synchronous = NORMAL')
    // Deleted and replaced content is overwritten, not left in free space: once a plain draft is
    // sealed, its text is gone from the file (after the next checkpoint, from the WAL too).
    db.pragma('secure_delete = ON')
    migrate(db, migrations)
  } catch (err) {
    db.close()
    throw err
  }
  return db
}

/**
 * An in-memory store with the same schema (nothing of it touches the disk: no file, no journal
 * on disk, no temp files beyond SQLite's own memory): where what ScanDesk would seal with an
 * account's key is held for this run while the account has no key (no keychain).
 */
export function openMemoryDatabase(migrations: readonly Migration[] = MIGRATIONS): Db {
  const db = new Database(':memory:')
  db.pragma('foreign_keys = ON')
  // Temporary tables and indices SQLite builds for a query stay in memory too.
  db.pragma('temp_store = MEMORY')
  migrate(db, migrations)
  return db
}

/** The highest migration version applied to `db` (0 for a new file). */
export function schemaVersion(db: Db): number {
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as {
    v: number | null
  }
  return row.v ?? 0
}

/** Applies every migration newer than the database, each in its own transaction. */
export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): number {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  ) STRICT`)
  const current = schemaVersion(db)
  const known = migrations.reduce((max, m) => Math.max(max, m.version), 0)
  if (current > known)
    throw new Error(
      `The local database was written by a newer ScanDesk (schema ${current}, this version knows ${known}).`,
    )
  const record = db.prepare(
    'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
  )
  let applied = 0
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (m.version <= current) continue
    db.transaction(() => {
      m.up(db)
      record.run(m.version, m.name, new Date().toISOString())
    })()
    applied++
  }
  return applied
}
