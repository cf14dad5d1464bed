// The outbox replaying a bulk run's writes (delivered by the bulk engine, faked here): their
// counts are announced at most once a second while they go, and exactly when the replay ends.
import type { OutboxCounts } from '@contract/offline'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AccountKeys, type AccountKey } from '../accounts/account-keys'
import { MemoryVault } from '../accounts/memory-vault'
import { CoreEvents } from '../events'
import { useTestDb } from '../store/test-db'
import { Outbox } from './outbox'

const ACME = { id: 'acc-00000001', label: 'Acme' }
const NOW = '2026-11-26T10:00:00.000Z'
const t = useTestDb('scandesk-outbox-bulk-', [ACME.id])
let keys: AccountKeys
let key: AccountKey
let events: CoreEvents
let changed: OutboxCounts[]

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  keys = new AccountKeys(new MemoryVault())
  key = (await keys.keyFor(ACME.id)).key!
  events = new CoreEvents()
  changed = []
  events.on('outbox.changed', (c) => changed.push(c))
})
afterEach(() => {
  vi.useRealTimers()
})

/** An outbox whose bulk writes `deliver` hands over; `n` of them queued. */
function queued(n: number, deliver: (writeId: string) => Promise<'finished' | 'wait'>): Outbox {
  const outbox = new Outbox({
    db: t.db,
    events,
    keys,
    send: () => Promise.reject(new Error('no plain write is queued')),
    blocked: () => null,
    report: () => undefined,
    deliver,
  })
  t.db
    .prepare(
      `INSERT INTO bulk_runs (id, account_id, action, sealed, created_at, updated_at)
     VALUES ('run-1', ?, 'exceptions.create', x'00', ?, ?)`,
    )
    .run(ACME.id, NOW, NOW)
  const item = t.db.prepare(
    `INSERT INTO bulk_items (write_id, run_id, seq, state, sealed) VALUES (?, 'run-1', ?, 'queued', x'00')`,
  )
  const rows = Array.from({ length: n }, (_, i) => {
    item.run(`w-${i}`, i)
    const write = { writeId: `w-${i}`, target: `vul-${i}`, input: { body: { i } } }
    return outbox.sealBulk(ACME.id, 'exceptions.create', key, write)
  })
  outbox.insertBulk(ACME, 'exceptions.create', rows)
  return outbox
}

describe('a replay of bulk writes', () => {
  it('announces the counts once when it ends, not once per write', async () => {
    const delivered: string[] = []
    const outbox = queued(10, async (writeId) => {
      delivered.push(writeId)
      return 'finished'
    })
    await outbox.replay(ACME.id)
    expect(delivered).toEqual(Array.from({ length: 10 }, (_, i) => `w-${i}`))
    expect(changed).toEqual([{ accountId: ACME.id, queued: 0, failed: 0 }])
  })

  it('announces them at most once a second while it sends', async () => {
    // Each delivery takes 300 ms of the (fake) clock.
    const outbox = queued(10, async () => {
      await new Promise((resolve) => setTimeout(resolve, 300))
      return 'finished'
    })
    const replay = outbox.replay(ACME.id)
    await vi.advanceTimersByTimeAsync(1350)
    // The first delivery ended at 300 ms; its counts went a second later (1.3 s), with what was left.
    expect(changed).toEqual([{ accountId: ACME.id, queued: 6, failed: 0 }])
    await vi.advanceTimersByTimeAsync(3000)
    await replay
    expect(changed.length).toBeLessThanOrEqual(4)
    expect(changed.at(-1)).toEqual({ accountId: ACME.id, queued: 0, failed: 0 })
  })

  it('announces the counts when the service goes away in the middle', async () => {
    let left = 3
    const outbox = queued(5, async () => (left-- > 0 ? 'finished' : 'wait'))
    await outbox.replay(ACME.id)
    expect(changed).toEqual([{ accountId: ACME.id, queued: 2, failed: 0 }])
  })
})
