// Drafts through the core's channels, on SQLite on disk: a save survives a restart, goes with
// its account, and bad payloads are refused before anything is stored.
import { describe, expect, it } from 'vitest'
import type { DraftView } from '@contract/drafts'
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
