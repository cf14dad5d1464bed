import fs from 'node:fs'
import path from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { draftsInputs, MAX_DRAFT_BYTES } from '@contract/drafts'
import { AccountKeys } from '../accounts/account-keys'
import { MemoryVault } from '../accounts/memory-vault'
import { AccountsRepo } from './accounts-repo'
import { DraftsRepo } from './drafts-repo'
import { useTestDb } from './test-db'

const t = useTestDb('scandesk-drafts-', ['acc-00000001', 'acc-00000002'])
let drafts: DraftsRepo
let accounts: AccountsRepo
let clock = 0
let vault: MemoryVault

beforeEach(() => {
  accounts = new AccountsRepo(t.db)
  clock = Date.parse('2026-11-23T10:00:00.000Z')
  vault = new MemoryVault()
  drafts = new DraftsRepo(t.db, new AccountKeys(vault), () => new Date((clock += 1000)))
})

describe('drafts', () => {
  it('keeps the last save per account, kind and key, and survives reopening the database', async () => {
    await drafts.save('acc-00000001', 'scan-wizard', '', { step: 1 })
    await drafts.save('acc-00000001', 'scan-wizard', '', { step: 2 })
    await drafts.save('acc-00000002', 'scan-wizard', '', { step: 5 })
    t.reopen()
    drafts = new DraftsRepo(t.db, new AccountKeys(vault))
    expect(await drafts.get('acc-00000001', 'scan-wizard', '')).toMatchObject({
      data: { step: 2 },
      savedAt: '2026-11-23T10:00:02.000Z',
    })
    expect((await drafts.get('acc-00000002', 'scan-wizard', ''))?.data).toEqual({ step: 5 })
    expect(await drafts.get('acc-00000001', 'saq', '')).toBeNull()
  })

  it('lists an account’s drafts of a kind, newest first, and deletes one', async () => {
    await drafts.save('acc-00000001', 'saq', 'saq-1', { a: 1 })
    await drafts.save('acc-00000001', 'saq', 'saq-2', { a: 2 })
    expect(drafts.list('acc-00000001', 'saq').map((d) => d.key)).toEqual(['saq-2', 'saq-1'])
    expect(drafts.delete('acc-00000001', 'saq', 'saq-2')).toBe(true)
    expect(drafts.delete('acc-00000001', 'saq', 'saq-2')).toBe(false)
    expect(drafts.list('acc-00000001', 'saq').map((d) => d.key)).toEqual(['saq-1'])
  })

  it('goes with its account and refuses one for an account that does not exist', async () => {
    await drafts.save('acc-00000001', 'scan-wizard', '', { step: 1 })
    accounts.delete('acc-00000001')
    expect(await drafts.get('acc-00000001', 'scan-wizard', '')).toBeNull()
    expect(await drafts.save('acc-00000009', 'scan-wizard', '', { step: 1 })).toBeNull()
  })

  it('refuses content above 2 MiB and kinds it does not know before anything is stored', async () => {
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

/** Every byte of the data folder (the database and its WAL). */
const folderBytes = () =>
  Buffer.concat(fs.readdirSync(t.dir).map((f) => fs.readFileSync(path.join(t.dir, f))))

describe('drafts sealed with the account’s key', () => {
  it('keeps no draft text on disk, and a draft moved to another key does not open (it is kept)', async () => {
    await drafts.save('acc-00000001', 'saq', 'saq-1', { explanation: 'MARKER-cardholder-4711' })
    t.db.pragma('wal_checkpoint(TRUNCATE)')
    expect(folderBytes().includes(Buffer.from('MARKER-cardholder-4711'))).toBe(false)
    expect((await drafts.get('acc-00000001', 'saq', 'saq-1'))?.data).toEqual({
      explanation: 'MARKER-cardholder-4711',
    })
    t.db.prepare("UPDATE drafts SET key = 'saq-2' WHERE key = 'saq-1'").run()
    expect(await drafts.get('acc-00000001', 'saq', 'saq-2')).toBeNull()
    expect(drafts.list('acc-00000001', 'saq').map((d) => d.key)).toEqual(['saq-2'])
  })

  it('opens and writes nothing while the keychain does not answer, and touches nothing stored', async () => {
    await drafts.save('acc-00000001', 'saq', 'saq-1', { a: 1 })
    const stored = () => t.db.prepare('SELECT sealed, saved_at FROM drafts').all()
    const before = stored()
    const locked = new DraftsRepo(
      t.db,
      new AccountKeys(new MemoryVault({ available: false, message: 'locked' })),
    )
    for (const attempt of [
      locked.get('acc-00000001', 'saq', 'saq-1'),
      locked.save('acc-00000001', 'saq', 'saq-1', { a: 2 }),
      locked.save('acc-00000001', 'saq', 'saq-3', { a: 3 }),
    ])
      await expect(attempt).rejects.toMatchObject({
        error: { code: 'KEYCHAIN_UNAVAILABLE', message: expect.stringMatching(/stay on this/) },
      })
    expect(stored()).toEqual(before)
    expect(locked.list('acc-00000001', 'saq').map((d) => d.key)).toEqual(['saq-1'])
    expect((await drafts.get('acc-00000001', 'saq', 'saq-1'))?.data).toEqual({ a: 1 })
  })

  it('makes no key for an account that does not exist', async () => {
    expect(await drafts.save('acc-00000009', 'saq', '', { a: 1 })).toBeNull()
    expect(await vault.get('acc-00000009', 'cache_key')).toBeNull()
  })
})

describe('what an open form dialog holds (kind dialog)', () => {
  it('is kept in memory only, whatever the keychain: a reload finds it, a restart does not', async () => {
    const saved = await drafts.save('acc-00000001', 'dialog', 'save-view-vulnerabilities', {
      name: 'MARKER-dialog-name',
    })
    expect(saved).toMatchObject({ kept: 'memory' })
    expect(await drafts.get('acc-00000001', 'dialog', 'save-view-vulnerabilities')).toMatchObject({
      kept: 'memory',
      data: { name: 'MARKER-dialog-name' },
    })
    expect(await drafts.get('acc-00000002', 'dialog', 'save-view-vulnerabilities')).toBeNull()
    expect(drafts.counts('acc-00000001')).toMatchObject({ dialog: 1, 'saved-views': 0 })
    t.db.pragma('wal_checkpoint(TRUNCATE)')
    expect(folderBytes().includes(Buffer.from('MARKER-dialog-name'))).toBe(false)
    expect(await drafts.save('acc-00000009', 'dialog', 'x', { name: 'nobody' })).toBeNull()

    drafts.forget('acc-00000001')
    expect(await drafts.get('acc-00000001', 'dialog', 'save-view-vulnerabilities')).toBeNull()
    await drafts.save('acc-00000001', 'dialog', 'save-view-hosts', { name: 'again' })
    t.reopen()
    drafts = new DraftsRepo(t.db, new AccountKeys(vault))
    expect(await drafts.get('acc-00000001', 'dialog', 'save-view-hosts')).toBeNull()
  })
})
