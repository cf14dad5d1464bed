import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AccountKeys } from '../accounts/account-keys'
import { MemoryVault } from '../accounts/memory-vault'
import { migrate, schemaVersion } from '../store/database'
import { CACHE_DB_FILE, CACHE_MIGRATIONS, openCacheDatabase } from './cache-db'
import { CacheStore, type CachedAnswer } from './cache-store'

let dir: string
let vault: MemoryVault
const stores: CacheStore[] = []

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-cache-sealing-'))
  vault = new MemoryVault()
})
afterEach(() => {
  for (const s of stores.splice(0)) s.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

/** One start of ScanDesk over the copy in `dir` (the same keychain each time). */
function start(over: MemoryVault = vault) {
  const opened = openCacheDatabase(dir)
  const store = new CacheStore(opened.db, {
    keys: new AccountKeys(over),
    maxBytes: () => 64 * 1024 ** 2,
  })
  stores.push(store)
  return { store, db: opened.db }
}

type Stored = { id: Buffer; blob: Buffer; stamp: Buffer }
const rows = (db: Database.Database) =>
  db.prepare('SELECT id, blob, stamp FROM cache_entries ORDER BY rowid').all() as Stored[]

const answer = (data: unknown, fetchedAt: string): CachedAnswer => ({
  data,
  fetchedAt,
  etag: null,
  lastModified: null,
})

const ANALYST = { accountId: 'acc-1', identity: 'user analyst@example.com' }
const ADMIN = { accountId: 'acc-1', identity: 'user admin@example.com' }
const ACTING = { accountId: 'acc-1', identity: 'acting as usr-002' }

describe('the fetch time of the offline copy', () => {
  it('is sealed: nowhere in clear, and a stamp moved to another entry does not open', async () => {
    const first = start()
    await first.store.put(ANALYST, 'old', answer('old answer', '2019-03-01T08:00:00.000Z'))
    await first.store.put(ANALYST, 'new', answer('new answer', '2019-03-25T08:00:00.000Z'))
    first.store.checkpoint()
    const bytes = fs.readFileSync(path.join(dir, CACHE_DB_FILE))
    expect(bytes.includes(Buffer.from('2019-03-'))).toBe(false)
    // Someone makes the old answer look fresh: the new entry's stamp on the old one.
    const [old, fresh] = rows(first.db)
    first.db.prepare('UPDATE cache_entries SET stamp = ? WHERE id = ?').run(fresh.stamp, old.id)
    first.store.close()

    const next = start()
    expect(await next.store.get(ANALYST, 'old')).toBeNull()
    expect(await next.store.get(ANALYST, 'new')).toEqual(
      answer('new answer', '2019-03-25T08:00:00.000Z'),
    )
    // The entry that could not prove its age is gone.
    expect(rows(next.db)).toHaveLength(1)
  })

  it('of a later fetch does not make an earlier answer of the same request look fresh', async () => {
    const first = start()
    await first.store.put(ANALYST, 'r', answer({ hosts: 1 }, '2026-11-01T08:00:00.000Z'))
    const [earlier] = rows(first.db)
    await first.store.put(ANALYST, 'r', answer({ hosts: 2 }, '2026-11-25T08:00:00.000Z'))
    const [later] = rows(first.db)
    first.db.prepare('UPDATE cache_entries SET blob = ? WHERE id = ?').run(earlier.blob, later.id)
    first.store.close()

    expect(await start().store.get(ANALYST, 'r')).toBeNull()
  })

  it('is renewed by a 304 without rewriting the answer, and read back after a restart', async () => {
    const first = start()
    await first.store.put(ANALYST, 'r', answer({ hosts: 1 }, '2026-11-01T08:00:00.000Z'))
    const [before] = rows(first.db)
    await first.store.touch(ANALYST, 'r', '2026-11-25T08:00:00.000Z')
    const [after] = rows(first.db)
    expect(after.blob.equals(before.blob)).toBe(true)
    expect(after.stamp.equals(before.stamp)).toBe(false)
    first.store.close()
    const next = start()
    expect(await next.store.get(ANALYST, 'r')).toEqual(
      answer({ hosts: 1 }, '2026-11-25T08:00:00.000Z'),
    )
    expect(await next.store.status('acc-1')).toMatchObject({
      oldest: '2026-11-25T08:00:00.000Z',
      newest: '2026-11-25T08:00:00.000Z',
    })
  })

  it('drops the rows of an older copy whose age was in clear when it is opened', () => {
    const file = path.join(dir, CACHE_DB_FILE)
    const old = new Database(file)
    migrate(old, CACHE_MIGRATIONS.slice(0, 1))
    old
      .prepare(
        `INSERT INTO cache_entries (account_id, id, blob, size, fetched_at, used_at)
         VALUES ('acc-1', x'01', x'0203', 2, '2099-01-01T00:00:00.000Z', 0)`,
      )
      .run()
    old.close()

    const { db } = start()
    expect(schemaVersion(db)).toBe(2)
    expect(rows(db)).toEqual([])
  })
})

describe('the offline copy per signed-in identity', () => {
  it('keeps what each identity was shown apart, and clears them all with the account', async () => {
    const { store } = start()
    await store.put(ADMIN, 'user.show', answer({ email: 'admin' }, '2026-11-20T10:00:00.000Z'))
    expect(await store.get(ACTING, 'user.show')).toBeNull()
    expect(await store.validators(ACTING, 'user.show')).toBeNull()
    await store.put(ACTING, 'user.show', answer({ email: 'analyst' }, '2026-11-20T11:00:00.000Z'))
    expect((await store.get(ADMIN, 'user.show'))?.data).toEqual({ email: 'admin' })
    expect((await store.get(ACTING, 'user.show'))?.data).toEqual({ email: 'analyst' })
    expect((await store.status('acc-1')).entries).toBe(2)
    store.clear('acc-1')
    expect(await store.get(ADMIN, 'user.show')).toBeNull()
    expect(await store.get(ACTING, 'user.show')).toBeNull()
  })

  it('keeps identities apart in the copy held in memory too (no keychain)', async () => {
    const { store } = start(new MemoryVault({ available: false, message: 'no keychain' }))
    await store.put(ADMIN, 'user.show', answer({ email: 'admin' }, '2026-11-20T10:00:00.000Z'))
    expect(await store.get(ACTING, 'user.show')).toBeNull()
    expect((await store.get(ADMIN, 'user.show'))?.data).toEqual({ email: 'admin' })
  })
})

describe('a fetch time renewed within a minute of its stamp', () => {
  const T = '2026-11-25T08:00:00.000Z'
  const later = (seconds: number) => new Date(Date.parse(T) + seconds * 1000).toISOString()

  it('is read at once, written at close; a crash leaves the stamp less than a minute older', async () => {
    const first = start()
    await first.store.put(ANALYST, 'r', answer({ hosts: 1 }, T))
    const [before] = rows(first.db)
    await first.store.touch(ANALYST, 'r', later(20))
    await first.store.put(ANALYST, 'r', answer({ hosts: 1 }, later(40)))
    expect(rows(first.db)[0].stamp.equals(before.stamp)).toBe(true)
    expect((await first.store.get(ANALYST, 'r'))?.fetchedAt).toBe(later(40))

    // A crash now (the first store is never closed): the next start reads the stamp on disk.
    const crashed = start()
    expect((await crashed.store.get(ANALYST, 'r'))?.fetchedAt).toBe(T)

    first.store.close()
    expect((await start().store.get(ANALYST, 'r'))?.fetchedAt).toBe(later(40))
  })

  it('is written before the copy’s ages are reported', async () => {
    const { store, db } = start()
    await store.put(ANALYST, 'r', answer({ hosts: 1 }, T))
    await store.touch(ANALYST, 'r', later(30))
    expect(await store.status('acc-1')).toMatchObject({ oldest: later(30), newest: later(30) })
    expect((await start().store.get(ANALYST, 'r'))?.fetchedAt).toBe(later(30))
    expect(rows(db)).toHaveLength(1)
  })

  it('a minute or more after the stamp is written at once', async () => {
    const { store, db } = start()
    await store.put(ANALYST, 'r', answer({ hosts: 1 }, T))
    const [before] = rows(db)
    await store.touch(ANALYST, 'r', later(60))
    expect(rows(db)[0].stamp.equals(before.stamp)).toBe(false)
    expect((await start().store.get(ANALYST, 'r'))?.fetchedAt).toBe(later(60))
  })

  it('is not given to a new answer stored after it', async () => {
    const first = start()
    await first.store.put(ANALYST, 'r', answer({ hosts: 1 }, T))
    await first.store.touch(ANALYST, 'r', later(50))
    await first.store.put(ANALYST, 'r', answer({ hosts: 2 }, later(10)))
    first.store.close()
    expect(await start().store.get(ANALYST, 'r')).toEqual(answer({ hosts: 2 }, later(10)))
  })
})
