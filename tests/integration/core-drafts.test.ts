// Drafts through the core's channels, on SQLite on disk: a save survives a restart, goes with
// its account, and bad payloads are refused before anything is stored. Drafts an earlier version
// kept in plain text are sealed at start when the keychain answers, and left as they are when not.
import path from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it, vi } from 'vitest'
import type { DraftView } from '@contract/drafts'
import { MemoryVault } from '../../electron/core/accounts/memory-vault'
import { DB_FILE } from '../../electron/core/store/database'
import { bytesOf, startTestCore } from './core-helpers'
import { useSandboxAndCore } from './fixture'

const s = useSandboxAndCore({ each: 'analyst' })

describe('drafts through the core', () => {
  it('keeps a wizard draft across a restart and drops it with the account', async () => {
    const ref = { accountId: s.account.id, kind: 'scan-wizard' }
    await s.t.ok('drafts.save', { ...ref, data: { step: 2, hosts: ['10.0.0.1'] } })
    await s.t.close()
    await s.reopen()
    const kept = await s.t.ok<DraftView | null>('drafts.get', ref)
    expect(kept?.data).toEqual({ step: 2, hosts: ['10.0.0.1'] })
    await s.t.ok('accounts.remove', { accountId: s.account.id })
    expect(await s.t.ok('drafts.get', ref)).toBeNull()
    expect((await s.t.err('drafts.save', { ...ref, data: {} })).code).toBe('UNKNOWN_ACCOUNT')
  })

  it('refuses a kind it does not know, storing nothing', async () => {
    const bad = await s.t.err('drafts.save', { accountId: s.account.id, kind: 'notes', data: {} })
    expect(bad.code).toBe('VALIDATION')
    expect(bad.fieldErrors?.kind).toBeDefined()
    expect(await s.t.ok('drafts.list', { accountId: s.account.id, kind: 'scan-wizard' })).toEqual(
      [],
    )
  })
})

describe('drafts an earlier version kept in plain text', () => {
  const TEXT = 'MARKER-segmentation-test-3391'
  const ref = () => ({ accountId: s.account.id, kind: 'saq', key: 'old-1' })
  const plainDrafts = (dataDir: string) => {
    const db = new Database(path.join(dataDir, DB_FILE), { readonly: true })
    try {
      return db.prepare('SELECT COUNT(*) AS n FROM drafts WHERE data IS NOT NULL').get()
    } finally {
      db.close()
    }
  }

  it('are left as they are while the keychain does not answer, and sealed at the next start when it does', async () => {
    await s.t.close()
    const { dataDir } = s.t
    const db = new Database(path.join(dataDir, DB_FILE))
    db.prepare(
      `INSERT INTO drafts (account_id, kind, key, data, saved_at)
       VALUES (?, 'saq', 'old-1', ?, '2026-01-01T00:00:00.000Z')`,
    ).run(s.account.id, JSON.stringify({ explanation: TEXT }))
    db.close()

    const locked = await startTestCore({
      dataDir,
      vault: new MemoryVault({ available: false, message: 'locked' }),
    })
    try {
      const kept = await locked.ok<DraftView | null>('drafts.get', ref())
      expect(kept?.data).toEqual({ explanation: TEXT })
    } finally {
      await locked.close()
    }
    expect(plainDrafts(dataDir)).toEqual({ n: 1 })

    await s.reopen()
    // Sealed in the background of the start (a slow keychain does not hold it up).
    await vi.waitFor(() => expect(plainDrafts(dataDir)).toEqual({ n: 0 }))
    expect(bytesOf(dataDir).includes(Buffer.from(TEXT))).toBe(false)
    const sealed = await s.t.ok<DraftView | null>('drafts.get', ref())
    expect(sealed?.data).toEqual({ explanation: TEXT })
  })
})
