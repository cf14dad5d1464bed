import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { inflateRawSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MemoryVault } from '../accounts/memory-vault'
import { CACHE_DB_FILE, CACHE_SET_ASIDE_FILE, openCacheDatabase } from './cache-db'
import { AccountKeys } from '../accounts/account-keys'
import { CacheStore, type CachedAnswer } from './cache-store'

let dir: string
let store: CacheStore | undefined

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-cache-'))
})
afterEach(() => {
  store?.close()
  store = undefined
  fs.rmSync(dir, { recursive: true, force: true })
})

function open(vault = new MemoryVault(), maxBytes = 64 * 1024 ** 2) {
  const opened = openCacheDatabase(dir)
  store = new CacheStore(opened.db, {
    keys: new AccountKeys(vault),
    maxBytes: () => maxBytes,
    setAside: opened.setAside,
  })
  return { store, opened, vault }
}

const answer = (data: unknown, fetchedAt = '2026-11-20T10:00:00.000Z'): CachedAnswer => ({
  data,
  fetchedAt,
  etag: '"abc"',
  lastModified: null,
})

/** The analyst signed in to account acc-1, and someone signed in to acc-2. */
const A1 = { accountId: 'acc-1', identity: 'user analyst@example.com' }
const A2 = { accountId: 'acc-2', identity: 'user analyst@example.com' }

const SECRET_HOST = 'payments-db-07.internal.example'

describe('the offline copy', () => {
  it('gives back what was stored, with its fetch time and validators, per account and request', async () => {
    const { store } = open()
    await store.put(A1, 'scans.list /v2/scans {}', answer({ data: [{ id: 's1' }] }))
    expect(await store.get(A1, 'scans.list /v2/scans {}')).toEqual(answer({ data: [{ id: 's1' }] }))
    expect(await store.get(A1, 'scans.list /v2/scans {"page":2}')).toBeNull()
    expect(await store.get(A2, 'scans.list /v2/scans {}')).toBeNull()
  })

  it('writes neither the answer nor the request in clear, and keeps its key in the vault', async () => {
    const { store, vault, opened } = open()
    await store.put(
      A1,
      `hosts.list /v2/hosts {"q":"${SECRET_HOST}"}`,
      answer({ host: SECRET_HOST }),
    )
    store.checkpoint()
    const bytes = fs.readFileSync(path.join(dir, CACHE_DB_FILE))
    expect(bytes.includes(Buffer.from(SECRET_HOST))).toBe(false)
    expect(bytes.includes(Buffer.from('hosts.list'))).toBe(false)
    const key = await vault.get('acc-1', 'cache_key')
    expect(Buffer.from(key!, 'base64')).toHaveLength(32)
    // Not merely compressed: the stored bytes do not inflate to the answer.
    const { blob } = opened.db.prepare('SELECT blob FROM cache_entries').get() as { blob: Buffer }
    const inflated = [blob, blob.subarray(28)].map((b) => {
      try {
        return inflateRawSync(b).toString('utf8')
      } catch {
        return ''
      }
    })
    expect(inflated.some((text) => text.includes(SECRET_HOST))).toBe(false)
  })

  it('refuses an entry moved to another request or altered on disk', async () => {
    const vault = new MemoryVault()
    const first = open(vault).store
    await first.put(A1, 'a', answer('first'))
    await first.put(A1, 'b', answer('second'))
    first.close()
    // Swap the two blobs while ScanDesk is closed: each is bound to its own name, so neither opens.
    const { store, opened } = open(vault)
    const rows = opened.db.prepare('SELECT id, blob FROM cache_entries').all() as {
      id: Buffer
      blob: Buffer
    }[]
    const swap = opened.db.prepare('UPDATE cache_entries SET blob = ? WHERE id = ?')
    swap.run(rows[1].blob, rows[0].id)
    swap.run(rows[0].blob, rows[1].id)
    expect(await store.get(A1, 'a')).toBeNull()
    expect(await store.get(A1, 'b')).toBeNull()
    // …and both were removed rather than tried again.
    expect(opened.db.prepare('SELECT COUNT(*) AS n FROM cache_entries').get()).toEqual({ n: 0 })
  })

  it('writes nothing to disk when the keychain is not available: memory only, and says so', async () => {
    const { store, opened } = open(new MemoryVault({ available: false, message: 'no keychain' }))
    expect(await store.put(A1, 'a', answer('x'))).toBe(true)
    expect(await store.get(A1, 'a')).toEqual(answer('x'))
    expect(opened.db.prepare('SELECT COUNT(*) AS n FROM cache_entries').get()).toEqual({ n: 0 })
    const status = await store.status('acc-1')
    expect(status).toMatchObject({ persisted: false, entries: 1 })
    expect(status.message).toMatch(/keychain is not available.*until ScanDesk quits/)
    store.clear('acc-1')
    expect(await store.get(A1, 'a')).toBeNull()
  })

  it('keeps the memory-only copy under the cap too, least recently used first', async () => {
    const opened = openCacheDatabase(dir)
    store = new CacheStore(opened.db, {
      keys: new AccountKeys(new MemoryVault({ available: false, message: 'no keychain' })),
      maxBytes: () => 2_500,
    })
    for (const name of ['a', 'b', 'c']) await store.put(A1, name, answer('x'.repeat(1000)))
    expect(await store.get(A1, 'a')).toBeNull()
    expect(await store.get(A1, 'c')).not.toBeNull()
    expect(await store.put(A1, 'huge', answer('y'.repeat(3000)))).toBe(false)
  })

  it('drops entries sealed under a key the keychain no longer has', async () => {
    const vault = new MemoryVault()
    let s = open(vault).store
    await s.put(A1, 'a', answer('x'))
    s.close()
    await vault.delete('acc-1', 'cache_key')
    s = open(vault).store
    expect(await s.get(A1, 'a')).toBeNull()
    expect((await s.status('acc-1')).entries).toBe(0)
  })

  it('keeps each account under its cap, evicting the least recently used first', async () => {
    let clock = 0
    const opened = openCacheDatabase(dir)
    // Random bytes do not compress: each entry is ~10 KiB on disk.
    const big = (n: number) => crypto.getRandomValues(new Uint8Array(7_000)).join(',') + n
    store = new CacheStore(opened.db, {
      keys: new AccountKeys(new MemoryVault()),
      maxBytes: () => 60 * 1024,
      // A minute apart: uses are written for the eviction order at most once a minute.
      now: () => new Date(Date.UTC(2026, 0, 1) + ++clock * 61_000),
    })
    for (const name of ['a', 'b', 'c', 'd']) await store.put(A1, name, answer(big(1)))
    await store.get(A1, 'a') // a is used again: b is now the oldest
    for (const name of ['e', 'f', 'g']) await store.put(A1, name, answer(big(2)))
    await store.put(A2, 'other', answer(big(3)))
    const status = await store.status('acc-1')
    expect(status.bytes).toBeLessThanOrEqual(60 * 1024)
    expect(await store.get(A1, 'b')).toBeNull()
    expect(await store.get(A1, 'a')).not.toBeNull()
    expect(await store.get(A1, 'g')).not.toBeNull()
    expect(await store.get(A2, 'other')).not.toBeNull()
  })

  it('does not keep an answer larger than the whole cap', async () => {
    const opened = openCacheDatabase(dir)
    store = new CacheStore(opened.db, {
      keys: new AccountKeys(new MemoryVault()),
      maxBytes: () => 1024,
    })
    const noise = crypto.getRandomValues(new Uint8Array(4_000)).join(',')
    expect(await store.put(A1, 'a', answer(noise))).toBe(false)
    expect(await store.put(A1, 'b', answer('small'))).toBe(true)
  })

  it('rewrites only the sealed fetch time when the same answer comes again, and knows its validators without opening it', async () => {
    const vault = new MemoryVault()
    const first = open(vault)
    await first.store.put(A1, 'a', answer({ rows: [1, 2, 3] }, '2026-11-20T10:00:00.000Z'))
    const row = (db = first.opened.db) =>
      db.prepare('SELECT blob, stamp FROM cache_entries').get() as { blob: Buffer; stamp: Buffer }
    const before = row()
    await first.store.put(A1, 'a', answer({ rows: [1, 2, 3] }, '2026-11-21T10:00:00.000Z'))
    expect(row().blob.equals(before.blob)).toBe(true)
    expect(row().stamp.equals(before.stamp)).toBe(false)
    expect(await first.store.validators(A1, 'a')).toEqual({ etag: '"abc"', lastModified: null })
    expect(await first.store.validators(A1, 'b')).toBeNull()
    first.store.close()
    // Read back from disk (nothing in memory): the same answer with its new fetch time.
    const again = open(vault)
    expect(await again.store.get(A1, 'a')).toEqual(
      answer({ rows: [1, 2, 3] }, '2026-11-21T10:00:00.000Z'),
    )
    await again.store.put(A1, 'a', answer({ rows: [1, 2, 4] }, '2026-11-22T10:00:00.000Z'))
    expect(row(again.opened.db).blob.equals(before.blob)).toBe(false)
  })

  it('counts a 304 as fetched now and reports entries, size and ages', async () => {
    const { store } = open()
    await store.put(A1, 'a', answer('x', '2026-11-20T10:00:00.000Z'))
    await store.put(A1, 'b', answer('y', '2026-11-21T10:00:00.000Z'))
    await store.touch(A1, 'a', '2026-11-22T10:00:00.000Z')
    expect((await store.get(A1, 'a'))?.fetchedAt).toBe('2026-11-22T10:00:00.000Z')
    const status = await store.status('acc-1')
    expect(status).toMatchObject({
      entries: 2,
      persisted: true,
      message: null,
      oldest: '2026-11-21T10:00:00.000Z',
      newest: '2026-11-22T10:00:00.000Z',
    })
    expect(status.bytes).toBeGreaterThan(0)
  })

  it('clears one account and forgets a removed one', async () => {
    const { store } = open()
    await store.put(A1, 'a', answer('x'))
    await store.put(A2, 'a', answer('y'))
    store.clear('acc-1')
    expect(await store.get(A1, 'a')).toBeNull()
    expect(await store.get(A2, 'a')).not.toBeNull()
    store.dropAccount('acc-2')
    expect((await store.status('acc-2')).entries).toBe(0)
  })

  it('folds the WAL back into the file after a bulk of writes', async () => {
    const opened = openCacheDatabase(dir)
    store = new CacheStore(opened.db, {
      keys: new AccountKeys(new MemoryVault()),
      maxBytes: () => 64 * 1024 ** 2,
      checkpointBytes: 1,
    })
    for (let i = 0; i < 20; i++) await store.put(A1, `r${i}`, answer('x'.repeat(5000) + i))
    const wal = path.join(dir, `${CACHE_DB_FILE}-wal`)
    expect(fs.statSync(wal).size).toBeGreaterThan(0)
    store.checkpoint()
    expect(fs.statSync(wal).size).toBe(0)
  })
})

describe('a damaged offline copy at start', () => {
  // The same keychain across the "restarts": a new key would drop the rows as unreadable.
  let vault: MemoryVault
  beforeEach(() => {
    vault = new MemoryVault()
  })

  async function fill() {
    const { store: s } = open(vault)
    for (let i = 0; i < 50; i++) await s.put(A1, `r${i}`, answer('x'.repeat(3000) + i))
    s.close()
    store = undefined
  }

  it('sets aside a file that is not a database and starts empty', async () => {
    fs.writeFileSync(path.join(dir, CACHE_DB_FILE), 'this is not sqlite at all, just text')
    const { opened, store } = open()
    expect(opened.setAside).toBe('not a database')
    expect(fs.readFileSync(path.join(dir, CACHE_SET_ASIDE_FILE), 'utf8')).toMatch(/not sqlite/)
    expect((await store.status('acc-1')).message).toMatch(/damaged .* set aside/)
    expect(await store.put(A1, 'a', answer('works again'))).toBe(true)
  })

  it('sets aside a file cut short', async () => {
    await fill()
    const file = path.join(dir, CACHE_DB_FILE)
    fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2))
    const { opened, store } = open()
    expect(opened.setAside).toBe('truncated')
    expect((await store.status('acc-1')).entries).toBe(0)
  })

  it('sets aside a file whose pages are garbled', async () => {
    await fill()
    const file = path.join(dir, CACHE_DB_FILE)
    const bytes = fs.readFileSync(file)
    // Keep the 100-byte header, garble the b-tree pages.
    for (let i = 4096; i < bytes.length; i += 7) bytes[i] = (bytes[i] + 91) % 256
    fs.writeFileSync(file, bytes)
    const { opened } = open()
    expect(opened.setAside).not.toBeNull()
  })

  it('opens a whole copy without setting anything aside', async () => {
    await fill()
    const { opened, store } = open(vault)
    expect(opened.setAside).toBeNull()
    expect((await store.status('acc-1')).entries).toBe(50)
    expect(fs.existsSync(path.join(dir, CACHE_SET_ASIDE_FILE))).toBe(false)
  })
})
