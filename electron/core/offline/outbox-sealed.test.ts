// The outbox's items sealed with their account's key (issue 23, weakness 11): nothing of a queued
// write in clear; a keychain that does not answer keeps them as they are and sends nothing; an
// item that does not open is shown as failed and never sent.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { findOperation } from '@contract/catalog/index'
import type { OperationDef } from '@contract/catalog/types'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AccountKeys } from '../accounts/account-keys'
import { MemoryVault } from '../accounts/memory-vault'
import { CoreEvents } from '../events'
import type { CallInput } from '../http/request'
import { AccountsRepo } from '../store/accounts-repo'
import { openDatabase, type Db } from '../store/database'
import { accountRow } from '../store/test-account'
import { Outbox, type OutboxDeps } from './outbox'

const ACME = { id: 'acc-00000001', label: 'Acme' }
const op = (id: string) => findOperation(id) as OperationDef
const MARK_READ = op('notifications.mark_read')
const MARK_SEEN = op('notifications.mark_seen')

let dir: string
let db: Db
let vault: MemoryVault
let sent: { op: string; input: CallInput }[]
let outboxes: Outbox[]

function outbox(over: Partial<OutboxDeps> = {}): Outbox {
  const o = new Outbox({
    db,
    events: new CoreEvents(),
    keys: new AccountKeys(vault),
    send: async (_accountId, opId, input) => void sent.push({ op: opId, input }),
    blocked: () => null,
    report: () => undefined,
    ...over,
  })
  outboxes.push(o)
  return o
}

const rowState = (id: string) =>
  (db.prepare('SELECT state FROM outbox WHERE id = ?').get(id) as { state: string } | undefined)
    ?.state

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-outbox-sealed-'))
  db = openDatabase(dir)
  new AccountsRepo(db).insert(accountRow({ id: ACME.id, label: ACME.label }))
  vault = new MemoryVault()
  sent = []
  outboxes = []
})
afterEach(async () => {
  for (const o of outboxes) await o.idle()
  db.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('sealed with the account’s key', () => {
  const locked = () =>
    outbox({ keys: new AccountKeys(new MemoryVault({ available: false, message: 'locked' })) })

  it('keeps nothing of a queued write in clear', async () => {
    const o = outbox()
    await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-MARKER-77' } })
    db.pragma('wal_checkpoint(TRUNCATE)')
    const bytes = Buffer.concat(fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f))))
    expect(bytes.includes(Buffer.from('ntf-MARKER-77'))).toBe(false)
    expect((await o.list(ACME.id))[0].target).toBe('ntf-MARKER-77')
  })

  it('while the keychain does not answer: keeps nothing new, sends nothing, and leaves what waits', async () => {
    const item = await outbox().enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
    const stored = () => db.prepare('SELECT * FROM outbox').all()
    const before = stored()
    const l = locked()
    await expect(l.enqueue(ACME, MARK_SEEN, { path: { id: 'ntf-003' } })).rejects.toMatchObject({
      error: { code: 'KEYCHAIN_UNAVAILABLE', message: expect.stringMatching(/stay on this/) },
    })
    await l.replay(ACME.id)
    expect(sent).toEqual([])
    await expect(l.list(ACME.id)).rejects.toMatchObject({ error: { code: 'KEYCHAIN_UNAVAILABLE' } })
    expect(l.counts(ACME.id)).toEqual({ accountId: ACME.id, queued: 1, failed: 0 })
    expect(stored()).toEqual(before)
    // The keychain answers again: the write goes out.
    await outbox().replay(ACME.id)
    expect(sent.map((s) => s.input.path)).toEqual([{ id: 'ntf-002' }])
    expect(rowState(item.id)).toBeUndefined()
  })

  it('shows an item that does not open as failed with the reason, and never sends it', async () => {
    const o = outbox()
    const first = await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
    const second = await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-003' } })
    // One item's sealed payload put on the other: bound to its own item, it does not open there.
    db.prepare(
      'UPDATE outbox SET sealed = (SELECT sealed FROM outbox WHERE id = ?) WHERE id = ?',
    ).run(second.id, first.id)
    expect(await o.get(first.id)).toMatchObject({
      state: 'failed',
      target: null,
      error: { code: 'INTEGRITY_FAILED' },
    })
    await o.replay(ACME.id)
    expect(sent.map((s) => s.input.path)).toEqual([{ id: 'ntf-003' }])
    expect(rowState(first.id)).toBe('failed')
  })
})
