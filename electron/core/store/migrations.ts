import type Database from 'better-sqlite3'

/** One numbered schema change; `up` runs inside a transaction, exactly once per database. */
export interface Migration {
  version: number
  name: string
  up(db: Database.Database): void
}

/** Every migration, in order. Append only: never edit one that has shipped. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts and settings',
    up(db) {
      db.exec(`
        CREATE TABLE accounts (
          id TEXT PRIMARY KEY,
          label TEXT NOT NULL,
          base_url TEXT NOT NULL,
          username TEXT NOT NULL,
          release TEXT NOT NULL,
          color TEXT NOT NULL,
          auth_method TEXT NOT NULL CHECK (auth_method IN ('password', 'access_token')),
          is_demo INTEGER NOT NULL DEFAULT 0 CHECK (is_demo IN (0, 1)),
          allow_insecure_http INTEGER NOT NULL DEFAULT 0 CHECK (allow_insecure_http IN (0, 1)),
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        ) STRICT;
        CREATE TABLE settings (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL CHECK (json_valid(value))
        ) STRICT;
      `)
    },
  },
]
