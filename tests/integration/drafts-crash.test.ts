// A crash during rapid edits loses no acknowledged edit: a child process saves an SAQ draft
// through the core (SQLite on disk, one transaction per save) as fast as it can and is killed
// with SIGKILL mid-stream; a new core on the same folder finds every edit the child was told
// was saved. The same holds when the kill lands while the offline copy is being refreshed, and
// the file ledger keeps its rows. Drafts and the copy are sealed with the account's key, which the
// OS keychain keeps across the crash: the child prints it and the next core's vault holds it.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { DraftView } from '@contract/drafts'
import type { LedgerEntry } from '@contract/files'
import type { CacheStatus } from '@contract/offline'
import { startTestCore } from './core-helpers'
import { crashRoot, keychainAfterCrash, spawnCrashChild, type ChildSecrets } from './crash-helpers'

const KILL_AFTER_ACKS = 300
const KILL_AFTER_REFRESHES = 60

/** Runs the child until it acknowledged enough saves, kills it, returns what it said. */
async function runAndKill(
  dataDir: string,
  mode: 'drafts' | 'cache' = 'drafts',
): Promise<{ accountId: string; lastAck: number; ledgerId: string; held: ChildSecrets }> {
  const child = spawnCrashChild('tests/integration/drafts-crash-child.ts', {
    CHILD_DATA_DIR: dataDir,
    CHILD_MODE: mode,
  })
  const enough = mode === 'cache' ? KILL_AFTER_REFRESHES : KILL_AFTER_ACKS
  await child.waitFor((word, value) => word === 'ack' && Number(value) >= enough, 'the acks')
  await child.kill()
  return {
    accountId: child.said('account')[0],
    // Acks said before the kill landed count too: each was said once its save was answered.
    lastAck: Number(child.said('ack').at(-1)),
    ledgerId: child.said('ledger')[0] ?? '',
    held: child.secrets(),
  }
}

describe('drafts survive a crash', () => {
  it('keeps every acknowledged edit when the process is killed during rapid saves', async () => {
    const { dataDir, remove } = crashRoot()
    try {
      const { accountId, lastAck, held } = await runAndKill(dataDir)
      expect(lastAck).toBeGreaterThanOrEqual(KILL_AFTER_ACKS)
      const t = await startTestCore({ dataDir, vault: await keychainAfterCrash(held) })
      try {
        const draft = await t.ok<DraftView | null>('drafts.get', {
          accountId,
          kind: 'saq',
          key: 'local-crash',
        })
        const data = draft?.data as { n: number; answers: Record<string, { explanation: string }> }
        // The stored draft is a whole save (never a torn one) at or after the last acknowledged
        // one: the child may have saved a few more before the kill landed.
        expect(data.n).toBeGreaterThanOrEqual(lastAck)
        expect(Object.keys(data.answers)).toHaveLength(data.n)
        for (let n = 1; n <= data.n; n++)
          expect(data.answers[`r${n}`]?.explanation).toBe(`edit ${n}`)
        // The store opened cleanly: the account and its draft list are intact.
        const list = await t.ok<{ key: string }[]>('drafts.list', { accountId, kind: 'saq' })
        expect(list.map((d) => d.key)).toEqual(['local-crash'])
      } finally {
        await t.close()
      }
    } finally {
      remove()
    }
  }, 120_000)

  it('keeps drafts and ledger rows when killed while the offline copy is refreshed', async () => {
    const { dataDir, remove } = crashRoot()
    try {
      const { accountId, lastAck, ledgerId, held } = await runAndKill(dataDir, 'cache')
      expect(lastAck).toBeGreaterThanOrEqual(KILL_AFTER_REFRESHES)
      expect(ledgerId).not.toBe('')
      const t = await startTestCore({ dataDir, vault: await keychainAfterCrash(held) })
      try {
        const draft = await t.ok<DraftView | null>('drafts.get', {
          accountId,
          kind: 'saq',
          key: 'local-crash',
        })
        const data = draft?.data as { n: number; answers: Record<string, unknown> }
        expect(data.n).toBeGreaterThanOrEqual(lastAck)
        expect(Object.keys(data.answers)).toHaveLength(data.n)
        const ledger = await t.ok<LedgerEntry[]>('library.list', { accountId })
        expect(ledger.map((e) => [e.id, e.verdict])).toEqual([[ledgerId, 'verified']])
        // The copy itself opened whole (not set aside), its rows under the key that was kept.
        const status = await t.ok<CacheStatus>('cache.status', { accountId })
        expect(status.message).toBeNull()
        expect(status.entries).toBeGreaterThan(0)
        expect(status.newest).not.toBeNull()
        expect(fs.existsSync(path.join(dataDir, 'cache.db.damaged'))).toBe(false)
      } finally {
        await t.close()
      }
    } finally {
      remove()
    }
  }, 120_000)
})
