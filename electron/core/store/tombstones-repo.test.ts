import { describe, expect, it } from 'vitest'
import { AccountsRepo } from './accounts-repo'
import { schemaVersion } from './database'
import { accountRow } from './test-account'
import { useTestDb } from './test-db'
import { TombstonesRepo } from './tombstones-repo'

const t = useTestDb('scandesk-tomb-')

describe('the keychain tombstones table (migration 6)', () => {
  it('keeps pending deletes across a restart, once per account and kind, until removed', () => {
    expect(schemaVersion(t.db)).toBeGreaterThanOrEqual(6)
    const repo = new TombstonesRepo(t.db)
    repo.add('acc-1', 'session_token', '2025-01-01T00:00:00.000Z')
    repo.add('acc-1', 'session_token', '2025-01-02T00:00:00.000Z')
    repo.add('acc-2', 'api_key', '2025-01-03T00:00:00.000Z')
    t.reopen()
    const again = new TombstonesRepo(t.db)
    expect(again.list()).toEqual([
      { accountId: 'acc-1', kind: 'session_token', createdAt: '2025-01-01T00:00:00.000Z' },
      { accountId: 'acc-2', kind: 'api_key', createdAt: '2025-01-03T00:00:00.000Z' },
    ])
    again.remove('acc-1', 'session_token')
    expect(again.list().map((t) => t.accountId)).toEqual(['acc-2'])
  })

  it('outlives the removed account it belongs to', () => {
    const accounts = new AccountsRepo(t.db)
    accounts.insert(accountRow())
    const repo = new TombstonesRepo(t.db)
    repo.add(accountRow().id, 'api_key', '2025-01-01T00:00:00.000Z')
    accounts.delete(accountRow().id)
    expect(repo.list()).toHaveLength(1)
  })
})
