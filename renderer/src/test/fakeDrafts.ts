// The main process's drafts store (drafts.get / save / delete) kept in memory for unit tests.
import type { Kept } from '@contract/kept'
import type { FakeScandesk } from './fakeScandesk'

/** The drafts the fake holds, by account id. */
export type StoredDrafts = Record<string, { data: unknown; savedAt: string; kept?: Kept }>

export interface FakeDraftsOptions {
  /** The save time of the n-th save (from 1). */
  savedAt: (n: number) => string
  /** While this answers a promise, saves wait for it (a slow disk). */
  gate?: () => Promise<void> | null
  /** Where main keeps a save (default: on disk; 'memory' as without a keychain). */
  kept?: () => Kept
}

/** Answers the drafts channels of `fake` from the returned object (which tests may fill). */
export function serveDrafts(fake: FakeScandesk, options: FakeDraftsOptions): StoredDrafts {
  const stored: StoredDrafts = {}
  let n = 0
  const save = (p: { accountId: string; data: unknown }) => {
    const savedAt = options.savedAt(++n)
    const kept = options.kept?.() ?? 'disk'
    stored[p.accountId] = { data: p.data, savedAt, kept }
    return { savedAt, kept }
  }
  const { gate } = options
  fake.handle('drafts.get', (p: { accountId: string }) => {
    const draft = stored[p.accountId]
    return draft ? { kept: 'disk', ...draft } : null
  })
  fake.handle(
    'drafts.save',
    gate
      ? async (p: { accountId: string; data: unknown }) => {
          const wait = gate()
          if (wait) await wait
          return save(p)
        }
      : save,
  )
  fake.handle('drafts.delete', (p: { accountId: string }) => {
    const deleted = p.accountId in stored
    delete stored[p.accountId]
    return { deleted }
  })
  return stored
}
