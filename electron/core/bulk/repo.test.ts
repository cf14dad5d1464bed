// The bulk repo's kept counts (a run's writes by state, moved along with each write instead of
// counted again after each one) always equal a fresh count from the database.
import { beforeEach, describe, expect, it } from 'vitest'
import { AccountKeys, type AccountKey } from '../accounts/account-keys'
import { MemoryVault } from '../accounts/memory-vault'
import { useTestDb } from '../store/test-db'
import { BulkRepo, type ItemPayload, type RunRow } from './repo'

const ACCOUNT = 'acc-00000001'
const NOW = '2026-11-26T10:00:00.000Z'
const t = useTestDb('scandesk-bulk-repo-', [ACCOUNT])
let key: AccountKey
let repo: BulkRepo

beforeEach(async () => {
  key = (await new AccountKeys(new MemoryVault()).keyFor(ACCOUNT)).key!
  repo = new BulkRepo(t.db)
})

/** A run of `n` queued writes w-<run>-0… */
function newRun(id: string, n: number): RunRow {
  const run = { id, account_id: ACCOUNT, action: 'exceptions.create' as const }
  const items = Array.from({ length: n }, (_, i) => {
    const writeId = `w-${id}-${i}`
    const write = { writeId, target: `vul-${i}`, label: null, host: null }
    return { writeId, sealed: repo.sealNew(key, run, write) }
  })
  t.db.transaction(() => {
    repo.insertRun(key, { ...run, created_at: NOW, updated_at: NOW }, { reason: 'r' })
    repo.insertItems(id, items)
  })()
  return repo.run(id)!
}

const result: ItemPayload = {
  target: 'vul-0',
  label: null,
  message: null,
  code: null,
  resultId: 'exc-1',
}

/** The counts a repo that has kept nothing reads from the database. */
const fresh = (runId: string) => new BulkRepo(t.db).counts(runId)

describe('a run’s counts by state', () => {
  it('follow each write’s moves and equal a fresh count', () => {
    const run = newRun('r1', 5)
    expect(repo.counts(run.id)).toMatchObject({ queued: 5, total: 5 })
    repo.setState('w-r1-0', 'sending', run.id, NOW)
    repo.finish(key, run, 'w-r1-0', 'done', result, NOW)
    repo.setState('w-r1-1', 'sending', run.id, NOW)
    repo.finish(key, run, 'w-r1-1', 'failed', { ...result, message: 'Refused' }, NOW)
    repo.setState('w-r1-2', 'sending', run.id, NOW)
    expect(repo.counts(run.id)).toMatchObject({
      queued: 2,
      sending: 1,
      done: 1,
      failed: 1,
      total: 5,
    })
    expect(repo.counts(run.id)).toEqual(fresh(run.id))
    expect(repo.finished(run.id)).toBe(false)

    repo.requeueSending()
    expect(repo.counts(run.id)).toMatchObject({ queued: 3, sending: 0 })
    expect(repo.counts(run.id)).toEqual(fresh(run.id))
    repo.move(run.id, 'queued', 'cancelled')
    expect(repo.counts(run.id)).toMatchObject({ queued: 0, cancelled: 3 })
    expect(repo.counts(run.id)).toEqual(fresh(run.id))
    expect(repo.finished(run.id)).toBe(true)
  })

  it('are right after a caller’s transaction rolls back a move', () => {
    const run = newRun('r2', 3)
    expect(repo.counts(run.id)).toMatchObject({ queued: 3 })
    expect(() =>
      t.db.transaction(() => {
        repo.finish(key, run, 'w-r2-0', 'done', result, NOW)
        throw new Error('the disk gave out')
      })(),
    ).toThrow(/disk/)
    expect(repo.counts(run.id)).toMatchObject({ queued: 3, done: 0 })
    expect(repo.counts(run.id)).toEqual(fresh(run.id))
  })

  it('are a copy: a caller changing them changes nothing kept', () => {
    const run = newRun('r3', 2)
    const counts = repo.counts(run.id)
    counts.queued = 0
    expect(repo.counts(run.id).queued).toBe(2)
  })

  it('go with the run', () => {
    const run = newRun('r4', 2)
    repo.counts(run.id)
    repo.deleteRun(run.id)
    expect(repo.counts(run.id)).toMatchObject({ total: 0 })
  })

  it('take the write’s outbox row away with its result, in one statement', () => {
    const run = newRun('r5', 1)
    t.db
      .prepare(
        `INSERT INTO outbox (id, seq, account_id, account_label, op, sealed, state, created_at, bulk_write)
       VALUES ('ob-1', 1, ?, 'Acme', 'exceptions.create', x'00', 'sending', ?, 'w-r5-0')`,
      )
      .run(ACCOUNT, NOW)
    repo.finish(key, run, 'w-r5-0', 'done', result, NOW)
    expect(t.db.prepare('SELECT COUNT(*) AS n FROM outbox').get()).toEqual({ n: 0 })
    expect(repo.item('w-r5-0')?.state).toBe('done')
  })
})
