import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AccountsRepo } from './accounts-repo'
import { openDatabase, schemaVersion, type Db } from './database'
import { accountRow } from './test-account'
import { TombstonesRepo } from './tombstones-repo'

let dir: string
let db: Db

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-tomb-'))
  db = openDatabase(dir)
})
afterEach(() => {
  db.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('the keychain tombstones table (migration 6)', () => {
  it('keeps pending deletes across a restart, once per account and kind, until removed', () => {
    expect(schemaVersion(db)).toBeGreaterThanOrEqual(6)
    const repo = new TombstonesRepo(db)
    repo.add('acc-1', 'session_token', '2025-01-01T00:00:00.000Z')
    repo.add('acc-1', 'session_token', '2025-01-02T00:00:00.000Z')
    repo.add('acc-2', 'api_key', '2025-01-03T00:00:00.000Z')
    db.close()
    db = openDatabase(dir)
    const again = new TombstonesRepo(db)
    expect(again.list()).toEqual([
      { accountId: 'acc-1', kind: 'session_token', createdAt: '2025-01-01T00:00:00.000Z' },
      { accountId: 'acc-2', kind: 'api_key', createdAt: '2025-01-03T00:00:00.000Z' },
    ])
    again.remove('acc-1', 'session_token')
    expect(again.list().map((t) => t.accountId)).toEqual(['acc-2'])
  })

  it('outlives the removed account it belongs to', () => {
    const accounts = new AccountsRepo(db)
    accounts.insert(accountRow())
    const repo = new TombstonesRepo(db)
    repo.add(accountRow().id, 'api_key', '2025-01-01T00:00:00.000Z')
    accounts.delete(accountRow().id)
    expect(repo.list()).toHaveLength(1)
  })
})
