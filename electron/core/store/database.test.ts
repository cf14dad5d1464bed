import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DB_FILE, migrate, openDatabase, schemaVersion, type Db } from './database'
import { addedDefaults, rowsAt, T1, type Row } from './test-migration-rows'
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
    expect(schemaVersion(db)).toBe(LATEST)
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
      version: LATEST + 1,
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
      version: LATEST + 1,
      name: 'broken',
      up: (d) => {
        d.exec('CREATE TABLE half (id TEXT) STRICT')
        d.exec('THIS IS NOT SQL')
      },
    }
    expect(() => migrate(db!, [...MIGRATIONS, broken])).toThrow()
    expect(schemaVersion(db)).toBe(LATEST)
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

function insertRows(d: Db, table: string, rows: Row[]): void {
  for (const row of rows) {
    const cols = Object.keys(row)
    d.prepare(
      `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`,
    ).run(row)
  }
}

/** Tables and indexes as SQLite stores them, whitespace normalized, sorted by name. */
function schemaOf(d: Db): { type: string; name: string; sql: string }[] {
  const rows = d
    .prepare("SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'index')")
    .all() as { type: string; name: string; sql: string | null }[]
  return rows
    .filter((r) => r.sql !== null) // automatic indexes of primary keys and UNIQUE have no SQL
    .map((r) => ({ type: r.type, name: r.name, sql: r.sql!.replace(/\s+/g, ' ').trim() }))
    .sort((a, b) => a.name.localeCompare(b.name))
}

const LATEST = Math.max(...MIGRATIONS.map((m) => m.version))
const EARLIER = MIGRATIONS.map((m) => m.version).filter((v) => v < LATEST)

describe('upgrading a database of every earlier version', () => {
  it('covers every version before the latest', () => {
    expect(EARLIER).toEqual(Array.from({ length: LATEST - 1 }, (_, i) => i + 1))
  })

  it.each(EARLIER)(
    'migrates a version %i database with its rows to the schema of a new one',
    (version) => {
      const old = path.join(dir, 'old')
      db = openDatabase(
        old,
        MIGRATIONS.filter((m) => m.version <= version),
      )
      expect(schemaVersion(db)).toBe(version)
      const rows = rowsAt(version)
      const tables = schemaOf(db)
        .filter((t) => t.type === 'table' && t.name !== 'schema_migrations')
        .map((t) => t.name)
      expect(Object.keys(rows).sort()).toEqual(tables)
      for (const [table, list] of Object.entries(rows)) insertRows(db, table, list)
      db.close()

      db = openDatabase(old)
      expect(schemaVersion(db)).toBe(LATEST)
      for (const [table, list] of Object.entries(rows)) {
        const stored = db.prepare(`SELECT * FROM ${table}`).all()
        const expected = list.map((r) => ({ ...addedDefaults(table, version), ...r }))
        expect(stored, table).toHaveLength(expected.length)
        expect(stored, table).toEqual(expect.arrayContaining(expected))
      }
      expect(db.pragma('foreign_key_check')).toEqual([])
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')

      const fresh = openDatabase(path.join(dir, 'fresh'))
      try {
        expect(schemaOf(db)).toEqual(schemaOf(fresh))
      } finally {
        fresh.close()
      }
    },
  )
})

describe('the outbox table (migration 7)', () => {
  const entry = (id: string, seq: number, accountId: string, state = 'queued'): Row => ({
    id,
    seq,
    account_id: accountId,
    account_label: accountId === 'acc-1' ? 'Acme' : 'Demo',
    op: 'notifications.mark_read',
    input: JSON.stringify({ ids: ['ntf-1'] }),
    target: 'ntf-1',
    state,
    error: null,
    attempts: 0,
    created_at: T1,
    last_tried_at: null,
  })

  it('goes with its account and refuses a state it does not know', () => {
    db = openDatabase(dir)
    insertRows(db, 'accounts', rowsAt(LATEST).accounts)
    insertRows(db, 'outbox', [
      entry('out-1', 1, 'acc-1'),
      entry('out-2', 2, 'acc-2'),
      entry('out-3', 3, 'acc-1', 'failed'),
    ])
    db.prepare("DELETE FROM accounts WHERE id = 'acc-1'").run()
    const left = db.prepare('SELECT id FROM outbox ORDER BY seq').all()
    expect(left).toEqual([{ id: 'out-2' }])
    expect(() => insertRows(db!, 'outbox', [entry('out-4', 4, 'acc-2', 'sent')])).toThrow(
      /CHECK constraint/,
    )
    expect(db.prepare('SELECT COUNT(*) AS n FROM outbox').get()).toEqual({ n: 1 })
  })
})
