// A crash during rapid edits loses no acknowledged edit: a child process saves an SAQ draft
// through the core (SQLite on disk, one transaction per save) as fast as it can and is killed
// with SIGKILL mid-stream; a new core on the same folder finds every edit the child was told
// was saved. The same holds when the kill lands while the offline copy is being refreshed, and
// the file ledger keeps its rows. Drafts and the copy are sealed with the account's key, which the
// OS keychain keeps across the crash: the child prints it and the next core's vault holds it.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { DraftView } from '@contract/drafts'
import type { LedgerEntry } from '@contract/files'
import type { CacheStatus } from '@contract/offline'
import { MemoryVault } from '../../electron/core/accounts/memory-vault'
import { startTestCore } from './core-helpers'

const KILL_AFTER_ACKS = 300
const KILL_AFTER_REFRESHES = 60

/** The next start's vault: the keychain still holds the account's key after the crash. */
async function keychainAfterCrash(accountId: string, key: string): Promise<MemoryVault> {
  const vault = new MemoryVault()
  await vault.set(accountId, 'cache_key', key)
  return vault
}

/** Runs the child until it acknowledged enough saves, kills it, returns what it printed. */
function runAndKill(
  dataDir: string,
  mode: 'drafts' | 'cache' = 'drafts',
): Promise<{ accountId: string; lastAck: number; ledgerId: string; key: string }> {
  return new Promise((resolve, reject) => {
    // `node --import tsx` runs the child in this very process (the tsx command line would start
    // a second node under it, which a SIGKILL of the first would leave running); the child also
    // leads its own process group, and the whole group is killed.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'tests/integration/drafts-crash-child.ts'],
      {
        env: {
          ...process.env,
          TSX_TSCONFIG_PATH: 'tsconfig.node.json',
          CHILD_DATA_DIR: dataDir,
          CHILD_MODE: mode,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      },
    )
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        child.kill('SIGKILL')
      }
    }
    let out = ''
    let err = ''
    let accountId = ''
    let ledgerId = ''
    let key = ''
    let lastAck = 0
    let killed = false
    const timer = setTimeout(killGroup, 60_000)
    child.stderr.on('data', (b: Buffer) => (err += b.toString()))
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString()
      const lines = out.split('\n')
      out = lines.pop() ?? ''
      for (const line of lines) {
        const [word, value] = line.split(' ')
        if (word === 'account') accountId = value
        if (word === 'ledger') ledgerId = value
        if (word === 'key') key = value
        if (word === 'ack') lastAck = Number(value)
      }
      if (!killed && lastAck >= (mode === 'cache' ? KILL_AFTER_REFRESHES : KILL_AFTER_ACKS)) {
        killed = true
        killGroup()
      }
    })
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      if (signal === 'SIGKILL' && killed) resolve({ accountId, lastAck, ledgerId, key })
      else reject(new Error(`child ended with ${code ?? signal}: ${err}`))
    })
  })
}

describe('drafts survive a crash', () => {
  it('keeps every acknowledged edit when the process is killed during rapid saves', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-crash-'))
    const dataDir = path.join(root, 'data')
    fs.mkdirSync(dataDir)
    try {
      const { accountId, lastAck, key } = await runAndKill(dataDir)
      expect(lastAck).toBeGreaterThanOrEqual(KILL_AFTER_ACKS)
      const t = await startTestCore({ dataDir, vault: await keychainAfterCrash(accountId, key) })
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
      fs.rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)

  it('keeps drafts and ledger rows when killed while the offline copy is refreshed', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'scandesk-crash-'))
    const dataDir = path.join(root, 'data')
    fs.mkdirSync(dataDir)
    try {
      const { accountId, lastAck, ledgerId, key } = await runAndKill(dataDir, 'cache')
      expect(lastAck).toBeGreaterThanOrEqual(KILL_AFTER_REFRESHES)
      expect(ledgerId).not.toBe('')
      const t = await startTestCore({ dataDir, vault: await keychainAfterCrash(accountId, key) })
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
      fs.rmSync(root, { recursive: true, force: true })
    }
  }, 120_000)
})
