import type { Db } from './database'

/** The settings table: one JSON value per key. */
export class SettingsRepo {
  constructor(private readonly db: Db) {}

  /** The stored value of `key`, or `fallback` when it is missing or unreadable. */
  get<T>(key: string, fallback: T): T {
    const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as
      { value: string } | undefined
    if (!row) return fallback
    try {
      return JSON.parse(row.value) as T
    } catch {
      return fallback
    }
  }

  /** Stores `value` (JSON) under `key`; `undefined` removes the key. */
  set(key: string, value: unknown): void {
    if (value === undefined) {
      this.db.prepare('DELETE FROM settings WHERE key = ?').run(key)
      return
    }
    this.db
      .prepare(
        'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      )
      .run(key, JSON.stringify(value))
  }
}
