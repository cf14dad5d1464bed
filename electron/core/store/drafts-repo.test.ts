import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { draftsInputs, MAX_DRAFT_BYTES } from '@contract/drafts'
import { AccountsRepo } from './accounts-repo'
import { openDatabase, type Db } from './database'
import { DraftsRepo } from './drafts-repo'
import { accountRow } from './test-account'

let dir: string
let db: Db
let drafts: DraftsRepo
let accounts: AccountsRepo
let clock = 0

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-drafts-'))
  db = openDatabase(dir)
  accounts = new AccountsRepo(db)
  for (const id of ['acc-00000001', 'acc-00000002']) accounts.insert(accountRow({ id, label: id }))
  clock = Date.parse('2026-11-23T10:00:00.000Z')
  drafts = new DraftsRepo(db, () => new Date((clock += 1000)))
})
afterEach(() => {
  db.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('drafts', () => {
  it('keeps the last save per account, kind and key, and survives reopening the database', () => {
    drafts.save('acc-00000001', 'scan-wizard', '', { step: 1 })
    drafts.save('acc-00000001', 'scan-wizard', '', { step: 2 })
    drafts.save('acc-00000002', 'scan-wizard', '', { step: 5 })
    db.close()
    db = openDatabase(dir)
    drafts = new DraftsRepo(db)
    expect(drafts.get('acc-00000001', 'scan-wizard', '')).toMatchObject({
      data: { step: 2 },
      savedAt: '2026-11-23T10:00:02.000Z',
    })
    expect(drafts.get('acc-00000002', 'scan-wizard', '')?.data).toEqual({ step: 5 })
    expect(drafts.get('acc-00000001', 'saq', '')).toBeNull()
  })

  it('lists an account’s drafts of a kind, newest first, and deletes one', () => {
    drafts.save('acc-00000001', 'saq', 'saq-1', { a: 1 })
    drafts.save('acc-00000001', 'saq', 'saq-2', { a: 2 })
    expect(drafts.list('acc-00000001', 'saq').map((d) => d.key)).toEqual(['saq-2', 'saq-1'])
    expect(drafts.delete('acc-00000001', 'saq', 'saq-2')).toBe(true)
    expect(drafts.delete('acc-00000001', 'saq', 'saq-2')).toBe(false)
    expect(drafts.list('acc-00000001', 'saq').map((d) => d.key)).toEqual(['saq-1'])
  })

  it('goes with its account and refuses one for an account that does not exist', () => {
    drafts.save('acc-00000001', 'scan-wizard', '', { step: 1 })
    accounts.delete('acc-00000001')
    expect(drafts.get('acc-00000001', 'scan-wizard', '')).toBeNull()
    expect(drafts.save('acc-00000009', 'scan-wizard', '', { step: 1 })).toBeNull()
  })

  it('refuses content above 2 MiB and kinds it does not know before anything is stored', () => {
    const save = draftsInputs['drafts.save']
    const big = 'x'.repeat(MAX_DRAFT_BYTES)
    expect(
      save.safeParse({ accountId: 'acc-00000001', kind: 'scan-wizard', data: { big } }).success,
    ).toBe(false)
    expect(save.safeParse({ accountId: 'acc-00000001', kind: 'notes', data: {} }).success).toBe(
      false,
    )
    expect(
      save.safeParse({ accountId: 'acc-00000001', kind: 'saq', key: '../x', data: {} }).success,
    ).toBe(false)
    expect(save.parse({ accountId: 'acc-00000001', kind: 'saq', data: { a: [1] } }).key).toBe('')
  })
})
