// The main process's drafts store (drafts.get / save / delete) kept in memory for unit tests.
import type { Kept } from '@contract/kept'
import type { FakeScandesk } from './fakeScandesk'

/** Which draft a drafts call names. */
interface DraftRef {
  accountId: string
  kind?: string
  key?: string
}

/** The drafts the fake holds, by account id (a form dialog's by `<account>/dialog/<key>`). */
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
  // A form dialog's draft (kind 'dialog', in main's memory) has an entry of its own.
  const slot = (p: DraftRef) =>
    p.kind === 'dialog' ? `${p.accountId}/dialog/${p.key ?? ''}` : p.accountId
  const save = (p: DraftRef & { data: unknown }) => {
    const savedAt = options.savedAt(++n)
    const kept = p.kind === 'dialog' ? 'memory' : (options.kept?.() ?? 'disk')
    stored[slot(p)] = { data: p.data, savedAt, kept }
    return { savedAt, kept }
  }
  const { gate } = options
  fake.handle('drafts.get', (p: DraftRef) => {
    const draft = stored[slot(p)]
    return draft ? { kept: 'disk', ...draft } : null
  })
  fake.handle(
    'drafts.save',
    gate
      ? async (p: DraftRef & { data: unknown }) => {
          const wait = gate()
          if (wait) await wait
          return save(p)
        }
      : save,
  )
  fake.handle('drafts.delete', (p: DraftRef) => {
    const deleted = slot(p) in stored
    delete stored[slot(p)]
    return { deleted }
  })
  return stored
}
