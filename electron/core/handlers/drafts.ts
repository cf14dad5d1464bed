import { AppFailure } from '@contract/errors'
import type { DraftsRepo } from '../store/drafts-repo'
import type { HandlerTable } from './dispatch'

const NO_ACCOUNT = {
  code: 'UNKNOWN_ACCOUNT',
  message: 'This account is no longer in ScanDesk.',
} as const

/** drafts.get / save / delete / list: work in progress per account, kept on this computer. */
export function draftsHandlers(
  drafts: DraftsRepo,
): Pick<HandlerTable, 'drafts.get' | 'drafts.save' | 'drafts.delete' | 'drafts.list'> {
  return {
    'drafts.get': async ({ accountId, kind, key }) => drafts.get(accountId, kind, key),
    'drafts.save': async ({ accountId, kind, key, data }) => {
      const saved = await drafts.save(accountId, kind, key, data)
      if (!saved) throw new AppFailure({ ...NO_ACCOUNT })
      return saved
    },
    'drafts.delete': async ({ accountId, kind, key }) => ({
      deleted: drafts.delete(accountId, kind, key),
    }),
    'drafts.list': async ({ accountId, kind }) => drafts.list(accountId, kind),
  }
}
