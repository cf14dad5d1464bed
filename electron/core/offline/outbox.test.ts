import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { findOperation } from '@contract/catalog/index'
import type { OperationDef } from '@contract/catalog/types'
import { AppFailure, type AppError } from '@contract/errors'
import type { OutboxCounts } from '@contract/offline'
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
const OTHER = { id: 'acc-00000002', label: 'Other' }

function op(id: string): OperationDef {
  const found = findOperation(id)
  if (!found) throw new Error(`no operation ${id}`)
  return found
}
const MARK_READ = op('notifications.mark_read')
const MARK_SEEN = op('notifications.mark_seen')
const MARK_ALL_SEEN = op('notifications.mark_all_seen')

interface Sent {
  accountId: string
  op: string
  input: CallInput
}

let dir: string
let db: Db
let events: CoreEvents
let keys: AccountKeys
let changed: OutboxCounts[]
let sent: Sent[]
let reports: [string, boolean, string][]
let blockedBy: string | null
/** What `send` does for a call: throws the failure given for its target (or op), else resolves. */
let failures: Map<string, AppFailure | Error>
let outboxes: Outbox[]

function send(accountId: string, opId: string, input: CallInput): Promise<unknown> {
  sent.push({ accountId, op: opId, input })
  const target = (input.path as { id?: string } | undefined)?.id ?? opId
  const err = failures.get(target)
  return err ? Promise.reject(err) : Promise.resolve({ data: { success: true } })
}

/** Each call sent, as `<op> <target>` (a mark-all has no target). */
const calls = () =>
  sent.map((s) => `${s.op} ${(s.input.path as { id?: string } | undefined)?.id ?? ''}`.trim())

function outbox(over: Partial<OutboxDeps> = {}): Outbox {
  const o = new Outbox({
    db,
    events,
    keys,
    send,
    blocked: () => blockedBy,
    report: (accountId, answered, message) => reports.push([accountId, answered, message]),
    ...over,
  })
  outboxes.push(o)
  return o
}

function appFailure(error: AppError): AppFailure {
  return new AppFailure(error)
}

function rowState(id: string): string | undefined {
  return (
    db.prepare('SELECT state FROM outbox WHERE id = ?').get(id) as { state: string } | undefined
  )?.state
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-outbox-'))
  db = openDatabase(dir)
  const accounts = new AccountsRepo(db)
  accounts.insert(accountRow({ id: ACME.id, label: ACME.label }))
  accounts.insert(accountRow({ id: OTHER.id, label: OTHER.label }))
  events = new CoreEvents()
  keys = new AccountKeys(new MemoryVault())
  changed = []
  events.on('outbox.changed', (c) => changed.push(c))
  sent = []
  reports = []
  blockedBy = null
  failures = new Map()
  outboxes = []
})

afterEach(async () => {
  for (const o of outboxes) await o.idle()
  db.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('enqueue', () => {
  it('keeps a mark_read with its target, queued, and announces the counts', async () => {
    const o = outbox({ now: () => new Date('2025-06-01T10:00:00.000Z') })
    const item = await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
    expect(item).toMatchObject({
      accountId: ACME.id,
      accountLabel: 'Acme',
      op: 'notifications.mark_read',
      summary: MARK_READ.summary,
      target: 'ntf-002',
      state: 'queued',
      error: null,
      attempts: 0,
      createdAt: '2025-06-01T10:00:00.000Z',
      lastTriedAt: null,
    })
    expect(await o.get(item.id)).toEqual(item)
    expect(await o.list(ACME.id)).toEqual([item])
    expect(changed).toEqual([{ accountId: ACME.id, queued: 1, failed: 0 }])
    expect(o.counts(ACME.id)).toEqual({ accountId: ACME.id, queued: 1, failed: 0 })
    expect(o.hasQueued(ACME.id)).toBe(true)
    expect(o.hasQueued(OTHER.id)).toBe(false)
    expect(sent).toEqual([])
  })

  it('keeps a mark-all with no target', async () => {
    const o = outbox()
    expect((await o.enqueue(ACME, MARK_ALL_SEEN, {})).target).toBeNull()
  })

  it('refuses an input the catalog refuses, and stores nothing', async () => {
    const o = outbox()
    for (const input of [{}, { path: {} }, { path: { id: '../admin' } }, { path: { id: '' } }]) {
      let caught: unknown
      try {
        await o.enqueue(ACME, MARK_READ, input)
      } catch (err) {
        caught = err
      }
      expect(caught).toBeInstanceOf(AppFailure)
      expect((caught as AppFailure).error.code).toBe('VALIDATION')
    }
    expect(await o.list()).toEqual([])
    expect(changed).toEqual([])
  })

  it('refuses an operation whose offline policy is not "queue"', async () => {
    const o = outbox()
    for (const id of ['notifications.delete', 'notifications.show']) {
      const def = op(id)
      expect(def.offline).not.toBe('queue')
      await expect(o.enqueue(ACME, def, { path: { id: 'ntf-002' } })).rejects.toThrow(
        expect.objectContaining({ error: expect.objectContaining({ code: 'OFFLINE' }) }),
      )
    }
    expect(await o.list()).toEqual([])
  })
})

describe('replay', () => {
  it('sends in the order they were made, across operations, and deletes each once sent', async () => {
    const o = outbox()
    await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
    await o.enqueue(ACME, MARK_ALL_SEEN, {})
    await o.enqueue(ACME, MARK_SEEN, { path: { id: 'ntf-003' } })
    changed = []
    await o.replay(ACME.id)
    expect(sent).toEqual([
      { accountId: ACME.id, op: 'notifications.mark_read', input: { path: { id: 'ntf-002' } } },
      { accountId: ACME.id, op: 'notifications.mark_all_seen', input: {} },
      { accountId: ACME.id, op: 'notifications.mark_seen', input: { path: { id: 'ntf-003' } } },
    ])
    expect(await o.list()).toEqual([])
    expect(changed.at(-1)).toEqual({ accountId: ACME.id, queued: 0, failed: 0 })
    expect(reports).toEqual([
      [ACME.id, true, ''],
      [ACME.id, true, ''],
      [ACME.id, true, ''],
    ])
  })

  it('deletes an item only after it was sent', async () => {
    const o = outbox()
    const item = await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
    let stateWhileSending: string | undefined
    const spy = outbox({
      send: (accountId, opId, input) => {
        stateWhileSending = rowState(item.id)
        return send(accountId, opId, input)
      },
    })
    await spy.replay(ACME.id)
    expect(stateWhileSending).toBe('sending')
    expect(await o.get(item.id)).toBeNull()
  })

  it.each([
    ['NOT_FOUND', 404],
    ['CONFLICT', 409],
  ] as const)(
    'a refusal (%s) keeps the item as failed with the error and goes on',
    async (code, status) => {
      const o = outbox()
      const first = await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
      const refusedItem = await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-004' } })
      const last = await o.enqueue(ACME, MARK_SEEN, { path: { id: 'ntf-005' } })
      const error: AppError = { code, status, message: 'The service said no.' }
      failures.set('ntf-004', appFailure(error))
      await o.replay(ACME.id)
      expect(sent.map((s) => s.input.path)).toEqual([
        { id: 'ntf-002' },
        { id: 'ntf-004' },
        { id: 'ntf-005' },
      ])
      expect(await o.get(first.id)).toBeNull()
      expect(await o.get(last.id)).toBeNull()
      expect(await o.get(refusedItem.id)).toMatchObject({ state: 'failed', error, attempts: 1 })
      expect(o.counts(ACME.id)).toEqual({ accountId: ACME.id, queued: 0, failed: 1 })
      expect(o.hasQueued(ACME.id)).toBe(false)
      expect(changed.at(-1)).toEqual({ accountId: ACME.id, queued: 0, failed: 1 })

      // A failed item is not sent again by the next replay.
      sent = []
      await o.replay(ACME.id)
      expect(sent).toEqual([])
    },
  )

  it('a failure that is not an AppFailure is kept as an internal error', async () => {
    const o = outbox()
    const item = await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
    failures.set('ntf-002', new Error('secret detail'))
    await o.replay(ACME.id)
    const kept = await o.get(item.id)
    expect(kept?.state).toBe('failed')
    expect(kept?.error?.code).toBe('INTERNAL')
    expect(JSON.stringify(kept)).not.toContain('secret detail')
  })

  it('losing the service puts the item back, stops the replay and reports it', async () => {
    const o = outbox()
    const first = await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
    const lost = await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-004' } })
    const later = await o.enqueue(ACME, MARK_SEEN, { path: { id: 'ntf-005' } })
    failures.set('ntf-004', appFailure({ code: 'OFFLINE', message: 'Connection refused.' }))
    await o.replay(ACME.id)
    expect(sent.map((s) => s.input.path)).toEqual([{ id: 'ntf-002' }, { id: 'ntf-004' }])
    expect(await o.get(first.id)).toBeNull()
    expect(await o.get(lost.id)).toMatchObject({ state: 'queued', error: null, attempts: 1 })
    expect(await o.get(later.id)).toMatchObject({ state: 'queued', attempts: 0, lastTriedAt: null })
    expect(reports).toEqual([
      [ACME.id, true, ''],
      [ACME.id, false, 'Connection refused.'],
    ])
    expect(changed.at(-1)).toEqual({ accountId: ACME.id, queued: 2, failed: 0 })

    // Back online: the rest goes, in order; the one tried before is checked for first.
    failures.clear()
    sent = []
    await o.replay(ACME.id)
    expect(calls()).toEqual([
      'notifications.show ntf-004',
      'notifications.mark_read ntf-004',
      'notifications.mark_seen ntf-005',
    ])
    expect(await o.list()).toEqual([])
  })

  it('a 503 counts as losing the service', async () => {
    const o = outbox()
    const item = await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
    failures.set('ntf-002', appFailure({ code: 'SERVER', status: 503, message: 'Unavailable.' }))
    await o.replay(ACME.id)
    expect((await o.get(item.id))?.state).toBe('queued')
    expect(reports).toEqual([[ACME.id, false, 'Unavailable.']])
  })

  it('no session keeps the item queued and stops, without calling the service unreachable', async () => {
    const o = outbox()
    const item = await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
    const later = await o.enqueue(ACME, MARK_SEEN, { path: { id: 'ntf-003' } })
    failures.set('ntf-002', appFailure({ code: 'NOT_SIGNED_IN', message: 'Sign in first.' }))
    await o.replay(ACME.id)
    expect(sent).toHaveLength(1)
    expect(await o.get(item.id)).toMatchObject({ state: 'queued', error: null })
    expect((await o.get(later.id))?.state).toBe('queued')
    expect(reports).toEqual([])
  })

  it('sends nothing while requests are blocked', async () => {
    const o = outbox()
    const item = await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
    blockedBy = '“Work offline” is on.'
    await o.replay(ACME.id)
    expect(sent).toEqual([])
    expect(await o.get(item.id)).toMatchObject({ state: 'queued', attempts: 0 })
  })

  it('stops between items once requests become blocked', async () => {
    const o = outbox({
      send: (accountId, opId, input) => {
        blockedBy = 'No network.'
        return send(accountId, opId, input)
      },
    })
    await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
    const later = await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-003' } })
    await o.replay(ACME.id)
    expect(sent).toHaveLength(1)
    expect((await o.get(later.id))?.state).toBe('queued')
  })

  it('two concurrent replays of one account send each item once', async () => {
    const releases: (() => void)[] = []
    const o = outbox({
      send: (accountId, opId, input) => {
        sent.push({ accountId, op: opId, input })
        return new Promise<void>((resolve) => releases.push(resolve))
      },
    })
    await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
    await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-003' } })
    const first = o.replay(ACME.id)
    const second = o.replay(ACME.id)
    expect(second).toBe(first)
    while ((await o.list()).length > 0) {
      await new Promise((r) => setImmediate(r))
      releases.shift()?.()
    }
    await Promise.all([first, second])
    expect(sent.map((s) => s.input.path)).toEqual([{ id: 'ntf-002' }, { id: 'ntf-003' }])
  })

  it("sends only the given account's items", async () => {
    const o = outbox()
    await o.enqueue(OTHER, MARK_READ, { path: { id: 'ntf-001' } })
    await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
    await o.enqueue(OTHER, MARK_ALL_SEEN, {})
    await o.replay(ACME.id)
    expect(sent).toEqual([
      { accountId: ACME.id, op: 'notifications.mark_read', input: { path: { id: 'ntf-002' } } },
    ])
    expect((await o.list(OTHER.id)).map((i) => [i.target, i.state])).toEqual([
      ['ntf-001', 'queued'],
      [null, 'queued'],
    ])
    expect(await o.list(ACME.id)).toEqual([])
  })
})

describe('retry and discard', () => {
  it('retry puts a failed item back and sends it', async () => {
    const o = outbox()
    const item = await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
    failures.set('ntf-002', appFailure({ code: 'CONFLICT', status: 409, message: 'Changed.' }))
    await o.replay(ACME.id)
    expect((await o.get(item.id))?.state).toBe('failed')
    failures.clear()
    sent = []
    expect(await o.retry(item.id)).toEqual([])
    expect(calls()).toEqual(['notifications.show ntf-002', 'notifications.mark_read ntf-002'])
    expect(await o.get(item.id)).toBeNull()
  })

  it('retry while blocked refuses with OFFLINE and keeps the item', async () => {
    const o = outbox()
    const item = await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
    failures.set('ntf-002', appFailure({ code: 'NOT_FOUND', status: 404, message: 'Gone.' }))
    await o.replay(ACME.id)
    sent = []
    blockedBy = 'This computer has no network connection.'
    await expect(o.retry(item.id)).rejects.toMatchObject({
      error: { code: 'OFFLINE', message: expect.stringContaining(blockedBy) },
    })
    expect(sent).toEqual([])
    // Still shown as refused: nothing changed while nothing could be sent.
    expect((await o.get(item.id))?.state).toBe('failed')
  })

  it('retry during a running replay of the account still sends the item', async () => {
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    const o = outbox({
      send: async (accountId, opId, input) => {
        if ((input.path as { id?: string } | undefined)?.id === 'ntf-003') await gate
        return send(accountId, opId, input)
      },
    })
    const refused = await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
    await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-003' } })
    failures.set('ntf-002', appFailure({ code: 'CONFLICT', status: 409, message: 'Changed.' }))
    const running = o.replay(ACME.id)
    await new Promise((r) => setTimeout(r, 10))
    expect((await o.get(refused.id))?.state).toBe('failed')
    failures.clear()
    const retried = o.retry(refused.id)
    release()
    await Promise.all([running, retried])
    expect(await o.get(refused.id)).toBeNull()
    expect(calls()).toEqual([
      'notifications.mark_read ntf-002',
      'notifications.mark_read ntf-003',
      'notifications.show ntf-002',
      'notifications.mark_read ntf-002',
    ])
  })

  it('sends an item handed over before only if the service does not have it yet', async () => {
    const first = outbox()
    await first.enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
    await first.enqueue(ACME, MARK_SEEN, { path: { id: 'ntf-003' } })
    await first.enqueue(ACME, op('notifications.mark_all_read'), {})
    await first.enqueue(ACME, MARK_ALL_SEEN, {})
    // All four were handed over and their answers lost (a crash with them in flight).
    db.prepare("UPDATE outbox SET state = 'sending', attempts = 1").run()
    // The service has made the first and the third; the second and the fourth it has not.
    const o = outbox({
      send: (accountId, opId, input) => {
        sent.push({ accountId, op: opId, input })
        const id = (input.path as { id?: string } | undefined)?.id
        if (opId === 'notifications.show')
          return Promise.resolve({ data: { attributes: { read: id === 'ntf-002', seen: false } } })
        const query = input.query as Record<string, unknown> | undefined
        if (opId === 'notifications.list')
          return Promise.resolve({ data: query?.read === 'false' ? [] : [{ id: 'ntf-009' }] })
        return Promise.resolve({ data: { success: true } })
      },
    })
    await o.replay(ACME.id)
    expect(calls()).toEqual([
      'notifications.show ntf-002',
      'notifications.show ntf-003',
      'notifications.mark_seen ntf-003',
      'notifications.list',
      'notifications.list',
      'notifications.mark_all_seen',
    ])
    expect(await o.list()).toEqual([])
  })

  it('retry of an unknown item refuses with NOT_FOUND', async () => {
    const o = outbox()
    await expect(o.retry('00000000-0000-0000-0000-000000000000')).rejects.toMatchObject({
      error: { code: 'NOT_FOUND' },
    })
  })

  it('discard removes the item and announces it; an unknown id gives false', async () => {
    const o = outbox()
    const item = await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
    const kept = await o.enqueue(ACME, MARK_SEEN, { path: { id: 'ntf-003' } })
    changed = []
    expect(o.discard(item.id)).toBe(true)
    expect(await o.get(item.id)).toBeNull()
    expect((await o.list()).map((i) => i.id)).toEqual([kept.id])
    expect(changed).toEqual([{ accountId: ACME.id, queued: 1, failed: 0 }])
    expect(o.discard(item.id)).toBe(false)
    expect(o.discard('no-such-item')).toBe(false)
    expect(changed).toHaveLength(1)
  })

  it('discard refuses an item being sent', async () => {
    const o = outbox()
    const item = await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
    db.prepare("UPDATE outbox SET state = 'sending' WHERE id = ?").run(item.id)
    expect(() => o.discard(item.id)).toThrow(
      expect.objectContaining({ error: expect.objectContaining({ code: 'CONFLICT' }) }),
    )
    expect(await o.get(item.id)).not.toBeNull()
  })
})

describe('across restarts and accounts', () => {
  it('a new outbox puts items caught mid-send back in the queue', async () => {
    const o = outbox()
    const item = await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
    const refusedItem = await o.enqueue(ACME, MARK_SEEN, { path: { id: 'ntf-003' } })
    db.prepare("UPDATE outbox SET state = 'sending' WHERE id = ?").run(item.id)
    db.prepare("UPDATE outbox SET state = 'failed' WHERE id = ?").run(refusedItem.id)
    const next = outbox()
    expect((await next.get(item.id))?.state).toBe('queued')
    expect((await next.get(refusedItem.id))?.state).toBe('failed')
    await next.replay(ACME.id)
    expect(sent.map((s) => s.input.path)).toEqual([{ id: 'ntf-002' }])
  })

  it("removing the account removes its items, not the others'", async () => {
    const o = outbox()
    await o.enqueue(ACME, MARK_READ, { path: { id: 'ntf-002' } })
    await o.enqueue(ACME, MARK_ALL_SEEN, {})
    const other = await o.enqueue(OTHER, MARK_READ, { path: { id: 'ntf-009' } })
    db.prepare('DELETE FROM accounts WHERE id = ?').run(ACME.id)
    expect(await o.list(ACME.id)).toEqual([])
    expect((await o.list()).map((i) => i.id)).toEqual([other.id])
    expect(o.counts(ACME.id)).toEqual({ accountId: ACME.id, queued: 0, failed: 0 })
  })
})
