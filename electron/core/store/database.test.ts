import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DB_FILE, migrate, openDatabase, schemaVersion, type Db } from './database'
import { MIGRATIONS, type Migration } from './migrations'

let dir: string
let db: Db | undefined

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-db-'))
})
afterEach(() => {
  db?.close()
  db = undefined
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('opening the local store', () => {
  it('creates scandesk.db in WAL mode with foreign keys and the migration 1 tables', () => {
    db = openDatabase(dir)
    expect(fs.existsSync(path.join(dir, DB_FILE))).toBe(true)
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(schemaVersion(db)).toBe(MIGRATIONS.length)
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
        name: string
      }[]
    ).map((t) => t.name)
    expect(tables).toEqual(expect.arrayContaining(['accounts', 'schema_migrations', 'settings']))
    const columns = (db.prepare('PRAGMA table_info(accounts)').all() as { name: string }[]).map(
      (c) => c.name,
    )
    // remember_password is the opt-in flag (an integer); the password itself is in the vault.
    const info = db.prepare('PRAGMA table_info(accounts)').all() as { name: string; type: string }[]
    expect(info.find((c) => c.name === 'remember_password')?.type).toBe('INTEGER')
    const others = columns.filter((c) => c !== 'remember_password')
    expect(others.some((c) => /key|token|password|secret/.test(c))).toBe(false)
  })

  it('re-opens an existing file without applying migrations again and keeps its data', () => {
    db = openDatabase(dir)
    db.prepare("INSERT INTO settings (key, value) VALUES ('k', '1')").run()
    db.close()
    db = openDatabase(dir)
    expect(migrate(db)).toBe(0)
    const rows = db.prepare('SELECT version FROM schema_migrations').all()
    expect(rows).toHaveLength(MIGRATIONS.length)
    expect(db.prepare("SELECT value FROM settings WHERE key = 'k'").get()).toEqual({ value: '1' })
  })

  it('applies only the new migrations of a later version', () => {
    db = openDatabase(dir)
    db.close()
    const next: Migration = {
      version: MIGRATIONS.length + 1,
      name: 'test table',
      up: (d) => d.exec('CREATE TABLE extra (id TEXT PRIMARY KEY) STRICT'),
    }
    db = openDatabase(dir, [...MIGRATIONS, next])
    expect(schemaVersion(db)).toBe(next.version)
    expect(migrate(db, [...MIGRATIONS, next])).toBe(0)
  })

  it('rolls a failing migration back as a whole', () => {
    db = openDatabase(dir)
    const broken: Migration = {
      version: MIGRATIONS.length + 1,
      name: 'broken',
      up: (d) => {
        d.exec('CREATE TABLE half (id TEXT) STRICT')
        d.exec('THIS IS NOT SQL')
      },
    }
    expect(() => migrate(db!, [...MIGRATIONS, broken])).toThrow()
    expect(schemaVersion(db)).toBe(MIGRATIONS.length)
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeUndefined()
  })

  it('refuses a database from a newer ScanDesk', () => {
    db = openDatabase(dir)
    db.prepare("INSERT INTO schema_migrations VALUES (999, 'future', 'x')").run()
    db.close()
    db = undefined
    expect(() => openDatabase(dir)).toThrow(/newer ScanDesk/)
  })
})
