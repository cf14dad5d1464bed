import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AccountKeys } from '../accounts/account-keys'
import { MemoryVault } from '../accounts/memory-vault'
import { CoreEvents } from '../events'
import { Outbox } from '../offline/outbox'
import { AccountsRepo } from './accounts-repo'
import { openDatabase, schemaVersion, type Db } from './database'
import { DraftsRepo } from './drafts-repo'
import { MIGRATIONS } from './migrations'
import { sealPlainRows } from './sealing'
import { accountRow } from './test-account'

const ID = 'acc-00000001'
const DRAFT_TEXT = 'MARKER-compensating-control-8812'
const NOTE_ID = 'ntf-MARKER-0042'

let dir: string
let db: Db

/** A data folder of the version before (schema 7) with a draft and a queued write in plain text. */
function previousVersion(): void {
  const old = openDatabase(dir, MIGRATIONS.slice(0, 7))
  new AccountsRepo(old).insert(accountRow({ id: ID }))
  old
    .prepare(
      `INSERT INTO drafts (account_id, kind, key, data, saved_at)
       VALUES (?, 'saq', 'saq-1', ?, '2026-01-01T00:00:00.000Z')`,
    )
    .run(ID, JSON.stringify({ explanation: DRAFT_TEXT }))
  old
    .prepare(
      `INSERT INTO outbox (id, seq, account_id, account_label, op, input, target, state, created_at)
       VALUES ('item-0001', 1, ?, 'Acme', 'notifications.mark_read', ?, ?, 'queued',
         '2026-01-01T00:00:00.000Z')`,
    )
    .run(ID, JSON.stringify({ path: { id: NOTE_ID } }), NOTE_ID)
  old.close()
}

const plainRows = () =>
  (
    db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM drafts WHERE data IS NOT NULL) +
         (SELECT COUNT(*) FROM outbox WHERE input IS NOT NULL) AS n`,
      )
      .get() as { n: number }
  ).n
const folderBytes = () =>
  Buffer.concat(fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f))))

function outboxOf(keys: AccountKeys): Outbox {
  return new Outbox({
    db,
    events: new CoreEvents(),
    keys,
    send: async () => ({}),
    blocked: () => null,
    report: () => undefined,
  })
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-sealing-'))
  previousVersion()
  db = openDatabase(dir)
})
afterEach(() => {
  db.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('drafts and queued writes kept in plain text by an earlier version', () => {
  it('are kept as they are by migration 9, and untouched while the keychain does not answer', async () => {
    expect(schemaVersion(db)).toBe(Math.max(...MIGRATIONS.map((m) => m.version)))
    expect(plainRows()).toBe(2)
    const locked = new AccountKeys(new MemoryVault({ available: false, message: 'locked' }))
    const sealed: string[] = []
    locked.onKey((id, key) => sealed.push(id) && sealPlainRows(db, id, key))
    expect((await locked.keyFor(ID)).key).toBeNull()
    expect(sealed).toEqual([])
    // Still there and still readable, not deleted and not sealed under some other key.
    expect(plainRows()).toBe(2)
    expect((await new DraftsRepo(db, locked).get(ID, 'saq', 'saq-1'))?.data).toEqual({
      explanation: DRAFT_TEXT,
    })
    expect(outboxOf(locked).counts(ID)).toEqual({ accountId: ID, queued: 1, failed: 0 })
  })

  it('are sealed once the account’s key is at hand: their text is gone from disk, their content kept', async () => {
    const vault = new MemoryVault()
    const keys = new AccountKeys(vault)
    const { key } = await keys.keyFor(ID)
    expect(sealPlainRows(db, ID, key!)).toBe(2)
    expect(plainRows()).toBe(0)
    expect(sealPlainRows(db, ID, key!)).toBe(0)
    db.close()
    const bytes = folderBytes()
    expect(bytes.includes(Buffer.from(DRAFT_TEXT))).toBe(false)
    expect(bytes.includes(Buffer.from(NOTE_ID))).toBe(false)

    db = openDatabase(dir)
    const next = new AccountKeys(vault)
    expect((await new DraftsRepo(db, next).get(ID, 'saq', 'saq-1'))?.data).toEqual({
      explanation: DRAFT_TEXT,
    })
    expect(await outboxOf(next).list(ID)).toMatchObject([
      { id: 'item-0001', op: 'notifications.mark_read', target: NOTE_ID, state: 'queued' },
    ])
  })
})
